// A change to one's own second factors in flight does not outlive the
// session that asked for it. Two instances on one store, each behind a real
// HTTP server: the account's request on instance A passes its guard and is
// held just before its change reaches the store; meanwhile an administrator
// on instance B disables the account or signs it out everywhere (an account
// being locked down), or the account's other session, on B, ends the held
// request's session alone (its owner ending an unknown device). When the
// held change goes on, its commit reads the account and the session again
// and refuses, as the guard would now: 401 `session_absent`, its factors as
// they were and no event of the change. Before, turning TOTP off, new
// recovery codes, confirming an enrolment and removing a passkey all
// committed after the lockdown; so did, until they were bound too, starting
// an enrolment, renaming a passkey, a registration's challenge, the
// recovery code a re-authentication spends and the challenge and use of a
// re-authentication's passkey; and every one of them committed once its
// session alone had ended, until the session was bound too. Every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser } from "../fixtures/kv.ts";
import { answerOf, servedSecurityApi } from "../fixtures/security.ts";
import {
  heldThrough,
  INTERVENTIONS,
  ownEvents,
  sessionIdOf,
} from "../fixtures/standing.ts";
import { enrolTotp } from "../fixtures/second_factor.ts";
import { totpCode } from "../../server/core/totp.ts";
import { hashRecoveryCode } from "../../server/core/recovery_codes.ts";
import { hashToken } from "../../server/core/_crypto.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import {
  assertion,
  join,
  registerPasskey,
} from "../fixtures/passkey_ceremonies.ts";
import type { Store } from "../../mod.ts";

type Api = ReturnType<typeof servedSecurityApi>;

interface World {
  store: Store;
  userId: string;
  // The recovery codes of its TOTP, when on.
  codes: string[];
  // Its TOTP enrolment's secret, when one is pending.
  secret: string;
  // That enrolment as the store keeps it (its secret sealed).
  enrolment: string;
  passkeyId: string;
  // The id of the session the held request comes with (signed in on A).
  sessionId: string;
  // The account's other session (signed in on B).
  otherCookie: string;
}

interface Case {
  op: string;
  method: keyof Store;
  // The event the change records, if it records one.
  event?: string;
  // TOTP on (with codes) or only an enrolment pending, before the request.
  totp: "on" | "enrolling";
  request(world: World, a: Api): [string, string, unknown?];
  // Holds when nothing changed: the change was not committed.
  unchanged(world: World): Promise<void>;
}

// An old recovery code still spends: the codes were not replaced.
async function oldCodeSpends(w: World): Promise<boolean> {
  return await w.store.useRecoveryCode(
    w.userId,
    hashRecoveryCode(w.codes[0]!)!,
  ) !== null;
}

const CASES: Case[] = [
  {
    op: "disableTotp",
    method: "disableTotp",
    event: "second_factor.disabled",
    totp: "on",
    request: () => ["DELETE", "/api/auth/totp"],
    async unchanged(w) {
      assert((await w.store.accountFactors(w.userId))?.totpEnabled);
      assert(await w.store.totp(w.userId) !== null);
    },
  },
  {
    op: "regenerateRecoveryCodes",
    method: "replaceRecoveryCodes",
    event: "recovery_codes.regenerated",
    totp: "on",
    request: () => ["POST", "/api/auth/recovery-codes"],
    async unchanged(w) {
      assert(await oldCodeSpends(w), "the old codes were replaced");
    },
  },
  {
    op: "confirmTotp",
    method: "confirmTotp",
    event: "second_factor.enabled",
    totp: "enrolling",
    request: (w, a) => ["POST", "/api/auth/totp/confirm", {
      code: totpCode(w.secret, a.clock()),
    }],
    async unchanged(w) {
      assertEquals(
        (await w.store.accountFactors(w.userId))?.totpEnabled,
        false,
      );
      assertEquals(await w.store.totp(w.userId), null);
    },
  },
  {
    // A re-authentication's proof is spent only while its session stands:
    // the code stays the owner's.
    op: "reauthenticate",
    method: "useRecoveryCode",
    event: "recovery_code.used",
    totp: "on",
    request: (w) => ["POST", "/api/auth/reauthenticate", {
      recovery_code: w.codes[0],
    }],
    async unchanged(w) {
      assert(await oldCodeSpends(w), "the recovery code was spent");
    },
  },
  {
    op: "setupTotp",
    method: "startTotpEnrolment",
    totp: "enrolling",
    request: () => ["POST", "/api/auth/totp/setup"],
    async unchanged(w) {
      // The pending enrolment is the one set up before, not a new one.
      const kept = await w.store.totpEnrolment(w.userId, 0);
      assertEquals(kept?.secret, w.enrolment);
    },
  },
  {
    op: "removePasskey",
    method: "removePasskey",
    event: "passkey.removed",
    totp: "on",
    request: (w) => ["DELETE", `/api/auth/passkeys/${w.passkeyId}`],
    async unchanged(w) {
      const passkeys = await w.store.listPasskeys(w.userId);
      assertEquals(passkeys.map((p) => p.id), [w.passkeyId]);
    },
  },
  {
    // A registration's challenge is kept only for a session that stands
    // (its registration would be refused anyway).
    op: "passkeyRegistrationOptions",
    method: "createChallenge",
    totp: "on",
    request: () => ["POST", "/api/auth/passkeys/register/options"],
    async unchanged() {},
  },
  {
    op: "renamePasskey",
    method: "renamePasskey",
    totp: "on",
    request: (w) => ["PATCH", `/api/auth/passkeys/${w.passkeyId}`, {
      name: "Renamed",
    }],
    async unchanged(w) {
      const passkeys = await w.store.listPasskeys(w.userId);
      assertEquals(passkeys.map((p) => p.name), ["Laptop"]);
    },
  },
];

// The account with its session on `a` and another on `b`, TOTP on or an
// enrolment pending, and a passkey.
async function setUp(
  store: Store,
  a: Api,
  b: Api,
  n: number,
  totp: Case["totp"],
): Promise<{ world: World; cookie: string }> {
  const user = await addUser(store, {
    email: `own${n}@example.com`,
    role: "member",
  });
  const cookie = await a.login(user.email);
  const otherCookie = await b.login(user.email);
  let codes: string[] = [];
  let secret = "";
  let enrolment = "";
  if (totp === "on") {
    codes = (await enrolTotp(a, cookie)).codes;
  } else {
    const setup = await a.call("POST", "/api/auth/totp/setup", undefined, {
      cookie,
    });
    assertEquals(setup.status, 200);
    secret = (await setup.json()).secret;
    enrolment = (await store.totpEnrolment(user.id, 0))!.secret;
  }
  const passkeyId = crypto.randomUUID();
  await store.addPasskey({
    id: passkeyId,
    userId: user.id,
    credentialId: `credential-${n}`,
    publicKey: "AAEC",
    counter: 0,
    transports: ["internal"],
    name: "Laptop",
    createdAt: Date.now(),
  }, 10);
  return {
    world: {
      store,
      userId: user.id,
      codes,
      secret,
      enrolment,
      passkeyId,
      sessionId: await sessionIdOf(b, cookie),
      otherCookie,
    },
    cookie,
  };
}

pairTest(
  "refuse a held change to one's own second factors once another instance disabled or signed out the account, or ended its session",
  async (pair) => {
    const root = await addUser(pair.b, {
      email: "root@example.com",
      role: "admin",
    });
    let n = 0;
    for (const kase of CASES) {
      for (const intervention of INTERVENTIONS) {
        n++;
        const gate = held(pair.a, kase.method);
        const a = servedSecurityApi(gate.store);
        const b = servedSecurityApi(pair.b);
        try {
          const rootCookie = await b.login(root.email);
          const { world, cookie } = await setUp(pair.b, a, b, n, kase.totp);
          await a.gatehouse.settled();
          const before = kase.event === undefined
            ? 0
            : await ownEvents(pair.b, world.userId, kase.event);

          const label = `${kase.op} of an account ${intervention.name}`;
          const answer = await heldThrough({
            a,
            b,
            gate,
            change: kase.request(world, a),
            cookie,
            meanwhile: intervention.request(world),
            meanwhileCookie: intervention.by === "own"
              ? world.otherCookie
              : rootCookie,
          });
          assertEquals(answer, "401 session_absent", label);
          await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
          await kase.unchanged(world);
          if (kase.event !== undefined) {
            assertEquals(
              await ownEvents(pair.b, world.userId, kase.event),
              before,
              label,
            );
          }
        } finally {
          gate.release();
          await Promise.all([a.close(), b.close()]);
        }
      }
    }
  },
);

pairTest(
  "let a held change to one's own second factors commit when the account stayed as it was",
  async (pair) => {
    // The check binds the caller's account: another account disabled
    // meanwhile refuses nothing.
    const root = await addUser(pair.b, {
      email: "root@example.com",
      role: "admin",
    });
    const other = await addUser(pair.b, {
      email: "other@example.com",
      role: "member",
    });
    const gate = held(pair.a, "replaceRecoveryCodes");
    const a = servedSecurityApi(gate.store);
    const b = servedSecurityApi(pair.b);
    try {
      const rootCookie = await b.login(root.email);
      const { world, cookie } = await setUp(pair.b, a, b, 0, "on");
      gate.arm();
      const inFlight = a.call("POST", "/api/auth/recovery-codes", undefined, {
        cookie,
      });
      await gate.reached();
      const done = await b.call("PATCH", `/api/users/${other.id}`, {
        disabled: true,
      }, { cookie: rootCookie });
      assertEquals(done.status, 200);
      await done.body?.cancel();
      gate.release();
      const res = await inFlight;
      assertEquals(res.status, 200);
      assertEquals((await res.json()).recovery_codes.length, 10);
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
      assertEquals(await oldCodeSpends(world), false);
      assertEquals(
        await ownEvents(pair.b, world.userId, "recovery_codes.regenerated"),
        1,
      );
    } finally {
      gate.release();
      await Promise.all([a.close(), b.close()]);
    }
  },
);

pairTest(
  "spend nothing of a held passkey re-authentication once another instance disabled or signed out the account, or ended its session",
  async (pair) => {
    // The assertion is right; the session it would renew ended in flight:
    // its challenge stays unspent, the passkey's counter and last use stay
    // as they were, and no re-authentication is recorded.
    const root = await addUser(pair.b, {
      email: "root@example.com",
      role: "admin",
    });
    let n = 0;
    for (const intervention of INTERVENTIONS) {
      n++;
      const gate = held(pair.a, "usePasskey");
      const a = servedSecurityApi(gate.store);
      const b = servedSecurityApi(pair.b);
      try {
        const rootCookie = await b.login(root.email);
        const user = await addUser(pair.b, {
          email: `passkey${n}@example.com`,
          role: "member",
        });
        const cookie = await a.login(user.email);
        const otherCookie = await b.login(user.email);
        const sessionId = await sessionIdOf(b, cookie);
        const key = await createAuthenticator();
        const passkeyId = await registerPasskey(a, cookie, key);
        const proof = await assertion(a, key, cookie);
        const [before] = await pair.b.listPasskeys(user.id);
        await a.gatehouse.settled();

        gate.arm();
        const inFlight = a.call("POST", "/api/auth/reauthenticate", {
          passkey: proof.response,
        }, { cookie: join(cookie, proof.challenge) });
        await gate.reached();
        const [m, p, bd] = intervention.request({ userId: user.id, sessionId });
        const done = await b.call(m, p, bd, {
          cookie: intervention.by === "own" ? otherCookie : rootCookie,
        });
        assert(done.status === 200 || done.status === 204, intervention.name);
        await done.body?.cancel();
        gate.release();
        const label =
          `a passkey re-authentication of an account ${intervention.name}`;
        assertEquals(
          await answerOf(await inFlight),
          "401 session_absent",
          label,
        );
        await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
        const [after] = await pair.b.listPasskeys(user.id);
        assertEquals(after?.id, passkeyId, label);
        assertEquals(after?.counter, before?.counter, label);
        assertEquals(after?.lastUsedAt, before?.lastUsedAt, label);
        const token = decodeURIComponent(proof.challenge.split("=")[1]!);
        assert(
          await pair.b.findChallenge(
            hashToken(token),
            "reauthenticate",
            a.clock(),
          ) !== null,
          `${label}: its challenge was spent`,
        );
        assertEquals(
          await ownEvents(pair.b, user.id, "reauthenticated"),
          0,
          label,
        );
      } finally {
        gate.release();
        await Promise.all([a.close(), b.close()]);
      }
    }
  },
);
