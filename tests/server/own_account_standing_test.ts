// A change to one's own account or sessions in flight does not outlive the
// session that asked for it, as a change to one's own second factors does
// not (self_service_standing_test.ts). Two instances on one store, each
// behind a real HTTP server: the account's request on instance A passes its
// guard and is held at the store; meanwhile, on instance B, an administrator
// disables the account or signs it out everywhere, or the account's other
// session ends the held request's session alone. When the held request goes
// on, it gets the guard's answer, 401 `session_absent`, and writes nothing:
// its name, its password, its linked identity and the account's sessions
// (one signed in again since, and the other session that ended it) as they
// were, and no event of the change. Every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { servedSecurityApi } from "../fixtures/security.ts";
import {
  type Call,
  heldThrough,
  INTERVENTIONS,
  ownEvents,
  sessionIdOf,
} from "../fixtures/standing.ts";
import { fold } from "../../server/core/_fold.ts";
import { uuidv7 } from "../../server/core/_crypto.ts";
import type { Store } from "../../mod.ts";

type Api = ReturnType<typeof servedSecurityApi>;

interface World {
  store: Store;
  userId: string;
  email: string;
  // The stored password hash before the request.
  passwordHash: string;
  // The identity at a provider linked to the account.
  identityId: string;
  // The account's other session (signed in on B): its id and cookie.
  otherSessionId: string;
  otherCookie: string;
  // The id of the session the held request comes with (signed in on A).
  sessionId: string;
  // A session the account signed in with after the intervention, if it
  // could (not when disabled): the held request must not end it.
  signedInAgain: string | null;
}

interface Case {
  op: string;
  method: keyof Store;
  // The event the change records, by the account itself.
  event: string;
  request(world: World): Call;
  // Holds when nothing changed: the change was not committed.
  unchanged(world: World, b: Api): Promise<void>;
}

const CASES: Case[] = [
  {
    op: "updateAccount",
    method: "updateUser",
    event: "account.updated",
    request: () => ["PATCH", "/api/auth/account", { name: "Renamed" }],
    async unchanged(w) {
      assertEquals((await w.store.userById(w.userId))?.name, "own");
    },
  },
  {
    // Held before its password is verified, so that the verification reads
    // the account after the intervention.
    op: "changePassword",
    method: "credentialsByEmail",
    event: "password.changed",
    request: () => ["POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: "a brand new passphrase, 42",
    }],
    async unchanged(w) {
      const credentials = await w.store.credentialsByEmail(fold(w.email));
      assertEquals(credentials?.passwordHash, w.passwordHash);
    },
  },
  {
    // A wrong current password, checked after the intervention: no guess
    // of a live session but the guard's answer, as a sign-out everywhere
    // gets (before, a session ended alone answered 403
    // password_incorrect).
    op: "changePassword with a wrong current password",
    method: "credentialsByEmail",
    event: "password.changed",
    request: () => ["POST", "/api/auth/password", {
      current_password: "not the password at all",
      new_password: "a brand new passphrase, 42",
    }],
    async unchanged(w) {
      const credentials = await w.store.credentialsByEmail(fold(w.email));
      assertEquals(credentials?.passwordHash, w.passwordHash);
    },
  },
  {
    // The same for a re-authentication by a wrong password.
    op: "reauthenticate with a wrong password",
    method: "credentialsByEmail",
    event: "reauthenticated",
    request: () => ["POST", "/api/auth/reauthenticate", {
      password: "not the password at all",
    }],
    async unchanged() {},
  },
  {
    // "Sign out everywhere else": it must not end the session the account
    // signed in with after the sign-out.
    op: "revokeOtherSessions",
    method: "deleteOtherSessions",
    event: "session.revoked",
    request: () => ["DELETE", "/api/auth/sessions"],
    async unchanged() {},
  },
  {
    op: "unlinkSsoIdentity",
    method: "unlinkIdentity",
    event: "sso.unlinked",
    request: (w) => ["DELETE", `/api/auth/sso/identities/${w.identityId}`],
    async unchanged(w) {
      const identities = await w.store.listIdentities(w.userId);
      assertEquals(identities.map((i) => i.id), [w.identityId]);
    },
  },
  {
    // Ending the other session by its id: the guard's answer, not the
    // 404 of a session already gone.
    op: "revokeSession",
    method: "deleteSessionById",
    event: "session.revoked",
    request: (w) => ["DELETE", `/api/auth/sessions/${w.otherSessionId}`],
    async unchanged() {},
  },
];

// The account with its session on `a`, another on `b` and an identity at a
// provider linked to it.
async function setUp(
  store: Store,
  a: Api,
  b: Api,
  n: number,
): Promise<{ world: World; cookie: string }> {
  const email = `own${n}@example.com`;
  const user = await addUser(store, { email, name: "own", role: "member" });
  const cookie = await a.login(email);
  const other = await b.login(email);
  const now = Date.now();
  const linked = await store.resolveSsoAccount({
    providerId: "acme",
    issuer: "https://login.acme.example",
    subject: `sub-${n}`,
    email,
    emailKey: fold(email),
    name: null,
    firstLinkRefusal: null,
    identityId: uuidv7(now),
    userId: uuidv7(now),
    now,
    granters: () => Promise.resolve(undefined),
  });
  assert(linked.ok && linked.how === "linked");
  const credentials = await store.credentialsByEmail(fold(email));
  return {
    world: {
      store,
      userId: user.id,
      email,
      passwordHash: credentials!.passwordHash,
      identityId: linked.identity.id,
      otherSessionId: await sessionIdOf(b, other),
      otherCookie: other,
      sessionId: await sessionIdOf(b, cookie),
      signedInAgain: null,
    },
    cookie,
  };
}

pairTest(
  "refuse a held change to one's own account or sessions once another instance disabled or signed out the account, or ended its session",
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
          const { world, cookie } = await setUp(pair.b, a, b, n);
          await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
          // Counted once the intervention landed: an account ending its
          // own session records a `session.revoked` of its own.
          let before = 0;

          const label = `${kase.op} of an account ${intervention.name}`;
          const answer = await heldThrough({
            a,
            b,
            gate,
            change: kase.request(world),
            cookie,
            meanwhile: intervention.request(world),
            meanwhileCookie: intervention.by === "own"
              ? world.otherCookie
              : rootCookie,
            // Unless disabled, the account signs in again meanwhile.
            async then() {
              before = await ownEvents(pair.b, world.userId, kase.event);
              const again = await b.call("POST", "/api/auth/login", {
                email: world.email,
                password: PASSWORD,
              });
              await again.body?.cancel();
              if (again.status === 200) {
                world.signedInAgain = again.headers.get("set-cookie")!
                  .split(";")[0]!;
              }
            },
          });
          assertEquals(answer, "401 session_absent", label);
          await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
          await kase.unchanged(world, b);
          if (world.signedInAgain !== null) {
            assert(await b.live(world.signedInAgain), `${label}: ended`);
          }
          if (intervention.by === "own") {
            assert(await b.live(world.otherCookie), `${label}: ended other`);
          }
          assertEquals(
            await ownEvents(pair.b, world.userId, kase.event),
            before,
            label,
          );
        } finally {
          gate.release();
          await Promise.all([a.close(), b.close()]);
        }
      }
    }
  },
);

pairTest(
  "let a held change to one's own account commit when the account stayed as it was",
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
    const gate = held(pair.a, "updateUser");
    const a = servedSecurityApi(gate.store);
    const b = servedSecurityApi(pair.b);
    try {
      const rootCookie = await b.login(root.email);
      const { world, cookie } = await setUp(pair.b, a, b, 0);
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
      gate.arm();
      const inFlight = a.call("PATCH", "/api/auth/account", {
        name: "Renamed",
      }, { cookie });
      await gate.reached();
      const done = await b.call("PATCH", `/api/users/${other.id}`, {
        disabled: true,
      }, { cookie: rootCookie });
      assertEquals(done.status, 200);
      await done.body?.cancel();
      gate.release();
      const res = await inFlight;
      assertEquals(res.status, 200);
      assertEquals((await res.json()).name, "Renamed");
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
      assertEquals((await pair.b.userById(world.userId))?.name, "Renamed");
      assertEquals(
        await ownEvents(pair.b, world.userId, "account.updated"),
        1,
      );
    } finally {
      gate.release();
      await Promise.all([a.close(), b.close()]);
    }
  },
);
