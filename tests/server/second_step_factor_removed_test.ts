// A right second-step code whose sign-in is ended between the code's
// commit and the session's: two instances on one store, over real
// servers, on KV, Postgres and SQLite. The owner turns TOTP off on the
// other instance while the second step holds at `createSession`. No session
// may be made (it is bound to the factor version), and the answer is the
// ended sign-in's, 410 `token_invalid` (start again with the password), as
// DESIGN.md §9 gives any call whose pending sign-in is ended. Before, it
// was 401 `credentials_invalid`, which tells the client the right code was
// wrong and to type another into a sign-in that no longer exists.

import { totpCode } from "../../server/core/totp.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser } from "../fixtures/kv.ts";
import {
  answerOf,
  servedSecurityApi,
  sessionsOf,
} from "../fixtures/security.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";

pairTest(
  "a right second-step code whose factor is turned off before its session is committed answers 410 and signs no one in",
  async ({ a, b }) => {
    const hold = held(a, "createSession");
    const one = servedSecurityApi(hold.store);
    const two = servedSecurityApi(b);
    try {
      const ada = await addUser(a, { email: "ada@example.com" });
      const session = await one.login(ada.email);
      const { secret } = await enrolTotp(one, session);
      one.advance(STEP);
      const pending = await passwordStep(one, ada.email);
      hold.arm();
      const step = secondStep(one, pending, {
        code: totpCode(secret, one.clock()),
      });
      await hold.reached();
      const off = await two.call("DELETE", "/api/auth/totp", undefined, {
        cookie: session,
      });
      assertEquals(await answerOf(off), "204");
      hold.release();
      assertEquals(await answerOf(await step), "410 token_invalid");
      assertEquals((await sessionsOf(two, session)).length, 1);
      assertEquals(
        (await one.events()).filter((e) => e.type === "login.succeeded")
          .length,
        1,
      );
    } finally {
      await one.close();
      await two.close();
    }
  },
);
