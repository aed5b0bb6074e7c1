// One's own sessions, an administrator ending another account's sessions,
// the idle timeout and the re-authentication window (DESIGN.md §8), through
// createGatehouse's routes on KV and Postgres, with a clock the test moves.
// Signing in is only the way to a session here: argon2 checks the fixture
// password once per API and remembers it (securityApiWithRememberedPasswords).

import type { Store } from "../../mod.ts";
import { RuleStore } from "../../server/stores/mod.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  PASSWORD,
  people,
  type securityApi,
  type SecurityApiOptions,
  securityApiWithRememberedPasswords,
  sessionsOf,
} from "../fixtures/security.ts";

const MINUTE = 60_000;
const FIREFOX_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";

type Api = ReturnType<typeof securityApi>;

// DELETE /api/auth/sessions/{id} with `cookie`.
const revoke = (api: Api, id: string, cookie: string) =>
  api.call("DELETE", `/api/auth/sessions/${id}`, undefined, { cookie });

testEachStore(
  "listSessions() lists the caller's live sessions, newest first, with address and browser",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const first = await api.login(member.email, PASSWORD, {
      address: "198.51.100.7",
      userAgent: FIREFOX_MAC,
    });
    api.advance(1000);
    const second = await api.login(member.email);
    await api.login(other.email);
    const res = await api.call("GET", "/api/auth/sessions", undefined, {
      cookie: second,
    });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    const { sessions } = await res.json();
    assertEquals(sessions.length, 2);
    assertEquals(
      sessions.map((s: { current: boolean }) => s.current),
      [true, false],
    );
    assertEquals(sessions[0].ip, "203.0.113.5");
    assertEquals(sessions[0].user_agent, "Chrome on Linux");
    assertEquals(sessions[1].ip, "198.51.100.7");
    assertEquals(sessions[1].user_agent, "Firefox on macOS");
    assert(
      Date.parse(sessions[0].created_at) > Date.parse(sessions[1].created_at),
    );
    assertEquals(
      Date.parse(sessions[1].idle_expires_at) -
        Date.parse(sessions[1].last_seen_at),
      24 * 60 * MINUTE,
    );
    // Ids are public UUIDs, never the token.
    assert(!first.includes(sessions[1].id));
    const none = await api.call("GET", "/api/auth/sessions");
    assertEquals(await refusal(none), [401, "session_absent"]);
  },
);

testEachStore(
  "revokeSession() ends one of one's own sessions; another account's id is 404",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const phone = await api.login(member.email);
    const laptop = await api.login(member.email);
    const stranger = await api.login(other.email);
    const phoneId = (await sessionsOf(api, phone)).find((s) => s.current)!.id;
    const strangerId = (await sessionsOf(api, stranger))[0]!.id;

    const foreign = await revoke(api, strangerId, laptop);
    assertEquals(await refusal(foreign), [404, "session_not_found"]);
    assert(await api.live(stranger));
    const unknown = await revoke(api, crypto.randomUUID(), laptop);
    assertEquals(await refusal(unknown), [404, "session_not_found"]);
    for (const bad of ["nope", "%00", "x".repeat(5000)]) {
      const res = await revoke(api, bad, laptop);
      assertEquals(await refusal(res), [400, "session_id_malformed"]);
    }

    const ended = await revoke(api, phoneId, laptop);
    assertEquals(ended.status, 204);
    assertEquals(ended.headers.get("set-cookie"), null);
    assertEquals(await api.live(phone), false);
    assert(await api.live(laptop));
    const again = await revoke(api, phoneId, laptop);
    assertEquals(await refusal(again), [404, "session_not_found"]);

    // The current one: also clears the cookie.
    const laptopId = (await sessionsOf(api, laptop))[0]!.id;
    const self = await revoke(api, laptopId, laptop);
    assertEquals(self.status, 204);
    assert(self.headers.get("set-cookie")!.includes("Max-Age=0"));
    assertEquals(await api.live(laptop), false);
  },
);

// Runs `task` as if the sweep that removes the records of the sessions a
// moved generation ended never ran (a crash between the commit and the
// sweep): those sessions are dead, their records still stored.
async function withoutSweep<T>(store: Store, task: () => Promise<T>) {
  assert(store instanceof RuleStore);
  const { records } = store;
  const list = records.list;
  records.list =
    ((kind, field, value) =>
      kind === "session"
        ? Promise.resolve([])
        : list.call(records, kind, field, value)) as typeof list;
  try {
    return await task();
  } finally {
    records.list = list;
  }
}

// Ways a session (`there`) is dead already, each answering a live session
// of the same account to ask with.
const DEAD_ALREADY: [
  how: string,
  options: SecurityApiOptions,
  end: (api: Api, store: Store, email: string) => Promise<string>,
][] = [
  ["idled out", { idleTimeout: 10 * MINUTE }, async (api, _store, email) => {
    // Used every minute (each use recorded: the touch interval is one
    // minute here) while `there` is not.
    const here = await api.login(email);
    for (let i = 0; i < 11; i++) {
      api.advance(MINUTE);
      assert(await api.live(here));
      await api.gatehouse.settled();
    }
    return here;
  }],
  ["expired", { sessionTtl: 30 * MINUTE }, async (api, _store, email) => {
    api.advance(20 * MINUTE);
    const here = await api.login(email);
    api.advance(11 * MINUTE);
    return here;
  }],
  ["of an older generation, its record not yet swept", {}, async (
    api,
    store,
    email,
  ) => {
    const here = await api.login(email);
    const res = await withoutSweep(
      store,
      () =>
        api.call("POST", "/api/auth/password", {
          current_password: PASSWORD,
          new_password: "a brand new passphrase",
        }, { cookie: here }),
    );
    assertEquals(res.status, 204);
    return res.headers.get("set-cookie")!.split(";")[0]!;
  }],
];

for (const [how, options, end] of DEAD_ALREADY) {
  testEachStore(
    `revokeSession() answers a session ${how} as an unknown id: 404, nothing recorded`,
    async (store) => {
      const { member } = await people(store);
      const api = securityApiWithRememberedPasswords(store, options);
      const there = await api.login(member.email);
      const { id } = (await sessionsOf(api, there))[0]!;
      const here = await end(api, store, member.email);
      assertEquals(await api.live(there), false);
      assertEquals((await sessionsOf(api, here)).length, 1);
      const res = await revoke(api, id, here);
      assertEquals(await refusal(res), [404, "session_not_found"]);
      const revoked = (await api.events()).filter((e) =>
        e.type === "session.revoked"
      );
      assertEquals(revoked, []);
      assert(await api.live(here));
    },
  );
}

testEachStore(
  "revokeOtherSessions() ends every other session and keeps this one",
  async (store) => {
    const { member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const others = await Promise.all(
      Array.from({ length: 5 }, () => api.login(member.email)),
    );
    const here = await api.login(member.email);
    const stranger = await api.login(other.email);
    const res = await api.call("DELETE", "/api/auth/sessions", undefined, {
      cookie: here,
    });
    assertEquals(res.status, 204);
    for (const cookie of others) assertEquals(await api.live(cookie), false);
    assert(await api.live(here));
    assert(await api.live(stranger));
    const listed =
      await (await api.call("GET", "/api/auth/sessions", undefined, {
        cookie: here,
      })).json();
    assertEquals(listed.sessions.length, 1);
  },
);

testEachStore(
  "revokeUserSessions() ends every session of an account within reach, without disabling it",
  async (store) => {
    const { root, support, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const admin = await api.login(root.email);
    const helper = await api.login(support.email);
    const memberCookies = await Promise.all(
      Array.from({ length: 3 }, () => api.login(member.email)),
    );
    const rootOther = await api.login(root.email);

    const res = await api.call(
      "DELETE",
      `/api/users/${member.id}/sessions`,
      undefined,
      { cookie: admin },
    );
    assertEquals(res.status, 204);
    for (const cookie of memberCookies) {
      assertEquals(await api.live(cookie), false);
    }
    assertEquals((await store.userById(member.id))?.disabled, false);
    assert(await api.live(await api.login(member.email)), "can sign in again");

    const beyond = await api.call(
      "DELETE",
      `/api/users/${root.id}/sessions`,
      undefined,
      { cookie: helper },
    );
    assertEquals(await refusal(beyond), [403, "role_beyond_reach"]);
    assert(await api.live(rootOther));
    const unknown = await api.call(
      "DELETE",
      `/api/users/${crypto.randomUUID()}/sessions`,
      undefined,
      { cookie: admin },
    );
    assertEquals(await refusal(unknown), [404, "user_not_found"]);
    const malformed = await api.call(
      "DELETE",
      "/api/users/x/sessions",
      undefined,
      {
        cookie: admin,
      },
    );
    assertEquals(await refusal(malformed), [400, "user_id_malformed"]);
    const unprivileged = await api.call(
      "DELETE",
      `/api/users/${root.id}/sessions`,
      undefined,
      { cookie: await api.login(member.email) },
    );
    assertEquals(await refusal(unprivileged), [403, "role_insufficient"]);
  },
);

testEachStore(
  "a session unused for the idle timeout is dead; use keeps it alive",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      idleTimeout: 10 * MINUTE,
    });
    const cookie = await api.login(member.email);
    const idle = await api.login(member.email);
    // Used every 9 minutes: each use is recorded (the touch interval is one
    // minute here), so it never idles out.
    for (let i = 0; i < 4; i++) {
      api.advance(9 * MINUTE);
      assert(await api.live(cookie), `use ${i}`);
      await api.gatehouse.settled();
    }
    assertEquals(await api.live(idle), false, "36 minutes unused");
    api.advance(10 * MINUTE);
    assertEquals(await api.live(cookie), false, "10 minutes unused");
    // Also gone from the list, and nothing else answers for it.
    const res = await api.call("GET", "/api/auth/sessions", undefined, {
      cookie,
    });
    assertEquals(await refusal(res), [401, "session_absent"]);
  },
);

testEachStore(
  "a sign-in at the session cap ends an idled-out session before one in use",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store, {
      idleTimeout: 10 * MINUTE,
      limits: { maxSessionsPerAccount: 2 },
    });
    // `inUse` ends first by age; `idle` fills the cap and is never used.
    const inUse = await api.login(member.email);
    api.advance(1000);
    await api.login(member.email);
    for (let i = 0; i < 4; i++) {
      api.advance(9 * MINUTE);
      assert(await api.live(inUse), `use ${i}`);
      await api.gatehouse.settled();
    }
    const third = await api.login(member.email);
    assert(await api.live(inUse), "the session in use survives the sign-in");
    assert(await api.live(third));
    assertEquals((await sessionsOf(api, third)).length, 2);
  },
);

testEachStore(
  "last_seen_at is written at most once per touch interval",
  async (store) => {
    const { member } = await people(store);
    let touches = 0;
    const touchSession = store.touchSession.bind(store);
    store.touchSession = (hash, at) => {
      touches++;
      return touchSession(hash, at);
    };
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    await Promise.all(Array.from({ length: 50 }, () => api.live(cookie)));
    await api.gatehouse.settled();
    assertEquals(touches, 0, "within the first minute");
    api.advance(61_000);
    await Promise.all(Array.from({ length: 50 }, () => api.live(cookie)));
    await api.gatehouse.settled();
    assertEquals(touches, 1);
    await Promise.all(Array.from({ length: 50 }, () => api.live(cookie)));
    await api.gatehouse.settled();
    assertEquals(touches, 1, "recorded: no second write within a minute");
    const [session] =
      (await (await api.call("GET", "/api/auth/sessions", undefined, {
        cookie,
      })).json()).sessions;
    assertEquals(Date.parse(session.last_seen_at), api.clock());
  },
);

testEachStore(
  "sensitive writes need a proof younger than the re-authentication window",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(root.email);
    const disable = (disabled: boolean) =>
      api.call("PATCH", `/api/users/${member.id}`, { disabled }, { cookie });
    assertEquals((await disable(true)).status, 200, "fresh after sign-in");
    api.advance(30 * MINUTE);
    assertEquals(await refusal(await disable(false)), [
      403,
      "reauthentication_required",
    ]);
    assertEquals((await store.userById(member.id))?.disabled, true);
    for (
      const [method, path, body] of [
        ["POST", "/api/users", {
          email: "n@example.com",
          name: "N",
          password: "a long new password",
        }],
        ["POST", "/api/users/invite", { email: "n@example.com", name: "N" }],
        ["DELETE", `/api/users/invitations/${crypto.randomUUID()}`, undefined],
        ["PUT", `/api/users/${member.id}/role`, { role: "support" }],
        ["DELETE", `/api/users/${member.id}/sessions`, undefined],
      ] as const
    ) {
      const res = await api.call(method, path, body, { cookie });
      assertEquals(
        await refusal(res),
        [403, "reauthentication_required"],
        path,
      );
    }
    // Reading is not sensitive.
    assertEquals(
      (await api.call("GET", "/api/users", undefined, { cookie })).status,
      200,
    );

    const wrong = await api.call("POST", "/api/auth/reauthenticate", {
      password: "not the password",
    }, { cookie });
    const body = await wrong.json();
    assertEquals([wrong.status, body.code, body.meta], [
      403,
      "password_incorrect",
      {
        field: "password",
      },
    ]);
    assert(await api.live(cookie), "a wrong password is not a sign-out");
    const right = await api.call("POST", "/api/auth/reauthenticate", {
      password: PASSWORD,
    }, { cookie });
    assertEquals(right.status, 204);
    assertEquals((await disable(false)).status, 200);
    api.advance(29 * MINUTE);
    assertEquals((await disable(true)).status, 200, "still within the window");
  },
);

testEachStore(
  "reauthenticate() refuses a code without TOTP, a passkey that is none, and odd bodies",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookie = await api.login(member.email);
    const cases: [unknown, number, string][] = [
      [{ code: "123456" }, 409, "totp_not_enabled"],
      [{ recovery_code: "abcd-efgh" }, 409, "totp_not_enabled"],
      [{ passkey: {} }, 400, "passkey_invalid"],
      [{ passkey: [] }, 400, "body_malformed"],
      [{ code: 123456 }, 400, "body_malformed"],
      [{}, 400, "body_field_required"],
      [{ password: 12 }, 400, "body_malformed"],
      [{ password: "a\u0000b" }, 403, "password_incorrect"],
      [{ password: "\ud800" + PASSWORD }, 403, "password_incorrect"],
      [{ password: "x".repeat(20_000) }, 413, "body_too_large"],
      [{ password: PASSWORD, extra: true }, 204, ""],
    ];
    for (const [body, status, code] of cases) {
      const res = await api.call("POST", "/api/auth/reauthenticate", body, {
        cookie,
      });
      if (status === 204) {
        assertEquals(res.status, 204);
        continue;
      }
      assertEquals(
        await refusal(res),
        [status, code],
        JSON.stringify(body).slice(0, 40),
      );
    }
    const raw = await api.call("POST", "/api/auth/reauthenticate", undefined, {
      cookie,
      raw: "{not json",
    });
    assertEquals(await refusal(raw), [400, "body_malformed"]);
  },
);

testEachStore(
  "two instances on one store: a revocation on one ends the session on the other",
  async (store) => {
    const { member } = await people(store);
    const a = securityApiWithRememberedPasswords(store);
    const b = securityApiWithRememberedPasswords(store);
    const here = await a.login(member.email);
    const there = await b.login(member.email);
    assert(await a.live(there));
    const res = await b.call("DELETE", "/api/auth/sessions", undefined, {
      cookie: there,
    });
    assertEquals(res.status, 204);
    assertEquals(await a.live(here), false);
    assert(await a.live(there));
  },
);

testEachStore(
  "50 sessions ended by 200 simultaneous revocations: each ends once",
  async (store) => {
    const { member } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const cookies: string[] = [];
    for (let i = 0; i < 50; i++) cookies.push(await api.login(member.email));
    const here = cookies.pop()!;
    const others = (await sessionsOf(api, here))
      .filter((s) => !s.current).map((s) => s.id);
    assertEquals(others.length, 49);
    const answers = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          revoke(api, others[i % 49]!, here).then(async (
            res,
          ) => (await res.body?.cancel(), res.status)),
      ),
    );
    assertEquals(answers.filter((s) => s === 204).length, 49);
    assertEquals(answers.filter((s) => s === 404).length, 151);
    for (const cookie of cookies) assertEquals(await api.live(cookie), false);
    const events = (await api.events()).filter((e) =>
      e.type === "session.revoked"
    );
    assertEquals(events.length, 49);
    assertEquals(new Set(events.map((e) => e.detail.session_id)).size, 49);
  },
);
