// The second step of a sign-in (DESIGN.md §9) with one right passkey
// assertion sent twenty times at once under one pending sign-in and one
// challenge, as a double-click or a client's retries send it, over a real
// `Deno.serve` on 127.0.0.1, on every store: one request signs in, the
// others find the pending sign-in spent (410 token_invalid, as a code's
// losers do: second_step_burst_test.ts); none is a guess: no
// `login.failed`, nothing counted against the address by the login
// limiter. A wrong assertion is still counted.
// Before, the challenge was spent first and the pending sign-in in a later
// commit: a request that found the challenge spent while the winner was
// still verifying counted a wrong proof (401 credentials_invalid, counted
// by the limiter, a failure of the pending sign-in), and when five such
// ended the pending sign-in before the winner spent it, the right passkey
// signed no one in (410).

import { assertEquals } from "../fixtures/assert.ts";
import { settledCounter, testEachStore } from "../fixtures/stores.ts";
import {
  answerOf,
  sessionsOf,
  tally,
  withServedApi,
} from "../fixtures/security.ts";
import { passwordStep, secondStep } from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import {
  assertion,
  join,
  registerPasskey,
} from "../fixtures/passkey_ceremonies.ts";

const AT_ONCE = 20;
// The login limiter's count of the served API's callers (all on loopback).
const LOGIN_COUNT = "login:ip:127.0.0.1";

testEachStore(
  `one passkey second step sent ${AT_ONCE} times at once signs in once and counts no guess`,
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const session = await api.login(member.email);
      // One authenticator that counts its signatures, one that does not
      // (a synced passkey: only the challenge makes its assertion single use).
      const keys = [
        await createAuthenticator(),
        await createAuthenticator({ counts: false }),
      ];
      for (const key of keys) await registerPasskey(api, session, key);
      const count = async () =>
        (await settledCounter(store, LOGIN_COUNT, api.clock()))?.count ?? 0;
      for (const key of [...keys, ...keys]) {
        const pending = await passwordStep(api, member.email, ["passkey"]);
        const { response, challenge } = await assertion(api, key, pending);
        const before = await count();
        const answers = await Promise.all(
          Array.from(
            { length: AT_ONCE },
            () =>
              secondStep(api, join(pending, challenge), { passkey: response })
                .then(answerOf),
          ),
        );
        assertEquals(tally(answers), {
          "200": 1,
          "410 token_invalid": AT_ONCE - 1,
        });
        assertEquals(await count(), before, "no loser counted by the limiter");
      }
      const trail = await api.events();
      assertEquals(
        trail.filter((e) => e.type === "login.failed").length,
        0,
        "a right passkey is no guess",
      );
      assertEquals(
        trail.filter((e) =>
          e.type === "login.succeeded" && e.detail?.method === "passkey"
        ).length,
        4,
      );
      assertEquals(
        (await sessionsOf(api, session)).length,
        1 + 4,
        "one session a burst",
      );
      // A wrong assertion is still a guess: counted, and recorded.
      const before = await count();
      const pending = await passwordStep(api, member.email, ["passkey"]);
      const bad = await assertion(api, keys[0]!, pending, {
        origin: "https://x.test",
      });
      assertEquals(
        await answerOf(
          await secondStep(api, join(pending, bad.challenge), {
            passkey: bad.response,
          }),
        ),
        "401 credentials_invalid",
      );
      assertEquals(await count(), before + 1, "a wrong assertion counts");
      assertEquals(
        (await api.events()).filter((e) => e.type === "login.failed").length,
        1,
      );
    }),
);
