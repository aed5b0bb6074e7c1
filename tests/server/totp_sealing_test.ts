// TOTP secrets sealed at rest (`totpKeys`): the sealing itself (random
// nonce, the account as associated data, key rotation, refusal of a wrong
// key or a damaged record, malformed keys at start-up), then over the API
// on KV and Postgres: what the store holds, sign-in and re-authentication
// with sealed secrets, secrets stored before keys were set or under an
// older key sealed again once their code is accepted (rotation across
// instances, and once under 200 simultaneous uses of one code), a store
// that cannot, hostile codes, a missing key, and a sealed secret moved to
// another account. Signing in is only the way in: argon2 checks the fixture
// password once per API and remembers it (securityApiWithRememberedPasswords).

import fc from "fast-check";
import type { Store } from "../../server/core/store.ts";
import { createGatehouse } from "../../mod.ts";
import { totpCode } from "../../server/core/totp.ts";
import { totpSealing } from "../../server/core/_totp_sealing.ts";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
} from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  people,
  securityApiWithRememberedPasswords,
  UNTHROTTLED,
} from "../fixtures/security.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  signInWithTotp,
  STEP,
} from "../fixtures/second_factor.ts";
import { memoryStore } from "../fixtures/kv.ts";
import { HOSTILE } from "../fixtures/hostile.ts";
import { instrument } from "../fixtures/instrument.ts";

const newKey = () => crypto.getRandomValues(new Uint8Array(32)).toBase64();
const KEY_A = newKey();
const KEY_B = newKey();
const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
const ALICE = "0190a5d2-0000-7000-8000-000000000001";
const BOB = "0190a5d2-0000-7000-8000-000000000002";

// The error `fn` throws, of class `kind`, whose message holds `part`.
function thrown(fn: () => unknown, kind: typeof Error, part: string): Error {
  try {
    fn();
  } catch (error) {
    assert(error instanceof kind, `expected ${kind.name}, got ${error}`);
    assert(error.message.includes(part), error.message);
    return error;
  }
  throw new Error("expected a throw");
}

// The error `fn` rejects with, whose message holds `part`.
async function rejected(fn: () => Promise<unknown>, part: string) {
  const error = await assertRejects(fn);
  assert(error.message.includes(part), error.message);
  return error;
}

Deno.test("without keys a secret is stored as it is", async () => {
  const sealing = totpSealing();
  assertEquals(await sealing.seal(SECRET, ALICE), SECRET);
  assertEquals(await sealing.open(SECRET, ALICE), SECRET);
});

Deno.test("a sealed secret hides the secret, differs each time and opens for its account", async () => {
  const sealing = totpSealing([KEY_A]);
  const one = await sealing.seal(SECRET, ALICE);
  const two = await sealing.seal(SECRET, ALICE);
  assertMatch(one, /^sealed1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+$/);
  assert(!one.includes(SECRET) && !one.includes(SECRET.slice(0, 8)));
  assert(one !== two, "a fresh nonce per seal");
  assertEquals(await sealing.open(one, ALICE), SECRET);
  assertEquals(await sealing.open(two, ALICE), SECRET);
  // A secret stored before keys were configured is read as it is.
  assertEquals(await sealing.open(SECRET, ALICE), SECRET);
});

Deno.test("property: any secret opens for its own account and for no other", async () => {
  const sealing = totpSealing([KEY_A]);
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: "grapheme", maxLength: 80 }),
      fc.uuid(),
      fc.uuid(),
      async (secret, owner, stranger) => {
        const sealed = await sealing.seal(secret, owner);
        assert(sealed.startsWith("sealed1."));
        assertEquals(await sealing.open(sealed, owner), secret);
        if (stranger !== owner) {
          await rejected(() => sealing.open(sealed, stranger), "not open");
        }
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("keys rotate: the first seals, every one opens; a missing key is named", async () => {
  const old = await totpSealing([KEY_A]).seal(SECRET, ALICE);
  const rotated = totpSealing([KEY_B, KEY_A]);
  assertEquals(await rotated.open(old, ALICE), SECRET);
  const fresh = await rotated.seal(SECRET, ALICE);
  assert(fresh.split(".")[1] !== old.split(".")[1], "sealed with the new key");
  const onlyB = totpSealing([KEY_B]);
  assertEquals(await onlyB.open(fresh, ALICE), SECRET);
  const error = await assertRejects(() => onlyB.open(old, ALICE));
  assertEquals(
    error.message,
    `TOTP secret sealed with key ${
      old.split(".")[1]
    }, which is not among totpKeys`,
  );
});

Deno.test("a sealed secret does not open for another account or once damaged", async () => {
  const sealing = totpSealing([KEY_A]);
  const sealed = await sealing.seal(SECRET, ALICE);
  await rejected(() => sealing.open(sealed, BOB), "does not open");
  const body = sealed.slice(sealed.lastIndexOf(".") + 1);
  const flipped = body[5] === "A" ? "B" : "A";
  const damaged = sealed.slice(0, -body.length) + body.slice(0, 5) + flipped +
    body.slice(6);
  await rejected(() => sealing.open(damaged, ALICE), "does not open");
  await rejected(() => sealing.open(sealed.slice(0, -10), ALICE), "not open");
  await rejected(() => sealing.open(sealed + "!\u0000", ALICE), "not open");
  // A lone surrogate where the key id goes: no key of that id.
  await rejected(
    () => sealing.open("sealed1.\ud800.AAAA", ALICE),
    "not among totpKeys",
  );
});

Deno.test("malformed keys fail at start-up, base64 and base64url both accepted", async () => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const url = raw.toBase64({ alphabet: "base64url", omitPadding: true });
  const sealed = await totpSealing([raw.toBase64()]).seal(SECRET, ALICE);
  assertEquals(await totpSealing([url]).open(sealed, ALICE), SECRET);
  for (
    const bad of [
      "",
      "short",
      crypto.getRandomValues(new Uint8Array(16)).toBase64(),
      crypto.getRandomValues(new Uint8Array(33)).toBase64(),
      "not base64 at all!!",
      42 as unknown as string,
    ]
  ) {
    thrown(() => totpSealing([bad]), TypeError, "Invalid totpKeys[0]");
  }
  thrown(() => totpSealing([KEY_A, "x"]), TypeError, "Invalid totpKeys[1]");
  thrown(
    () => totpSealing(KEY_A as unknown as string[]),
    TypeError,
    "Invalid totpKeys: a list of keys expected",
  );
  const { store, close } = await memoryStore();
  try {
    thrown(
      () => createGatehouse({ store, totpKeys: ["nope"] }),
      TypeError,
      "Invalid totpKeys[0]",
    );
  } finally {
    await close();
  }
});

testEachStore(
  "with totpKeys the store holds a sealed secret; sign-in and re-authentication use it",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
      reauthenticationWindow: STEP,
    });
    const { secret } = await enrolTotp(api, await api.login(member.email));
    const stored = (await store.totp(member.id))!.secret;
    assertMatch(stored, /^sealed1\./);
    assert(!stored.includes(secret));
    const session = await signInWithTotp(api, member.email, secret);
    // Past the window, a code renews the proof: it is checked against the
    // sealed secret too.
    api.advance(2 * STEP);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      code: totpCode(secret, api.clock()),
    }, { cookie: session });
    assertEquals(reauth.status, 204);
    // A wrong code is still a wrong code, not a fault.
    api.advance(STEP);
    const pending = await passwordStep(api, member.email);
    const wrong = totpCode(secret, api.clock()) === "000000"
      ? "111111"
      : "000000";
    assertEquals(
      await refusal(await secondStep(api, pending, { code: wrong })),
      [401, "credentials_invalid"],
    );
    assert(
      !JSON.stringify(api.logger.lines).includes(secret),
      "the secret is in no log line",
    );
  },
);

// The key id of a stored secret ("" for one stored as it is).
const keyIdOf = (stored: string) =>
  stored.startsWith("sealed1.") ? stored.split(".")[1]! : "";

// The test's people, the member with TOTP enrolled on an instance without
// keys (the secret stored as it is): its secret, recovery codes and the
// session it enrolled from, which every instance on `store` accepts.
async function enrolledWithoutKeys(store: Store) {
  const accounts = await people(store);
  const plain = securityApiWithRememberedPasswords(store);
  const session = await plain.login(accounts.member.email);
  return { ...accounts, session, ...await enrolTotp(plain, session) };
}

testEachStore(
  "a secret stored before keys were set, or sealed with an older key, is sealed with the current key once its code is accepted",
  async (store) => {
    assertEquals(typeof store.replaceTotpSecret, "function");
    const { member, other, secret, codes } = await enrolledWithoutKeys(
      store,
    );
    assertEquals((await store.totp(member.id))!.secret, secret);
    // A recovery code opens no secret: nothing is sealed by it.
    const first = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
    });
    const viaCode = await secondStep(
      first,
      await passwordStep(first, member.email),
      { recovery_code: codes[0] },
    );
    assertEquals(viaCode.status, 200);
    await viaCode.body?.cancel();
    await first.gatehouse.settled();
    assertEquals((await store.totp(member.id))!.secret, secret);

    // A code accepted on an instance with keys: sealed with the first.
    first.advance(2 * STEP);
    await signInWithTotp(first, member.email, secret);
    await first.gatehouse.settled();
    const withA = (await store.totp(member.id))!;
    const idA = keyIdOf(withA.secret);
    assert(idA !== "" && !withA.secret.includes(secret));
    assertEquals(withA.recoveryCodesLeft, 9, "the codes stay");
    // The step just accepted stays spent.
    const replay = await secondStep(
      first,
      await passwordStep(first, member.email),
      { code: totpCode(secret, first.clock()) },
    );
    assertEquals(await refusal(replay), [401, "credentials_invalid"]);
    // Already current: accepting another code writes nothing.
    await signInWithTotp(first, member.email, secret);
    await first.gatehouse.settled();
    assertEquals((await store.totp(member.id))!.secret, withA.secret);
    const enrolled = await enrolTotp(first, await first.login(other.email));
    assertEquals(keyIdOf((await store.totp(other.id))!.secret), idA);

    // Another instance, the new key first: it opens what A sealed, and
    // seals each secret with B as its code is accepted.
    const second = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_B, KEY_A],
    });
    second.advance(6 * STEP);
    await signInWithTotp(second, member.email, secret);
    await second.gatehouse.settled();
    const idB = keyIdOf((await store.totp(member.id))!.secret);
    assert(idB !== "" && idB !== idA);
    assertEquals(keyIdOf((await store.totp(other.id))!.secret), idA);
    await signInWithTotp(second, other.email, enrolled.secret);
    await second.gatehouse.settled();
    assertEquals(keyIdOf((await store.totp(other.id))!.secret), idB);

    // So A can go: an instance holding B alone signs both in.
    const onlyB = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_B],
    });
    onlyB.advance(10 * STEP);
    await signInWithTotp(onlyB, member.email, secret);
    await signInWithTotp(onlyB, other.email, enrolled.secret);
    assertEquals(onlyB.logger.lines, []);
  },
);

testEachStore(
  "a store that cannot seal a secret again: the sign-in succeeds, the failure is logged, the secret stays",
  async (base) => {
    // The real store, but its replaceTotpSecret fails.
    const store = instrument(base, {
      replaceTotpSecret: () => Promise.reject(new Error("disk full")),
    });
    const { member, secret } = await enrolledWithoutKeys(base);
    const api = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
    });
    api.advance(2 * STEP);
    await signInWithTotp(api, member.email, secret);
    await api.gatehouse.settled();
    assertEquals(
      api.logger.lines.map((line) => [
        line.level,
        line.message,
        (line.fields?.error as Error).message,
      ]),
      [["error", "TOTP secret not sealed again", "disk full"]],
    );
    assertEquals((await base.totp(member.id))!.secret, secret);
  },
);

testEachStore(
  "a secret sealed with a key the instance lacks: 500 with the key named in the log, no session",
  async (store) => {
    const { member } = await people(store);
    const sealer = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
    });
    const { secret } = await enrolTotp(
      sealer,
      await sealer.login(member.email),
    );
    const lacking = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_B],
    });
    lacking.advance(2 * STEP);
    const pending = await passwordStep(lacking, member.email);
    const res = await secondStep(lacking, pending, {
      code: totpCode(secret, lacking.clock()),
    });
    assertEquals(await refusal(res), [500, "internal"]);
    assertEquals(
      res.headers.getSetCookie().filter((c) => c.startsWith("__Host-session=")),
      [],
    );
    const logged = lacking.logger.lines.map((line) =>
      `${line.level} ${line.message} ${(line.fields?.error as Error)?.message}`
    );
    assertEquals(logged.length, 1);
    assertMatch(
      logged[0]!,
      /^error request failed TOTP secret sealed with key [\w-]{8}, which is not among totpKeys$/,
    );
    assert(!logged[0]!.includes(secret) && !logged[0]!.includes(KEY_A));
    // The same step on an instance that has the key: it was not spent.
    sealer.advance(2 * STEP);
    const res2 = await secondStep(
      sealer,
      await passwordStep(sealer, member.email),
      { code: totpCode(secret, sealer.clock()) },
    );
    assertEquals(res2.status, 200);
    await res2.body?.cancel();
  },
);

testEachStore(
  "a sealed secret copied onto another account does not open there",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
    });
    const { secret } = await enrolTotp(api, await api.login(member.email));
    const sealed = (await store.totp(member.id))!.secret;
    // As someone with write access to the database would: the member's
    // sealed secret as the other account's pending enrolment.
    await store.startTotpEnrolment({
      userId: other.id,
      secret: sealed,
      createdAt: api.clock(),
      expiresAt: api.clock() + 10 * 60_000,
    });
    api.advance(STEP);
    const res = await api.call("POST", "/api/auth/totp/confirm", {
      code: totpCode(secret, api.clock()),
    }, { cookie: await api.login(other.email) });
    assertEquals(await refusal(res), [500, "internal"]);
    assertEquals(await store.totp(other.id), null, "no TOTP enabled");
  },
);

testEachStore(
  "200 simultaneous re-authentications with one code, over a secret stored before keys: one is accepted, and the secret is sealed once",
  async (base) => {
    let replacements = 0;
    const store = instrument(base, {
      replaceTotpSecret: (...args) => {
        replacements++;
        return base.replaceTotpSecret!(...args);
      },
    });
    const { member, session, secret } = await enrolledWithoutKeys(base);
    const api = securityApiWithRememberedPasswords(store, {
      totpKeys: [KEY_A],
      maxFailures: 1_000_000,
      // The losers of the race count as wrong codes; the per-account lock
      // (second_factor_lock_test.ts) is not what this test is about.
      limits: { accountLockThreshold: 1000 },
    });
    api.advance(2 * STEP);
    const code = totpCode(secret, api.clock());
    const answers = await Promise.all(
      Array.from(
        { length: 200 },
        () =>
          api.call("POST", "/api/auth/reauthenticate", { code }, {
            cookie: session,
          }),
      ),
    );
    const outcomes = await Promise.all(
      answers.map(async (res) =>
        res.status === 204 ? "204" : (await refusal(res)).join(" ")
      ),
    );
    // The step is spent once; the others are a used code (the field's 400).
    assertEquals(outcomes.filter((o) => o === "204").length, 1);
    assertEquals(
      outcomes.filter((o) => o === "400 code_invalid").length,
      199,
    );
    await api.gatehouse.settled();
    assertEquals(replacements, 1, "sealed by the one accepted code only");
    const stored = (await base.totp(member.id))!;
    assertMatch(stored.secret, /^sealed1\./);
    assertEquals(stored.recoveryCodesLeft, 10);
  },
);

testEachStore(
  "hostile codes with keys configured: a JSON 4xx with its code, never a 5xx, and the stored secret is left as it was",
  async (store) => {
    const { member, session, secret } = await enrolledWithoutKeys(store);
    const api = securityApiWithRememberedPasswords(store, {
      ...UNTHROTTLED,
      totpKeys: [KEY_A],
    });
    for (const s of HOSTILE) {
      const what = JSON.stringify(s.slice(0, 20));
      for (
        const res of [
          await api.call("POST", "/api/auth/reauthenticate", { code: s }, {
            cookie: session,
          }),
          await secondStep(api, await passwordStep(api, member.email), {
            code: s,
          }),
        ]
      ) {
        assert(res.status >= 400 && res.status < 500, `${what}: ${res.status}`);
        assertEquals(typeof (await res.json()).code, "string", what);
      }
    }
    await api.gatehouse.settled();
    assertEquals((await store.totp(member.id))!.secret, secret);
  },
);
