// POST /api/auth/password: the current password is checked (403
// password_incorrect, counted by the login limiter), the new one obeys the
// password rules, every session and reset link of the account dies and the
// answer's fresh session works (DESIGN.md §8), on KV and Postgres.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal, tokenOf } from "../fixtures/api.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { PASSWORD, people, securityApi } from "../fixtures/security.ts";

const NEW = "an entirely new passphrase";

testEachStore(
  "changePassword() ends every session and reset link, and the answer's session works",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { mail: true });
    const here = await api.login(member.email);
    const elsewhere = await api.login(member.email);
    const asked = await api.call("POST", "/api/auth/password-reset", {
      email: member.email,
    });
    assertEquals(asked.status, 202);
    await api.gatehouse.settled(); // the mail is sent after the answer
    const link = api.mail.findLast((m) => m.to === member.email)!.link!;

    const res = await api.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW,
    }, { cookie: here });
    assertEquals(res.status, 204);
    assertEquals(res.headers.get("cache-control"), "no-store");
    const fresh = res.headers.get("set-cookie")!;
    assert(fresh.startsWith("__Host-session="));
    const cookie = fresh.split(";")[0]!;
    assertEquals(await api.live(here), false, "this session ended too");
    assertEquals(await api.live(elsewhere), false);
    assert(await api.live(cookie));
    const spent = await api.call("POST", "/api/auth/password-reset/confirm", {
      token: tokenOf(link),
      password: "yet another passphrase",
    });
    assertEquals(await refusal(spent), [410, "token_invalid"]);
    const old = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: PASSWORD,
    });
    assertEquals(await refusal(old), [401, "credentials_invalid"]);
    assert(await api.live(await api.login(member.email, NEW)));
    // The fresh session counts as a recent proof of identity.
    const { sessions } =
      await (await api.call("GET", "/api/auth/sessions", undefined, {
        cookie,
      })).json();
    assertEquals(
      sessions.filter((s: { current: boolean }) => s.current).length,
      1,
    );
  },
);

testEachStore(
  "changePassword() refuses a wrong current password and bad new ones, changing nothing",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store);
    const cookie = await api.login(member.email);
    const change = (body: unknown) =>
      api.call("POST", "/api/auth/password", body, { cookie });
    const wrong = await change({
      current_password: "wrong one",
      new_password: NEW,
    });
    assertEquals(wrong.status, 403);
    assertEquals(await wrong.json(), {
      error: "The password is incorrect",
      code: "password_incorrect",
      meta: { field: "current_password" },
    });
    const cases: [unknown, number, string][] = [
      [
        { current_password: PASSWORD, new_password: "short" },
        400,
        "password_too_short",
      ],
      [
        { current_password: PASSWORD, new_password: "password1234" },
        400,
        "password_too_common",
      ],
      [
        { current_password: PASSWORD, new_password: "x".repeat(300) },
        400,
        "password_too_long",
      ],
      [
        { current_password: PASSWORD, new_password: "a\u0000 long password" },
        400,
        "body_malformed",
      ],
      [
        { current_password: PASSWORD, new_password: "\udc00 a long password" },
        400,
        "body_malformed",
      ],
      [{ current_password: PASSWORD }, 400, "body_field_required"],
      [{ current_password: 5, new_password: NEW }, 400, "body_malformed"],
      [[PASSWORD, NEW], 400, "body_malformed"],
    ];
    for (const [body, status, code] of cases) {
      assertEquals(
        await refusal(await change(body)),
        [status, code],
        JSON.stringify(body).slice(0, 50),
      );
    }
    assert(await api.live(cookie), "nothing changed");
    assert(await api.live(await api.login(member.email)));
    const anonymous = await api.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW,
    });
    assertEquals(await refusal(anonymous), [401, "session_absent"]);
  },
);

testEachStore(
  "a wrong current password counts toward the login limiter of the address",
  async (store) => {
    const { member } = await people(store);
    const api = securityApi(store, { maxFailures: 3 });
    const cookie = await api.login(member.email);
    for (let i = 0; i < 3; i++) {
      const res = await api.call("POST", "/api/auth/password", {
        current_password: "a wrong guess " + i,
        new_password: NEW,
      }, { cookie });
      assertEquals(res.status, 403);
      await res.body?.cancel();
    }
    const blocked = await api.call("POST", "/api/auth/password", {
      current_password: PASSWORD,
      new_password: NEW,
    }, { cookie });
    assertEquals(await refusal(blocked), [429, "login_rate_limited"]);
    const reauth = await api.call("POST", "/api/auth/reauthenticate", {
      password: PASSWORD,
    }, { cookie });
    assertEquals(await refusal(reauth), [429, "login_rate_limited"]);
    // One event per address and window, however many refusals: a flood of
    // refused requests writes nothing more (server/gatehouse.ts).
    const limited = (await api.events()).filter((e) =>
      e.type === "login.rate_limited"
    );
    assertEquals(limited.length, 1);
    assertEquals(limited[0]!.ip, "203.0.113.5");
  },
);

testEachStore(
  "200 simultaneous password changes of one session: one wins, nothing half-done",
  async (store) => {
    const { member } = await people(store);
    // The losers that check the old password after the winner changed it
    // are wrong passwords: the account lock (account_lock_test.ts) is not
    // what this test is about.
    const api = securityApi(store, {
      limits: { accountLockThreshold: 1000 },
    });
    const cookie = await api.login(member.email);
    const answers = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          api.call("POST", "/api/auth/password", {
            current_password: PASSWORD,
            new_password: `${NEW} number ${i}`,
          }, { cookie }),
      ),
    );
    const won = answers.filter((res) => res.status === 204);
    assertEquals(won.length, 1);
    for (const res of answers) {
      if (res.status !== 204) {
        const [status, code] = await refusal(res);
        // 429: past the account's bound on its own audited changes, while
        // the others are in flight (_change_budget.ts).
        assert(
          (status === 401 && code === "session_absent") ||
            (status === 403 && code === "password_incorrect") ||
            (status === 429 && code === "login_rate_limited"),
          `${status} ${code}`,
        );
      }
    }
    const winner = answers.indexOf(won[0]!);
    const fresh = won[0]!.headers.get("set-cookie")!.split(";")[0]!;
    assert(await api.live(fresh));
    assert(
      await api.live(await api.login(member.email, `${NEW} number ${winner}`)),
    );
    const events = (await api.events()).filter((e) =>
      e.type === "password.changed"
    );
    assertEquals(events.length, 1);
  },
);
