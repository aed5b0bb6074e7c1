// The second step of a sign-in (DESIGN.md §9) with one right code sent
// twenty times at once, as a double-click or a client's retries send it,
// over a real `Deno.serve` on 127.0.0.1, on every store: one request signs
// in, the others find the pending sign-in spent (410 token_invalid) or, past
// the account lock's threshold, wait for nothing (429); none is a guess: no
// `login.failed`, no count toward the account lock (§15), no lock; a recovery code is spent once, with one `recovery_code.used`.
// Before, a request that checked the code after another had accepted it
// counted it as a wrong guess: `login.failed` events, the account locked
// for a quarter of an hour by its owner's right code, and, when five such
// failures ended the pending sign-in before the winner spent it, a right
// recovery code burnt with no sign-in (410).

import { totpCode } from "../../server/core/totp.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { answerOf, tally, withServedApi } from "../fixtures/security.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";

const AT_ONCE = 20;

testEachStore(
  `one right second-step code sent ${AT_ONCE} times at once signs in once and counts no guess`,
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const cookie = await api.login(member.email);
      const { secret, codes } = await enrolTotp(api, cookie);
      for (const kind of ["code", "recovery_code", "code", "recovery_code"]) {
        api.advance(STEP);
        const pending = await passwordStep(api, member.email);
        const value = kind === "code"
          ? totpCode(secret, api.clock())
          : codes.shift()!;
        const answers = await Promise.all(
          Array.from(
            { length: AT_ONCE },
            () => secondStep(api, pending, { [kind]: value }).then(answerOf),
          ),
        );
        const counts = tally(answers);
        // Past the account lock's threshold (10), attempts in flight hold
        // its window, as right passwords do (account_lock_test.ts): those
        // are refused before their code is looked at, and counted nowhere.
        const held = counts["429 login_rate_limited"] ?? 0;
        assertEquals(counts, {
          "200": 1,
          "410 token_invalid": AT_ONCE - 1 - held,
          ...(held === 0 ? {} : { "429 login_rate_limited": held }),
        }, kind);
      }
      const trail = await api.events();
      assertEquals(
        trail.filter((e) =>
          e.type === "login.failed" || e.type === "login.locked"
        ).map((e) => e.type),
        [],
        "a right code is no guess",
      );
      assertEquals(
        trail.filter((e) => e.type === "recovery_code.used").length,
        2,
      );
      assertEquals(
        (await store.totp(member.id))?.recoveryCodesLeft,
        8,
        "each recovery code spent once",
      );
      // Nothing was counted against the address: not locked.
      api.advance(STEP);
      await passwordStep(api, member.email);
      assertEquals(
        api.logger.lines.filter((l) => l.level === "error"),
        [],
        "nothing logged as an error",
      );
    }),
);
