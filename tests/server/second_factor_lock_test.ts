// Wrong second-factor codes counted by the account lock (issue 26 item 15,
// issue 30, DESIGN.md §15), on KV and Postgres: the attack itself (someone
// who has the password spreads wrong codes over 40 addresses and many
// pending sign-ins: the 11th evaluation is refused with 429 and
// Retry-After, and so are a right code and the password step of browsers
// without a trusted-device cookie, until the window passes), the owner's
// trusted browser finishing its two steps meanwhile, 1,000 concurrent wrong
// codes on two instances sharing one store (at most 10 evaluated), a
// success before the lock clearing the count, recovery codes and
// re-authentication counting too, the configured threshold, and one
// `login.locked` per window. Evaluations are counted on the store: each code
// check reads the account's TOTP once. The password step is only the way to
// the second: argon2 checks the fixture password once per API and remembers
// it (securityApiWithRememberedPasswords; account_lock_test.ts keeps argon2
// on every sign-in).

import { totpCode } from "../../server/core/totp.ts";
import type { Store } from "../../mod.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { DEVICE_COOKIE } from "../../server/core/_device_cookie.ts";
import { instrument } from "../fixtures/instrument.ts";
import { pairTest } from "../fixtures/instances.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  PASSWORD,
  people,
  securityApiWithRememberedPasswords,
  signInStatus,
} from "../fixtures/security.ts";
import {
  type Api,
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";

const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;

/** `store` with its TOTP reads counted: one per code evaluated. */
function counted(store: Store) {
  const seen = { evaluations: 0 };
  const watched = instrument(store, {
    totp(userId: string) {
      seen.evaluations++;
      return store.totp(userId);
    },
  });
  return { store: watched, seen };
}

/** A six-digit code that is none of the codes accepted at `at`. */
function wrongCode(secret: string, at: number, n: number): string {
  const right = new Set(
    [-1, 0, 1].map((step) => totpCode(secret, at + step * STEP)),
  );
  for (let i = n;; i++) {
    const code = String((i * 7919) % 1_000_000).padStart(6, "0");
    if (!right.has(code)) return code;
  }
}

/** An address of its own for the `i`-th guess (40 of them, round robin). */
const address = (i: number) => `198.51.100.${(i % 40) + 1}`;

/**
 * An account with TOTP, the secret, its recovery codes, a session and the
 * trusted-device cookie of the browser that signed in.
 */
async function enrolled(api: Api, email: string) {
  const res = await api.call("POST", "/api/auth/login", {
    email,
    password: "correct horse battery staple",
  });
  assertEquals(res.status, 200);
  await res.body?.cancel();
  const pair = (name: string) =>
    res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`))!
      .split(";")[0]!;
  const cookie = pair("__Host-session");
  const { secret, codes } = await enrolTotp(api, cookie);
  return { secret, codes, cookie, device: pair(DEVICE_COOKIE) };
}

/**
 * `n` pending sign-ins made now, while the password step is open: a few at
 * a time, since a password being checked holds its reserved attempt (more
 * than the threshold at once would be refused, right or not).
 */
async function pendings(
  api: Api | ((i: number) => Api),
  email: string,
  n: number,
): Promise<string[]> {
  const made: string[] = [];
  for (let i = 0; i < n; i += 5) {
    made.push(
      ...await Promise.all(
        Array.from(
          { length: Math.min(5, n - i) },
          (_, j) =>
            passwordStep(typeof api === "function" ? api(i + j) : api, email),
        ),
      ),
    );
  }
  return made;
}

/** The password step refused by the lock: 429 before any argon2 work. */
async function passwordLocked(api: Api, email: string, device?: string) {
  const res = await api.call("POST", "/api/auth/login", {
    email,
    password: "correct horse battery staple",
  }, device === undefined ? {} : { cookie: device });
  assertEquals(await refusal(res), [429, "login_rate_limited"]);
}

/** `n` wrong codes over fresh pending sign-ins, four each: their statuses. */
async function wrongCodes(
  api: Api,
  email: string,
  secret: string,
  n: number,
  from = 0,
): Promise<number[]> {
  const statuses: number[] = [];
  let pending = "";
  for (let i = from; i < from + n; i++) {
    if ((i - from) % 4 === 0) pending = await passwordStep(api, email);
    const res = await secondStep(api, pending, {
      code: wrongCode(secret, api.clock(), i),
    }, { address: address(i) });
    await res.body?.cancel();
    statuses.push(res.status);
  }
  return statuses;
}

testEachStore(
  "the attack: wrong codes from 40 addresses over many pending sign-ins; the 11th is refused with 429 and Retry-After, so are a right code and the password step, until the window passes",
  async (store) => {
    const { member } = await people(store);
    const watched = counted(store);
    const api = securityApiWithRememberedPasswords(watched.store);
    const { secret } = await enrolled(api, member.email);
    const spare = await pendings(api, member.email, 31);
    watched.seen.evaluations = 0;

    assertEquals(
      await wrongCodes(api, member.email, secret, 10),
      Array(10).fill(401),
    );
    assertEquals(watched.seen.evaluations, 10);
    // The 11th, from a new address, on a pending sign-in made before.
    const eleventh = await secondStep(api, spare[0]!, {
      code: wrongCode(secret, api.clock(), 10),
    }, { address: "192.0.2.99" });
    assertEquals(await refusal(eleventh), [429, "login_rate_limited"]);
    const retryAfter = Number(eleventh.headers.get("retry-after"));
    assert(retryAfter > 0 && retryAfter <= WINDOW / 1000, `${retryAfter}`);
    // The rest of the 40 addresses, each on a pending sign-in of its own.
    for (let i = 11; i < 40; i++) {
      const res = await secondStep(
        api,
        spare[i - 10]!,
        { code: wrongCode(secret, api.clock(), i) },
        { address: address(i) },
      );
      assertEquals(await refusal(res), [429, "login_rate_limited"], `#${i}`);
    }
    // The right code is refused as well: the lock tells nothing. And no
    // browser without a trusted-device cookie gets a new pending sign-in.
    api.advance(STEP);
    const right = await secondStep(api, spare[30]!, {
      code: totpCode(secret, api.clock()),
    });
    assertEquals(await refusal(right), [429, "login_rate_limited"]);
    await passwordLocked(api, member.email);
    assertEquals(watched.seen.evaluations, 10, "no code evaluated past 10");

    const locked = (await api.events()).filter((e) =>
      e.type === "login.locked"
    );
    assertEquals(locked.length, 1, "one login.locked per window");
    assertEquals(locked[0]!.targetId, member.id);
    assertEquals(locked[0]!.actorId, null);
    assertEquals(locked[0]!.ip, "192.0.2.99", "the first refused request's");

    // Once the window passed, the right code signs in.
    api.advance(WINDOW);
    const after = await secondStep(
      api,
      await passwordStep(api, member.email),
      { code: totpCode(secret, api.clock()) },
    );
    assertEquals(after.status, 200);
    await after.body?.cancel();
  },
);

testEachStore(
  "the owner's trusted browser finishes its two steps while wrong codes lock the others out",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret, device } = await enrolled(api, member.email);
    assertEquals(
      await wrongCodes(api, member.email, secret, 10),
      Array(10).fill(401),
    );
    await passwordLocked(api, member.email);
    const step = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: "correct horse battery staple",
    }, { cookie: device });
    assertEquals(step.status, 202);
    await step.body?.cancel();
    const pending = step.headers.get("set-cookie")!.split(";")[0]!;
    api.advance(STEP);
    const done = await secondStep(
      api,
      `${pending}; ${device}`,
      { code: totpCode(secret, api.clock()) },
    );
    assertEquals(done.status, 200);
    await done.body?.cancel();
    assert(
      done.headers.getSetCookie().some((c) =>
        c.startsWith(`${DEVICE_COOKIE}=`)
      ),
      "the device cookie is renewed",
    );
    await passwordLocked(api, member.email);
  },
);

testEachStore(
  "a right code before the lock clears the count: ten more wrong codes are evaluated, the eleventh is refused",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolled(api, member.email);
    assertEquals(
      await wrongCodes(api, member.email, secret, 9),
      Array(9).fill(401),
    );
    api.advance(STEP);
    const right = await secondStep(
      api,
      await passwordStep(api, member.email),
      { code: totpCode(secret, api.clock()) },
    );
    assertEquals(right.status, 200);
    await right.body?.cancel();
    const [spare] = await pendings(api, member.email, 1);
    assertEquals(
      await wrongCodes(api, member.email, secret, 10, 100),
      Array(10).fill(401),
      "the nine before the success no longer count",
    );
    const res = await secondStep(api, spare!, {
      code: wrongCode(secret, api.clock(), 500),
    });
    assertEquals(await refusal(res), [429, "login_rate_limited"]);
  },
);

testEachStore(
  "recovery codes count too: ten wrong ones lock the account, a right recovery code is then refused, and a right one before clears the count",
  async (store) => {
    const { member } = await people(store);
    const watched = counted(store);
    const api = securityApiWithRememberedPasswords(watched.store);
    const { codes } = await enrolled(api, member.email);
    const wrong = (i: number) =>
      `zzzz-zzzz-zzzz-${String(i).padStart(4, "0").replace(/[ilo]/g, "z")}`;
    let pending = "";
    for (let i = 0; i < 9; i++) {
      if (i % 4 === 0) pending = await passwordStep(api, member.email);
      const res = await secondStep(api, pending, {
        recovery_code: wrong(i),
      }, { address: address(i) });
      assertEquals(await refusal(res), [401, "credentials_invalid"]);
    }
    const ok = await secondStep(api, await passwordStep(api, member.email), {
      recovery_code: codes[0],
    });
    assertEquals(ok.status, 200, "a right recovery code clears the count");
    await ok.body?.cancel();
    const [spare] = await pendings(api, member.email, 1);
    for (let i = 0; i < 10; i++) {
      if (i % 4 === 0) pending = await passwordStep(api, member.email);
      const res = await secondStep(api, pending, {
        recovery_code: wrong(100 + i),
      }, { address: address(i) });
      assertEquals(await refusal(res), [401, "credentials_invalid"], `#${i}`);
    }
    const refused = await secondStep(api, spare!, { recovery_code: codes[1] });
    assertEquals(await refusal(refused), [429, "login_rate_limited"]);
    assert(Number(refused.headers.get("retry-after")) > 0);
    // The refused right code was not spent: it works once the window passed.
    api.advance(WINDOW);
    const later = await secondStep(
      api,
      await passwordStep(api, member.email),
      { recovery_code: codes[1] },
    );
    assertEquals(later.status, 200);
    await later.body?.cancel();
  },
);

testEachStore(
  "re-authentication with a wrong code counts toward the same lock; locked, a code or a password of that browser answers 429 too, the trusted browser's password does not",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret, cookie, device } = await enrolled(api, member.email);
    const [spare] = await pendings(api, member.email, 1);
    for (let i = 0; i < 6; i++) {
      const res = await api.call("POST", "/api/auth/reauthenticate", {
        code: wrongCode(secret, api.clock(), i),
      }, { cookie, address: address(i) });
      assertEquals(await refusal(res), [400, "code_invalid"], `#${i}`);
    }
    assertEquals(
      await wrongCodes(api, member.email, secret, 4, 50),
      Array(4).fill(401),
    );
    // Ten failures: the second step is locked, right code or not.
    api.advance(STEP);
    const signIn = await secondStep(api, spare!, {
      code: totpCode(secret, api.clock()),
    });
    assertEquals(await refusal(signIn), [429, "login_rate_limited"]);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      code: totpCode(secret, api.clock()),
    }, { cookie });
    assertEquals(await refusal(reauth), [429, "login_rate_limited"]);
    assert(Number(reauth.headers.get("retry-after")) > 0);
    const byPassword = await api.call("POST", "/api/auth/reauthenticate", {
      password: "correct horse battery staple",
    }, { cookie });
    assertEquals(await refusal(byPassword), [429, "login_rate_limited"]);
    const trusted = await api.call("POST", "/api/auth/reauthenticate", {
      password: "correct horse battery staple",
    }, { cookie: `${cookie}; ${device}` });
    assertEquals(trusted.status, 204, "the trusted browser is not locked out");
    await trusted.body?.cancel();
    // Once the window passed, codes are evaluated again.
    api.advance(WINDOW);
    const renewed = await api.call("POST", "/api/auth/reauthenticate", {
      code: totpCode(secret, api.clock()),
    }, { cookie });
    assertEquals(renewed.status, 204);
    assertEquals(
      await wrongCodes(api, member.email, secret, 10, 200),
      Array(10).fill(401),
    );
  },
);

testEachStore(
  "the threshold and window come from `limits` (accountLockThreshold, accountLockWindow)",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      limits: { accountLockThreshold: 3, accountLockWindow: 2 * MINUTE },
    });
    const { secret } = await enrolled(api, member.email);
    const [spare] = await pendings(api, member.email, 1);
    assertEquals(
      await wrongCodes(api, member.email, secret, 3),
      Array(3).fill(401),
    );
    const res = await secondStep(api, spare!, {
      code: wrongCode(secret, api.clock(), 3),
    });
    assertEquals(await refusal(res), [429, "login_rate_limited"]);
    assert(Number(res.headers.get("retry-after")) <= 120);
    api.advance(2 * MINUTE);
    assertEquals(
      await wrongCodes(api, member.email, secret, 3, 10),
      Array(3).fill(401),
      "a new window",
    );
  },
);

pairTest(
  "1,000 concurrent wrong codes over many pending sign-ins of one account, on both instances: at most 10 evaluated, one login.locked",
  async (pair) => {
    const { member } = await people(pair.a);
    const a = counted(pair.a);
    const b = counted(pair.b);
    const apiA = securityApiWithRememberedPasswords(a.store);
    const apiB = securityApiWithRememberedPasswords(b.store);
    const { secret } = await enrolled(apiA, member.email);
    apiB.advance(apiA.clock() - apiB.clock());
    // 50 pending sign-ins, 20 codes each.
    const made = await pendings(
      (i) => i % 2 === 0 ? apiA : apiB,
      member.email,
      50,
    );
    a.seen.evaluations = 0;
    b.seen.evaluations = 0;
    const answers = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const api = i % 2 === 0 ? apiA : apiB;
        const res = await secondStep(api, made[i % 50]!, {
          code: wrongCode(secret, api.clock(), i),
        }, { address: address(i) });
        await res.body?.cancel();
        return res.status;
      }),
    );
    const evaluated = a.seen.evaluations + b.seen.evaluations;
    assert(evaluated <= 10, `${evaluated} codes evaluated`);
    assertEquals(evaluated, 10, "the whole threshold is used, no more");
    const refused = answers.filter((s) => s === 429).length;
    assertEquals(refused, 1000 - evaluated);
    assert(
      answers.every((s) => s === 429 || s === 401 || s === 410),
      String([...new Set(answers)]),
    );
    // One event between the two instances.
    await apiA.gatehouse.settled();
    const locked = (await apiB.events()).filter((e) =>
      e.type === "login.locked"
    );
    assertEquals(locked.length, 1);
    assertEquals(locked[0]!.targetId, member.id);
    // Still locked for either instance, right code included.
    apiA.advance(STEP);
    const right = await secondStep(apiA, made[1]!, {
      code: totpCode(secret, apiA.clock()),
    });
    assertEquals(await refusal(right), [429, "login_rate_limited"]);
    await passwordLocked(apiB, member.email);
  },
);

testEachStore(
  "a right code whose sign-in is refused at its commit clears no count: it completed nothing",
  async (store) => {
    const { member } = await people(store);
    // Disabled once the right code has spent the pending sign-in (with
    // its time step, in one commit): the sign-in's commit then refuses.
    let disableOnSpend = false;
    const watched = instrument(store, {
      async useTotpStep(...args: Parameters<typeof store.useTotpStep>) {
        const spent = await store.useTotpStep(...args);
        if (disableOnSpend) {
          await store.updateUser(member.id, { disabled: true });
        }
        return spent;
      },
    });
    const api = securityApiWithRememberedPasswords(watched);
    const { secret } = await enrolled(api, member.email);
    const signIn = (password: string, address: string) =>
      signInStatus(api, member.email, password, address);
    // Nine wrong passwords from nine addresses: one short of the lock.
    for (let i = 1; i <= 9; i++) {
      assertEquals(await signIn(`wrong password ${i}`, `10.3.0.${i}`), 401);
    }
    api.advance(STEP);
    const pending = await passwordStep(api, member.email);
    disableOnSpend = true;
    const refused = await secondStep(api, pending, {
      code: totpCode(secret, api.clock()),
    });
    // The sign-in it finishes ended with the disable: start again
    // (second_step_factor_removed_test.ts).
    assertEquals(await refusal(refused), [410, "token_invalid"]);
    disableOnSpend = false;
    await store.updateUser(member.id, { disabled: false });
    // The nine failures still count: the tenth locks the account.
    assertEquals(await signIn("wrong password 10", "10.3.0.10"), 401);
    assertEquals(await signIn(PASSWORD, "10.3.0.11"), 429);
  },
);
