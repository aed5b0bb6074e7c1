// A re-authentication with a right TOTP or recovery code whose factor is
// turned off while it is in flight: two instances on one store, over real
// servers, on KV, Postgres and SQLite. The re-authentication checks a right
// code, then holds at the store's spend while the owner turns TOTP off on
// the other instance (another tab). The spend finds no factor to spend
// against, so the answer is the one of an account without TOTP, 409
// `totp_not_enabled` (as the same re-authentication sent a moment later
// gets), and the code was right, so it is no guess: neither the account lock
// nor the login limiter counts it. Before, it was 400 `code_invalid`,
// counted as a wrong code (with a threshold of one, the account's next
// sign-in from a new browser was locked out). The same race for a password
// is `sessionEnded` in features/account.ts; for a second step,
// second_step_factor_removed_test.ts.

import { totpCode } from "../../server/core/totp.ts";
import type { Store } from "../../mod.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import {
  answerOf,
  servedSecurityApi,
  signInStatus,
} from "../fixtures/security.ts";
import { enrolTotp, STEP } from "../fixtures/second_factor.ts";
import { settledCounter } from "../fixtures/stores.ts";

// What the login limiter counts for the servers' callers (127.0.0.1).
const LOGIN_COUNT = "login:ip:127.0.0.1";

// One counted guess locks the account's browsers out: a count is seen.
const OPTIONS = { limits: { accountLockThreshold: 1 } };

const CASES: {
  proof: string;
  method: keyof Store;
  body(secret: string, codes: string[], now: number): unknown;
}[] = [
  {
    proof: "TOTP code",
    method: "useTotpStep",
    body: (secret, _codes, now) => ({ code: totpCode(secret, now) }),
  },
  {
    proof: "recovery code",
    method: "useRecoveryCode",
    body: (_secret, codes) => ({ recovery_code: codes[0] }),
  },
];

pairTest(
  "a right re-authentication code whose TOTP is turned off in flight answers totp_not_enabled, uncounted",
  async ({ a, b }) => {
    let n = 0;
    for (const kase of CASES) {
      n++;
      const hold = held(a, kase.method);
      const one = servedSecurityApi(hold.store, OPTIONS);
      const two = servedSecurityApi(b, OPTIONS);
      const counted = async () => {
        await Promise.all([one.gatehouse.settled(), two.gatehouse.settled()]);
        return (await settledCounter(a, LOGIN_COUNT, one.clock()))?.count ??
          0;
      };
      try {
        const ada = await addUser(a, { email: `ada${n}@example.com` });
        const session = await one.login(ada.email);
        const { secret, codes } = await enrolTotp(one, session);
        one.advance(STEP);
        const before = await counted();
        hold.arm();
        const reauth = one.call(
          "POST",
          "/api/auth/reauthenticate",
          kase.body(secret, codes, one.clock()),
          { cookie: session },
        );
        await hold.reached();
        const off = await two.call("DELETE", "/api/auth/totp", undefined, {
          cookie: session,
        });
        assertEquals(await answerOf(off), "204", kase.proof);
        hold.release();
        assertEquals(
          await answerOf(await reauth),
          "409 totp_not_enabled",
          kase.proof,
        );
        assertEquals(await counted(), before, kase.proof);
        // No failure was counted against the account: a new browser signs
        // in (TOTP is off now, so in one step).
        assertEquals(
          await signInStatus(two, ada.email, PASSWORD, "203.0.113.9"),
          200,
          kase.proof,
        );
      } finally {
        hold.release();
        await one.close();
        await two.close();
      }
    }
  },
);
