// TOTP enrolment (DESIGN.md §9) raced a hundred times at once, over a real
// `Deno.serve` on 127.0.0.1, on every store: a hundred confirmations with
// the same right code, and a hundred starts of enrolment followed by one
// confirmation, each enable TOTP once: one `second_factor.enabled`, one
// secret, recovery codes issued once (the ten the one 200 answered are the
// ones that work), and every other answer a refusal the contract declares
// for the operation, never a 5xx.

import {
  ERROR_STATUS,
  type ErrorCode,
  errorsOf,
  type OperationName,
} from "@gatehouse/contract";
import type { Store } from "../../mod.ts";
import { totpCode } from "../../server/core/totp.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { type servedSecurityApi, withServedApi } from "../fixtures/security.ts";

type Api = ReturnType<typeof servedSecurityApi>;

/** What the burst's answers were: the 200s' bodies, and the refusals. */
interface Burst {
  // deno-lint-ignore no-explicit-any
  succeeded: any[];
  refused: { status: number; code: string }[];
}

// Sends `count` calls at once; fails on any answer that is neither a
// success nor a 4xx refusal the contract declares for `operation`.
async function burst(
  count: number,
  operation: OperationName,
  send: () => Promise<Response>,
): Promise<Burst> {
  const answers = await Promise.all(
    Array.from({ length: count }, async () => {
      const res = await send();
      return { status: res.status, body: await res.json() };
    }),
  );
  const declared: readonly ErrorCode[] = errorsOf(operation);
  const result: Burst = { succeeded: [], refused: [] };
  for (const { status, body } of answers) {
    if (status === 200) {
      result.succeeded.push(body);
      continue;
    }
    assert(
      status >= 400 && status < 500 && declared.includes(body.code) &&
        ERROR_STATUS[body.code as ErrorCode] === status,
      `${operation}: ${status} ${
        JSON.stringify(body)
      } is no refusal it declares`,
    );
    result.refused.push({ status, code: body.code });
  }
  return result;
}

// The refusals counted by status and code, e.g. {"409 second_factor_enabled": 12}.
function tally(refused: Burst["refused"]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status, code } of refused) {
    counts[`${status} ${code}`] = (counts[`${status} ${code}`] ?? 0) + 1;
  }
  return counts;
}

/**
 * What must hold once TOTP was enabled with `secret` and the recovery codes
 * `codes` (the one success's answer): one `second_factor.enabled`, the
 * account on TOTP with that secret, no enrolment left, ten codes stored, and
 * the codes answered the ones that work.
 */
async function enabledOnce(
  store: Store,
  api: Api,
  { userId, cookie, secret, codes }: {
    userId: string;
    cookie: string;
    secret: string;
    codes: string[];
  },
) {
  const enabled = (await api.events()).filter((e) =>
    e.type === "second_factor.enabled"
  );
  assertEquals(
    enabled.map((e) => [e.actorId, e.ip, e.detail]),
    // 127.0.0.1: the calls crossed the network.
    [[userId, "127.0.0.1", { method: "totp" }]],
    "one second_factor.enabled",
  );
  assertEquals((await store.accountFactors(userId))?.totpEnabled, true);
  const totp = await store.totp(userId);
  assertEquals(totp?.secret, secret, "the confirmed secret is the one kept");
  assertEquals(totp?.recoveryCodesLeft, 10);
  assertEquals(await store.totpEnrolment(userId, api.clock()), null);
  assertEquals(codes.length, 10);
  assertEquals(new Set(codes).size, 10);
  // The codes answered are the ones stored: one of them proves who one is.
  const reauth = await api.call("POST", "/api/auth/reauthenticate", {
    recovery_code: codes[0],
  }, { cookie });
  assertEquals(reauth.status, 204);
  await reauth.body?.cancel();
  assertEquals((await store.totp(userId))?.recoveryCodesLeft, 9);
  // A later start of enrolment is refused: TOTP is on.
  const again = await api.call("POST", "/api/auth/totp/setup", undefined, {
    cookie,
  });
  assertEquals(again.status, 409);
  assertEquals((await again.json()).code, "second_factor_enabled");
  assertEquals(
    api.logger.lines.filter((l) => l.level === "error"),
    [],
    "nothing logged as an error",
  );
}

testEachStore(
  "over HTTP: a hundred TOTP confirmations at once with the same right code enable it once; the others are told it is on",
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const cookie = await api.login(member.email);
      const setup = await api.call("POST", "/api/auth/totp/setup", undefined, {
        cookie,
      });
      assertEquals(setup.status, 200);
      const { secret } = await setup.json();
      const code = totpCode(secret, api.clock());
      const confirms = await burst(
        100,
        "confirmTotp",
        () => api.call("POST", "/api/auth/totp/confirm", { code }, { cookie }),
      );
      assertEquals(
        confirms.succeeded.length,
        1,
        `one enables it; the others: ${
          JSON.stringify(tally(confirms.refused))
        }`,
      );
      // The others lost to it: told TOTP is on, or (while the limiter holds
      // as many attempts in flight as it admits) to retry later; none told
      // its right code was wrong, which would also count as a guess.
      const told = tally(confirms.refused);
      assertEquals(told["400 code_invalid"], undefined, JSON.stringify(told));
      assertEquals(
        Object.keys(told).filter((k) =>
          k !== "409 second_factor_enabled" && k !== "429 login_rate_limited"
        ),
        [],
        JSON.stringify(told),
      );
      await enabledOnce(store, api, {
        userId: member.id,
        cookie,
        secret,
        codes: confirms.succeeded[0].recovery_codes,
      });
    }),
);

testEachStore(
  "over HTTP: a hundred starts of TOTP enrolment at once keep one of their secrets, and one confirmation enables it once",
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const cookie = await api.login(member.email);
      const setups = await burst(
        100,
        "setupTotp",
        () => api.call("POST", "/api/auth/totp/setup", undefined, { cookie }),
      );
      assertEquals(setups.refused, [], "every start answers its secret");
      const secrets = new Set(setups.succeeded.map((s) => s.secret as string));
      assertEquals(secrets.size, 100, "each its own secret");
      // Each start replaced the one before: one enrolment is kept, and its
      // secret is one that was answered (no secret stored is anyone's but
      // the server's). No key seals it here, so the store holds it as is.
      const kept = await store.totpEnrolment(member.id, api.clock());
      assert(kept !== null, "an enrolment is kept");
      assert(secrets.has(kept.secret), "the kept secret was answered");
      assertEquals(await store.totp(member.id), null, "not enabled yet");

      const confirm = await api.call("POST", "/api/auth/totp/confirm", {
        code: totpCode(kept.secret, api.clock()),
      }, { cookie });
      assertEquals(confirm.status, 200);
      const { recovery_codes } = await confirm.json();
      await enabledOnce(store, api, {
        userId: member.id,
        cookie,
        secret: kept.secret,
        codes: recovery_codes,
      });
    }),
);
