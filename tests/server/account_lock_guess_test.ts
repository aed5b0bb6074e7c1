// The account lock's first attempt on an instance that has not seen the
// address: it reserves under the keys of an address never cleared (the
// guess) while it reads the values that name the keys, so it costs one round
// trip; the values read decide. After a reset moved those values, the old
// keys may be full: a fresh instance must still admit a right password
// under the new keys, and still refuse when the new keys are full too.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import {
  address,
  type LockServer,
  lockServer,
} from "../fixtures/lock_server.ts";
import { testEachStore } from "../fixtures/stores.ts";

const ADA = "ada@example.com";
const NEW_PASSWORD = "a new and long passphrase";

async function wrong(t: LockServer, n: number, from: number) {
  const statuses: number[] = [];
  for (let i = from; i < from + n; i++) {
    statuses.push(
      (await t.signIn(ADA, `wrong guess ${i}`, { from: address(i) })).status,
    );
  }
  return statuses;
}

testEachStore(
  "a fresh instance's first attempt decides on the keys it reads, not on the keys of an address never cleared",
  async (store) => {
    await addUser(store, { email: ADA, role: "member" });
    const clock = { now: Date.now() };
    const servers: LockServer[] = [];
    const instance = () => {
      const t = lockServer(store, { clock });
      servers.push(t);
      return t;
    };
    try {
      const a = instance();
      // The keys of an address never cleared fill up, then a reset moves
      // every count to new keys.
      assertEquals(await wrong(a, 11, 0), [...Array(10).fill(401), 429]);
      const token = await a.resetToken(ADA);
      const reset = await a.call("POST", "/api/auth/password-reset/confirm", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(reset.status, 204);
      await reset.body?.cancel();

      // A fresh instance guesses the full keys: the right password still
      // signs in, under the keys read.
      const b = instance();
      assertEquals(
        (await b.signIn(ADA, NEW_PASSWORD, { from: address(100) })).status,
        200,
      );
      // Its wrong guesses count under the new keys, up to the threshold.
      assertEquals(await wrong(b, 11, 200), [...Array(10).fill(401), 429]);

      // Another fresh instance: the guessed keys and the keys read are both
      // full, so even the right password waits, without argon2 work.
      const c = instance();
      const verifies = c.calls.verify;
      assertEquals(
        (await c.signIn(ADA, NEW_PASSWORD, { from: address(300) })).status,
        429,
      );
      assertEquals(c.calls.verify, verifies);
    } finally {
      for (const t of servers) await t.close();
    }
  },
);
