// TOTP and recovery codes over the API (DESIGN.md §9, issue 15), on KV and
// Postgres: enrolment, the two-step sign-in with codes computed from the
// enrolled secret at the server's injected clock, replay, the fifth wrong
// code, expiry, recovery codes under concurrency, pending sign-ins killed
// by a password change or a factor removal, the requireSecondFactor
// policy, an administrator's removal, re-authentication by code, two
// instances on one store. Every answer is checked against the contract.
// The password step is only the way to the second: argon2 checks the fixture
// password once per API and remembers it (securityApiWithRememberedPasswords).

import { totpCode } from "../../server/core/totp.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  PASSWORD,
  people,
  securityApiWithRememberedPasswords,
} from "../fixtures/security.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  sessionCookieOf,
  signInWithTotp,
  STEP,
} from "../fixtures/second_factor.ts";

const MINUTE = 60_000;

testEachStore(
  "two-step sign-in: 202 with a pending cookie and no session, then 200 with a session; the enrolment's step is refused",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const { secret } = await enrolTotp(api, cookie);
    const enrolmentCode = totpCode(secret, api.clock());

    const res = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: PASSWORD,
    });
    assertEquals(res.status, 202);
    assertEquals(
      res.headers.getSetCookie().filter((c) => c.startsWith("__Host-session")),
      [],
      "no session before the second factor",
    );
    await res.body?.cancel();
    const pending = await passwordStep(api, member.email);
    assertEquals(
      await refusal(await secondStep(api, pending, { code: enrolmentCode })),
      [401, "credentials_invalid"],
      "the enrolment's step counts as used",
    );
    api.advance(STEP);
    const done = await secondStep(api, pending, {
      code: totpCode(secret, api.clock()),
    });
    assertEquals(done.status, 200);
    const identity = await done.json();
    assertEquals(identity.id, member.id);
    assertEquals(identity.second_factor, { totp: true, passkeys: 0 });
    assertEquals(identity.second_factor_required, false);
    const cookies = done.headers.getSetCookie();
    assert(cookies.some((c) => c.startsWith("__Host-gatehouse-pending=;")));
    const session = sessionCookieOf(done);
    assert(await api.live(session));
    // The session's proof is recent: a fresh operation passes.
    const codes = await api.call(
      "POST",
      "/api/auth/recovery-codes",
      undefined,
      {
        cookie: session,
      },
    );
    assertEquals(codes.status, 200);
    await codes.body?.cancel();
    // The pending sign-in is spent.
    assertEquals(
      await refusal(
        await secondStep(api, pending, {
          code: totpCode(secret, api.clock() + STEP),
        }),
      ),
      [410, "token_invalid"],
    );
    // A wrong password answers as without a second factor.
    const wrong = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: "not the password",
    });
    assertEquals(await refusal(wrong), [401, "credentials_invalid"]);
    const events = (await api.events()).filter((e) =>
      e.type === "login.succeeded"
    );
    assertEquals(events.at(-1)?.detail.method, "totp");
  },
);

testEachStore(
  "codes one step either way pass, two steps away and an earlier or equal step are refused",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolTotp(api, await api.login(member.email));
    api.advance(5 * STEP);
    const at = api.clock();
    const attempt = async (offset: number) => {
      const pending = await passwordStep(api, member.email);
      const res = await secondStep(api, pending, {
        code: totpCode(secret, at + offset),
      });
      await res.body?.cancel();
      return res.status;
    };
    assertEquals(await attempt(2 * STEP), 401, "two steps ahead");
    assertEquals(await attempt(-2 * STEP), 401, "two steps behind");
    assertEquals(await attempt(-STEP), 200, "one step behind");
    assertEquals(await attempt(-STEP), 401, "the same step twice");
    assertEquals(await attempt(0), 200, "the current step");
    assertEquals(await attempt(STEP), 200, "one step ahead");
    assertEquals(await attempt(0), 401, "an earlier step after a later one");
    // Spaces are forgiven.
    api.advance(2 * STEP);
    const pending = await passwordStep(api, member.email);
    const code = totpCode(secret, api.clock());
    const spaced = await secondStep(api, pending, {
      code: `${code.slice(0, 3)} ${code.slice(3)}`,
    });
    assertEquals(spaced.status, 200);
    await spaced.body?.cancel();
  },
);

testEachStore(
  "wrong codes 1–4 are 401, the fifth ends the pending sign-in (410); they count toward the login limiter, the 202 does not",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, { maxFailures: 5 });
    const { secret } = await enrolTotp(
      api,
      await api.login(member.email, PASSWORD, { address: "198.51.100.9" }),
    );
    api.advance(STEP);
    const pending = await passwordStep(api, member.email);
    for (let i = 1; i <= 4; i++) {
      assertEquals(
        await refusal(await secondStep(api, pending, { code: "000000" })),
        [401, "credentials_invalid"],
        `wrong code ${i}`,
      );
    }
    assertEquals(
      await refusal(await secondStep(api, pending, { code: "000001" })),
      [410, "token_invalid"],
    );
    assertEquals(
      await refusal(
        await secondStep(api, pending, {
          code: totpCode(secret, api.clock()),
        }, { address: "198.51.100.78" }),
      ),
      [410, "token_invalid"],
      "ended: the right code no longer helps",
    );
    // Five counted guesses from this address: the limiter refuses now.
    const limited = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: PASSWORD,
    });
    assertEquals(await refusal(limited), [429, "login_rate_limited"]);
    // Another address is not limited, and a 202 is no failure.
    for (let i = 0; i < 6; i++) {
      const res = await api.call("POST", "/api/auth/login", {
        email: member.email,
        password: PASSWORD,
      }, { address: "198.51.100.77" });
      assertEquals(res.status, 202);
      await res.body?.cancel();
    }
  },
);

testEachStore(
  "an expired, absent, unknown or malformed pending sign-in is 410",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolTotp(api, await api.login(member.email));
    api.advance(STEP);
    const pending = await passwordStep(api, member.email);
    api.advance(5 * MINUTE);
    const code = totpCode(secret, api.clock());
    assertEquals(
      await refusal(await secondStep(api, pending, { code })),
      [410, "token_invalid"],
      "older than 5 minutes",
    );
    for (
      const cookie of [
        null,
        "__Host-gatehouse-pending=" + "A".repeat(43),
        "__Host-gatehouse-pending=short",
        "__Host-gatehouse-pending=\u00e9",
      ]
    ) {
      assertEquals(
        await refusal(await secondStep(api, cookie, { code })),
        [410, "token_invalid"],
        String(cookie),
      );
    }
    // The step was not spent by any of them.
    const fresh = await passwordStep(api, member.email);
    const ok = await secondStep(api, fresh, { code });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
    // The reaper removes the expired pending sign-in.
    assertEquals((await api.gatehouse.reaper.sweep()).factorRecords, 1);
  },
);

testEachStore(
  "recovery codes are single use, also with 200 concurrent attempts; a TOTP step too",
  async (store) => {
    const { member } = await people(store);
    // The losers of a race count as wrong codes; the per-account lock
    // (second_factor_lock_test.ts) is not what this test is about.
    const api = securityApiWithRememberedPasswords(store, {
      limits: { accountLockThreshold: 1000 },
    });
    const { secret, codes } = await enrolTotp(
      api,
      await api.login(member.email),
    );
    const first = await secondStep(
      api,
      await passwordStep(api, member.email),
      { recovery_code: codes[0]!.toUpperCase() },
    );
    assertEquals(first.status, 200);
    await first.body?.cancel();
    assertEquals(
      await refusal(
        await secondStep(api, await passwordStep(api, member.email), {
          recovery_code: codes[0],
        }),
      ),
      [401, "credentials_invalid"],
    );
    const pendings = await Promise.all(
      Array.from({ length: 200 }, () => passwordStep(api, member.email)),
    );
    const race = async (body: unknown) => {
      const answers = await Promise.all(
        pendings.map((p) => secondStep(api, p, body)),
      );
      await Promise.all(answers.map((r) => r.body?.cancel()));
      return answers.filter((r) => r.status === 200).length;
    };
    assertEquals(await race({ recovery_code: codes[1] }), 1);
    api.advance(STEP);
    assertEquals(await race({ code: totpCode(secret, api.clock()) }), 1);
    const used = (await api.events()).filter((e) =>
      e.type === "recovery_code.used"
    );
    assertEquals(used.length, 2);
    assert(used.every((e) => e.actorId === member.id));
  },
);

testEachStore(
  "a password change or a factor removal kills an open pending sign-in",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolTotp(api, await api.login(member.email));
    const session = await signInWithTotp(api, member.email, secret);
    const pending = await passwordStep(api, member.email);
    const changed = await api.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: "a brand new passphrase",
    }, { cookie: session });
    assertEquals(changed.status, 204);
    api.advance(STEP);
    assertEquals(
      await refusal(
        await secondStep(api, pending, { code: totpCode(secret, api.clock()) }),
      ),
      [410, "token_invalid"],
      "password changed",
    );

    const admin = await api.login(root.email);
    const res = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: "a brand new passphrase",
    });
    assertEquals(res.status, 202);
    await res.body?.cancel();
    const open = res.headers.get("set-cookie")!.split(";")[0]!;
    const removed = await api.call(
      "DELETE",
      `/api/users/${member.id}/second-factor`,
      undefined,
      { cookie: admin },
    );
    assertEquals(removed.status, 204);
    api.advance(STEP);
    assertEquals(
      await refusal(
        await secondStep(api, open, { code: totpCode(secret, api.clock()) }),
      ),
      [410, "token_invalid"],
      "factors removed",
    );
    // Without a factor the account signs in with its password alone.
    assert(
      await api.live(await api.login(member.email, "a brand new passphrase")),
    );
  },
);

testEachStore(
  "TOTP routes: errors, the re-authentication window, odd input",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const call = (method: string, path: string, body?: unknown, raw?: string) =>
      api.call(method, path, body, {
        cookie,
        ...(raw === undefined ? {} : { raw }),
      });
    assertEquals(
      await refusal(
        await call("POST", "/api/auth/totp/confirm", { code: "123456" }),
      ),
      [400, "code_invalid"],
      "no enrolment",
    );
    assertEquals(
      await refusal(await call("POST", "/api/auth/recovery-codes")),
      [409, "totp_not_enabled"],
    );
    const none = await call("DELETE", "/api/auth/totp");
    assertEquals(none.status, 204);
    const setup = await call("POST", "/api/auth/totp/setup");
    const { secret } = await setup.json();
    const odd: [unknown, number, string][] = [
      [{ code: 123456 }, 400, "body_malformed"],
      [{}, 400, "body_field_required"],
      [[], 400, "body_malformed"],
      [{ code: "\u0000\u0000\u0000" }, 400, "code_invalid"],
      [{ code: "\ud800" }, 400, "code_invalid"],
      [{ code: "9".repeat(60) }, 400, "code_invalid"],
      [{ code: "x".repeat(20_000) }, 413, "body_too_large"],
      [{ code: "000000", extra: true }, 400, "code_invalid"],
    ];
    for (const [body, status, code] of odd) {
      assertEquals(
        await refusal(await call("POST", "/api/auth/totp/confirm", body)),
        [status, code],
        JSON.stringify(body).slice(0, 40),
      );
    }
    assertEquals(
      await refusal(
        await call("POST", "/api/auth/totp/confirm", undefined, "{"),
      ),
      [400, "body_malformed"],
    );
    const ok = await call("POST", "/api/auth/totp/confirm", {
      code: totpCode(secret, api.clock()),
    });
    assertEquals(ok.status, 200);
    const { recovery_codes } = await ok.json();
    assertEquals(
      await refusal(await call("POST", "/api/auth/totp/setup")),
      [409, "second_factor_enabled"],
    );
    assertEquals(
      await refusal(
        await call("POST", "/api/auth/totp/confirm", {
          code: totpCode(secret, api.clock()),
        }),
      ),
      [409, "second_factor_enabled"],
    );
    const again = await call("POST", "/api/auth/recovery-codes");
    const fresh: string[] = (await again.json()).recovery_codes;
    assertEquals(fresh.length, 10);
    assertEquals(
      await refusal(
        await secondStep(api, await passwordStep(api, member.email), {
          recovery_code: recovery_codes[0],
        }),
      ),
      [401, "credentials_invalid"],
      "the old codes died",
    );
    // Outside the re-authentication window.
    api.advance(31 * MINUTE);
    for (
      const [method, path] of [
        ["POST", "/api/auth/totp/setup"],
        ["DELETE", "/api/auth/totp"],
        ["POST", "/api/auth/recovery-codes"],
      ]
    ) {
      assertEquals(
        await refusal(await call(method!, path!)),
        [403, "reauthentication_required"],
        path,
      );
    }
    // A code renews the proof; a wrong one is refused and counted.
    assertEquals(
      await refusal(
        await call("POST", "/api/auth/reauthenticate", { code: "000000" }),
      ),
      [400, "code_invalid"],
    );
    const reauth = await call("POST", "/api/auth/reauthenticate", {
      code: totpCode(secret, api.clock()),
    });
    assertEquals(reauth.status, 204);
    const off = await call("DELETE", "/api/auth/totp");
    assertEquals(off.status, 204);
    // Off: the password alone signs in again.
    assert(await api.live(await api.login(member.email)));
    api.advance(31 * MINUTE);
    const byRecovery = await call("POST", "/api/auth/reauthenticate", {
      recovery_code: fresh[0],
    });
    assertEquals(await refusal(byRecovery), [409, "totp_not_enabled"]);
  },
);

testEachStore(
  "requireSecondFactor: an account of the role without one reaches only enrolment, then everything",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      requireSecondFactor: ["admin"],
    });
    const login = await api.call("POST", "/api/auth/login", {
      email: root.email,
      password: PASSWORD,
    });
    assertEquals(login.status, 200);
    assertEquals((await login.json()).second_factor_required, true);
    const cookie = sessionCookieOf(login);
    const get = (path: string) => api.call("GET", path, undefined, { cookie });
    for (const path of ["/api/users", "/api/audit", "/api/auth/passkeys/x"]) {
      const res = await get(path);
      if (res.status === 404) {
        await res.body?.cancel();
        continue;
      }
      assertEquals(await refusal(res), [403, "second_factor_required"], path);
    }
    assertEquals(
      await refusal(
        await api.call("PATCH", `/api/users/${member.id}`, { disabled: true }, {
          cookie,
        }),
      ),
      [403, "second_factor_required"],
    );
    for (
      const path of [
        "/api/auth/session",
        "/api/auth/sessions",
        "/api/auth/activity",
        "/api/auth/passkeys",
      ]
    ) {
      const res = await get(path);
      assertEquals(res.status, 200, path);
      await res.body?.cancel();
    }
    const { secret } = await enrolTotp(api, cookie);
    const users = await get("/api/users");
    assertEquals(users.status, 200, "enrolled: everything");
    await users.body?.cancel();
    const session = await (await get("/api/auth/session")).json();
    assertEquals(session.second_factor_required, false);
    assertEquals(session.second_factor, { totp: true, passkeys: 0 });
    // Members are not concerned.
    const m = await api.login(member.email);
    const mine = await api.call("GET", "/api/auth/sessions", undefined, {
      cookie: m,
    });
    assertEquals(mine.status, 200);
    await mine.body?.cancel();
    assert(await api.live(await signInWithTotp(api, root.email, secret)));
  },
);

testEachStore(
  "removeUserSecondFactor: within reach, re-authenticated, 404 for an unknown account",
  async (store) => {
    const { root, support, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolTotp(api, await api.login(root.email));
    await enrolTotp(api, await api.login(member.email));
    const asSupport = await api.login(support.email);
    const remove = (id: string, cookie: string) =>
      api.call("DELETE", `/api/users/${id}/second-factor`, undefined, {
        cookie,
      });
    assertEquals(
      await refusal(await remove(root.id, asSupport)),
      [403, "role_beyond_reach"],
    );
    await passwordStep(api, root.email);
    assertEquals(
      await refusal(await remove(crypto.randomUUID(), asSupport)),
      [404, "user_not_found"],
    );
    assertEquals(
      await refusal(await remove("not-a-uuid", asSupport)),
      [400, "user_id_malformed"],
    );
    const asMember = await signInWithTotp(
      api,
      member.email,
      (await enrolAgain())!,
    );
    assertEquals(
      await refusal(await remove(root.id, asMember)),
      [403, "role_insufficient"],
    );
    api.advance(31 * MINUTE);
    assertEquals(
      await refusal(await remove(member.id, asSupport)),
      [403, "reauthentication_required"],
    );
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      password: PASSWORD,
    }, { cookie: asSupport });
    assertEquals(reauth.status, 204);
    const done = await remove(member.id, asSupport);
    assertEquals(done.status, 204);
    assert(await api.live(await api.login(member.email)), "no factor left");
    const events = (await api.events()).filter((e) =>
      e.type === "second_factor.disabled"
    );
    assertEquals(events.length, 1);
    assertEquals(events[0]!.actorId, support.id);
    assertEquals(events[0]!.targetId, member.id);
    // Root still has its own.
    await passwordStep(api, root.email);
    assert(secret.length > 0);

    // The member's secret, read from the store (the test enrolled it).
    async function enrolAgain() {
      return (await store.totp(member.id))?.secret;
    }
  },
);

testEachStore(
  "two instances on one store: the password step on one, the second step on the other",
  async (store) => {
    const { member } = await people(store);
    const a = securityApiWithRememberedPasswords(store);
    const b = securityApiWithRememberedPasswords(store);
    const { secret } = await enrolTotp(a, await a.login(member.email));
    const pending = await passwordStep(a, member.email);
    b.advance(STEP);
    const res = await secondStep(b, pending, {
      code: totpCode(secret, b.clock()),
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assert(await a.live(sessionCookieOf(res)));
  },
);
