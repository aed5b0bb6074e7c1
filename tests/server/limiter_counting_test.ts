// What the sign-in limiter counts is decided by each answer's data, never
// by the process's history or a guard's refusal (KV and Postgres):
// - the 410 of a pending sign-in that is already dead (absent, unknown,
//   ended) guesses nothing and takes nothing, before and after another
//   pending sign-in of the process ended on its fifth wrong code (whose
//   410 does count: it answers a wrong code, DESIGN.md §9);
// - a call without a session to a route behind the limiter (re-auth,
//   password change, TOTP confirm) is answered 401 `session_absent` and
//   neither counts nor takes an attempt, however many come at once.

import { OPERATIONS } from "@gatehouse/contract";
import type { Store } from "../../mod.ts";
import { PENDING_COOKIE } from "../../server/core/auth.ts";
import { totpCode } from "../../server/core/totp.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";
import { people, securityApi } from "../fixtures/security.ts";
import { settledCounter, testEachStore } from "../fixtures/stores.ts";

const ADDRESS = "203.0.113.5";
const KEY = `login:ip:${ADDRESS}`;

// A six-digit code none of the steps the server accepts now gives.
function wrongCode(secret: string, at: number): string {
  const valid = new Set(
    [-STEP, 0, STEP].map((d) => totpCode(secret, at + d)),
  );
  for (let n = 0;; n++) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}

async function counted(store: Store, at: number): Promise<number> {
  return (await settledCounter(store, KEY, at))?.count ?? 0;
}

testEachStore(
  "a dead pending sign-in's 410 takes nothing from the limiter, before and after another pending sign-in ended on its fifth wrong code",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { maxFailures: 10 });
    const { secret } = await enrolTotp(api, await api.login(member.email));
    const unknown = `${PENDING_COOKIE}=${"A".repeat(43)}`;
    const dead = async (cookies: (string | null)[]) => {
      for (const cookie of cookies) {
        const res = await secondStep(api, cookie, { code: "123456" });
        assertEquals(await refusal(res), [410, "token_invalid"]);
      }
    };
    assertEquals(await counted(store, api.clock()), 0);
    await dead([null, unknown, null, unknown]);
    assertEquals(await counted(store, api.clock()), 0, "before");

    // A pending sign-in ends on its fifth wrong code: five counted guesses.
    api.advance(STEP);
    const pending = await passwordStep(api, member.email);
    const code = wrongCode(secret, api.clock());
    for (let i = 1; i <= 4; i++) {
      const res = await secondStep(api, pending, { code });
      assertEquals(await refusal(res), [401, "credentials_invalid"]);
    }
    const fifth = await secondStep(api, pending, { code });
    assertEquals(await refusal(fifth), [410, "token_invalid"]);
    assertEquals(await counted(store, api.clock()), 5);

    // The same 410 of a dead pending sign-in, the ended one included,
    // still takes nothing.
    await dead([null, unknown, pending, null, unknown, pending]);
    assertEquals(await counted(store, api.clock()), 5, "after");
  },
);

testEachStore(
  "500 calls without a session to the routes behind the sign-in limiter are all 401 session_absent, take nothing from it, and a sign-in still works",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { maxFailures: 10 });
    const calls = [
      [OPERATIONS.reauthenticate.path, { password: "a wrong guess" }],
      [OPERATIONS.changePassword.path, {
        current_password: "a wrong guess",
        new_password: "an entirely new passphrase",
      }],
      [OPERATIONS.confirmTotp.path, { code: "123456" }],
    ] as const;
    // No cookie, one that cannot be a session token, and a well-formed
    // token of no session (read from the store).
    const cookies = [
      null,
      "__Host-session=not-a-token",
      `__Host-session=${"B".repeat(43)}`,
    ];
    const answers = await Promise.all(
      Array.from({ length: 500 }, (_, i) => {
        const [path, body] = calls[i % calls.length]!;
        return api.call("POST", path, body, {
          cookie: cookies[Math.floor(i / 3) % cookies.length]!,
          address: ADDRESS,
        });
      }),
    );
    const seen = new Map<string, number>();
    for (const res of answers) {
      const key = (await refusal(res)).join(" ");
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    assertEquals(seen, new Map([["401 session_absent", 500]]));
    assertEquals(await counted(store, api.clock()), 0);
    // The address still signs in.
    await api.login(member.email, undefined, { address: ADDRESS });
  },
);
