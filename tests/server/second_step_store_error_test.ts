// A second step whose store fails after its code was judged (the read that
// asks whether the pending sign-in ended meanwhile) answers 500 and gives
// its account-lock attempt back, as every error that judged nothing does
// (DESIGN.md §15, _account_lock.ts). Before, that attempt was never
// settled: the count stayed one too high for the rest of the window, and
// the attempt stayed tracked for ever, so the lock's report of the scope
// waited on it for ever, and `settled()` with it. With a threshold of one,
// the owner's next sign-in was refused. Every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { instrument } from "../fixtures/instrument.ts";
import { addUser } from "../fixtures/kv.ts";
import { securityApi } from "../fixtures/security.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";
import { totpCode } from "../../server/core/totp.ts";
import { settled } from "../../server/http/_background.ts";
import type { Store } from "../../mod.ts";

// Resolves to whether `work` settled within `ms`.
async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a second step whose store fails after a wrong code gives its account-lock attempt back (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      // The second call of findPendingSignIn from now on throws: the first
      // is the step's own read of its pending sign-in.
      let failAfter: number | null = null;
      const failing: Store = instrument(store, {
        findPendingSignIn(tokenHash: string, now: number) {
          if (failAfter !== null && failAfter-- === 0) {
            failAfter = null;
            return Promise.reject(new Error("the store is unreachable"));
          }
          return store.findPendingSignIn(tokenHash, now);
        },
      });
      const api = securityApi(failing, {
        limits: { accountLockThreshold: 1 },
      });
      try {
        const member = await addUser(store, {
          email: "member@example.com",
          role: "member",
        });
        const cookie = await api.login(member.email);
        const { secret } = await enrolTotp(api, cookie);
        api.advance(STEP);
        const pending = await passwordStep(api, member.email);
        const right = totpCode(secret, api.clock());
        const wrong = right === "000000" ? "000001" : "000000";

        failAfter = 1;
        const failed = await secondStep(api, pending, { code: wrong });
        await failed.body?.cancel();
        assertEquals(failed.status, 500);
        assertEquals(failAfter, null, "the store failed where meant");

        // The attempt went back: the owner's next sign-in is admitted.
        const again = await passwordStep(api, member.email);
        const done = await secondStep(api, again, { code: right });
        await done.body?.cancel();
        assertEquals(done.status, 200);
      } finally {
        // Bounded: with an attempt never settled, a report waits for ever.
        assert(
          await within(settled(failing), 15_000),
          "settled() resolves",
        );
        await close();
      }
    },
  });
}
