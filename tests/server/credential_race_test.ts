// A session is bound to the credential it was verified against (DESIGN.md
// §5): a sign-in in flight when a password reset lands never yields a live
// session, and an account never holds more than 50 live sessions, however
// many sign-ins race. On both stores, through the real handlers.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { apiOn } from "../fixtures/api.ts";
import { gate, instrument } from "../fixtures/instrument.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";

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
