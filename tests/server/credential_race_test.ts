// A session is bound to the credential it was verified against (DESIGN.md
// §5): a sign-in in flight when a password reset lands, or a second factor
// is enabled, never yields a live session, and an account never holds more
// than 50 live sessions, however many sign-ins race. On every store,
// through the real handlers.

import type { PasswordHasher } from "../../mod.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { apiOn, refusal } from "../fixtures/api.ts";
import { gate, instrument } from "../fixtures/instrument.ts";
import { addUser, hasher, PASSWORD } from "../fixtures/kv.ts";
import { registerPasskey } from "../fixtures/passkey_ceremonies.ts";
import {
  type Api,
  enrolTotp,
  passwordStep,
} from "../fixtures/second_factor.ts";
import { people, securityApi } from "../fixtures/security.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";

const NEW_PASSWORD = "a brand new passphrase";

testEachStore(
  "a sign-in verified before a reset does not yield a session after it",
  async (real) => {
    // Hold every session insert until the reset has been confirmed: the
    // sign-in has verified the old password by then, as a racing one would.
    const held = gate();
    const store = instrument(real, {
      createSession: async (session) => {
        await held.opened;
        return await real.createSession(session);
      },
    });
    const t = apiOn(store, { mail: true, maxFailures: 100 });
    await addUser(store, { email: "ada@example.com" });
    const token = await t.resetToken("ada@example.com");
    const signIn = t.login("ada@example.com", PASSWORD);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const confirm = await t.call("POST", "/api/auth/password-reset/confirm", {
      token,
      password: NEW_PASSWORD,
    });
    assertEquals(confirm.status, 204);
    held.open();
    const late = await signIn;
    assertEquals(late.status, 401, "the old password's sign-in was refused");
    assertEquals(late.cookie, null);
  },
);

// The argon2 fixture's hasher; once `hold()` is called, the next verify
// waits, its answer known, until `release()`: a sign-in held between its
// password check and its session's commit.
function heldHasher() {
  const reached = Promise.withResolvers<void>();
  const released = Promise.withResolvers<void>();
  let holding = false;
  const held: PasswordHasher = {
    ...hasher,
    async verify(hash, password) {
      const matched = await hasher.verify(hash, password);
      if (holding) {
        holding = false;
        reached.resolve();
        await released.promise;
      }
      return matched;
    },
  };
  return {
    hasher: held,
    hold: () => void (holding = true),
    reached: reached.promise,
    release: () => released.resolve(),
  };
}

// Second factors the owner enables while a password sign-in is checked,
// and the methods the next sign-in's second step then offers.
const ENABLED_MEANWHILE: [
  how: string,
  enable: (api: Api, cookie: string) => Promise<unknown>,
  methods: string[],
][] = [
  ["TOTP is confirmed", enrolTotp, ["totp", "recovery_code"]],
  [
    "a passkey is registered",
    async (api, cookie) =>
      registerPasskey(api, cookie, await createAuthenticator()),
    ["passkey"],
  ],
];

for (const [how, enable, methods] of ENABLED_MEANWHILE) {
  testEachStore(
    `a password sign-in checked before ${how} yields no session; the next one owes the second step`,
    async (store) => {
      const { member } = await people(store);
      const held = heldHasher();
      const api = securityApi(store, { hasher: held.hasher });
      const owner = await api.login(member.email);
      held.hold();
      const signIn = api.call("POST", "/api/auth/login", {
        email: member.email,
        password: PASSWORD,
      });
      // The account was read without a second factor, the password is
      // right: the owner enables one before the session is recorded.
      await held.reached;
      await enable(api, owner);
      held.release();
      const late = await signIn;
      assertEquals(await refusal(late), [401, "credentials_invalid"]);
      assertEquals(late.headers.get("set-cookie"), null);
      const signIns = (await api.events()).filter((e) =>
        e.type === "login.succeeded"
      );
      assertEquals(signIns.length, 1, "the owner's only");
      await passwordStep(api, member.email, methods);
    },
  );
}

testEachStore(
  "no session outlives a reset raced by three sign-in loops (10 trials)",
  async (store) => {
    const t = apiOn(store, { mail: true, maxFailures: 10_000 });
    let survivors = 0;
    for (let trial = 0; trial < 10; trial++) {
      const email = `ada${trial}@example.com`;
      await addUser(store, { email });
      const token = await t.resetToken(email);
      let done = false;
      const cookies: string[] = [];
      const loop = async () => {
        while (!done) {
          const { cookie } = await t.login(email, PASSWORD);
          if (cookie !== null) cookies.push(cookie);
        }
      };
      const loops = [loop(), loop(), loop()];
      await new Promise((resolve) => setTimeout(resolve, 30));
      const confirm = await t.call(
        "POST",
        "/api/auth/password-reset/confirm",
        { token, password: NEW_PASSWORD },
      );
      assertEquals(confirm.status, 204);
      done = true;
      await Promise.all(loops);
      for (const cookie of cookies) {
        if (await t.live(cookie)) survivors++;
      }
    }
    assertEquals(survivors, 0, "live sessions left after a reset");
  },
);

testEachStore(
  "an account keeps at most 50 live sessions: the oldest ends",
  async (store) => {
    const t = apiOn(store, { maxFailures: 1000 });
    await addUser(store, { email: "ada@example.com" });
    const cookies: string[] = [];
    for (let i = 0; i < 55; i++) {
      t.advance(1000); // each session starts (and ends) a second later
      const { cookie } = await t.login("ada@example.com", PASSWORD);
      assert(cookie !== null);
      cookies.push(cookie);
    }
    const alive = [];
    for (const cookie of cookies) alive.push(await t.live(cookie));
    assertEquals(alive.slice(0, 5), [false, false, false, false, false]);
    assertEquals(alive.slice(5).every(Boolean), true);
  },
);

testEachStore(
  "200 simultaneous sign-ins of one account leave at most 50 live sessions",
  async (store) => {
    // Each sign-in holds an attempt of the account lock while it is
    // checked: lifted here, where the session cap is under test.
    const t = apiOn(store, {
      maxFailures: 1000,
      limits: { accountLockThreshold: 1000 },
    });
    await addUser(store, { email: "ada@example.com" });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => t.login("ada@example.com", PASSWORD)),
    );
    assertEquals(results.every((r) => r.status === 200), true);
    let alive = 0;
    for (const { cookie } of results) {
      if (await t.live(cookie!)) alive++;
    }
    assertEquals(alive, 50);
  },
);
