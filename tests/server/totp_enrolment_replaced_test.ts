// A TOTP confirmation whose enrolment is replaced by a new setup while it
// is in flight: two instances on one store, over real servers, on KV,
// Postgres and SQLite. The confirmation checks a right code against the
// enrolment it read, then holds at the store's `confirmTotp` while the
// other instance starts a new enrolment (another tab pressed "set up"
// again). The commit refuses: TOTP stays off and the answer is 400
// `code_invalid` (the code is no longer for the enrolment kept), but the
// code was right, so it is no guess and the login limiter does not count
// it. Before, it was counted against the address as a wrong code; the
// code of the enrolment now kept still confirms.

import { totpCode } from "../../server/core/totp.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser } from "../fixtures/kv.ts";
import { answerOf, servedSecurityApi } from "../fixtures/security.ts";
import { settledCounter } from "../fixtures/stores.ts";

// What the login limiter counts for the servers' callers (127.0.0.1).
const LOGIN_COUNT = "login:ip:127.0.0.1";

pairTest(
  "a right TOTP confirmation whose enrolment is replaced in flight is refused uncounted",
  async ({ a, b }) => {
    const hold = held(b, "confirmTotp");
    const one = servedSecurityApi(a);
    const two = servedSecurityApi(hold.store);
    // Attempts are given back after the answer, by the instance that took
    // them.
    const counted = async () => {
      await Promise.all([one.gatehouse.settled(), two.gatehouse.settled()]);
      return (await settledCounter(a, LOGIN_COUNT, one.clock()))?.count ?? 0;
    };
    const setup = async () => {
      const res = await one.call("POST", "/api/auth/totp/setup", undefined, {
        cookie: session,
      });
      assertEquals(res.status, 200);
      return (await res.json()).secret as string;
    };
    const ada = await addUser(a, { email: "ada@example.com" });
    const session = await one.login(ada.email);
    try {
      const first = await setup();
      const before = await counted();
      hold.arm();
      const confirm = two.call("POST", "/api/auth/totp/confirm", {
        code: totpCode(first, two.clock()),
      }, { cookie: session });
      await hold.reached();
      const second = await setup();
      hold.release();
      assertEquals(await answerOf(await confirm), "400 code_invalid");
      assertEquals(await counted(), before);
      assertEquals((await a.accountFactors(ada.id))?.totpEnabled, false);
      const confirmed = await one.call("POST", "/api/auth/totp/confirm", {
        code: totpCode(second, one.clock()),
      }, { cookie: session });
      assertEquals(confirmed.status, 200);
      await confirmed.body?.cancel();
    } finally {
      await one.close();
      await two.close();
    }
  },
);
