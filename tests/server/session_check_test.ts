// The session check as the hot path makes it (issue 19): the stores read
// concurrent checks together and the token names its account, and neither
// may weaken a guarantee. These tests would fail if a cache or a shortcut
// let a dead session through:
//
// - two instances on one store: while one instance serves a stream of
//   concurrent checks, every check that starts after the other instance
//   ended the session (logout, one's own revocation by id, "end all other
//   sessions", an administrator's revocation, a disable, a password change)
//   or after the session went idle is refused;
// - hundreds of concurrent checks of many accounts over real HTTP each
//   answer their own account;
// - tokens of the older form (no account id) still work; a token whose
//   account id was swapped, and hostile cookie values, answer 401
//   `session_absent`, never a 5xx.

import assert from "node:assert/strict";
import type { Gatehouse, GatehouseOptions, Handler, Store } from "../../mod.ts";
import { hashToken, randomToken } from "../../server/core/_crypto.ts";
import { ROLES } from "../fixtures/admin.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { from } from "../fixtures/api.ts";
import { type Pair, pairTest } from "../fixtures/instances.ts";
import { addUser, hasher, PASSWORD, serve } from "../fixtures/kv.ts";
import { rememberingHasher } from "../fixtures/remembering_hasher.ts";
import { testEachStore } from "../fixtures/stores.ts";

const MINUTE = 60_000;
const IDLE = 30 * MINUTE;

interface Instance {
  gatehouse: Gatehouse;
  app: Handler;
  call(
    method: string,
    path: string,
    cookie?: string,
    body?: unknown,
  ): Promise<Response>;
}

function instance(store: Store, now: () => number): Instance {
  const options: GatehouseOptions = {
    store,
    // Signing in is only the way to the sessions checked here: argon2
    // judges each (hash, password) pair once and the repeats are remembered.
    hasher: rememberingHasher(hasher),
    now,
    roles: ROLES,
    idleTimeout: IDLE,
    rateLimit: { maxFailures: 1000 },
  };
  const { gatehouse, app } = gatehouseApp(options);
  return {
    gatehouse,
    app,
    call(method, path, cookie, body) {
      const headers: Record<string, string> = {
        "content-type": "application/json",
      };
      if (cookie !== undefined) headers.cookie = cookie;
      return Promise.resolve(app(
        new Request(`http://localhost${path}`, {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
        }),
        undefined,
        from("203.0.113.5"),
      ));
    },
  };
}

async function signIn(on: Instance, email: string): Promise<string> {
  const res = await on.call("POST", "/api/auth/login", undefined, {
    email,
    password: PASSWORD,
  });
  assert.equal(res.status, 200, `sign-in of ${email}`);
  await res.body?.cancel();
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

async function statusOf(res: Promise<Response>): Promise<number> {
  const answer = await res;
  await answer.body?.cancel();
  return answer.status;
}

/**
 * Runs 40 loops of session checks of `cookie` on `on` while `act` runs on
 * the other instance; returns each check with the time it started and the
 * time `act` finished. Waits by counting checks, not by timers, and yields
 * between checks, so it ends and `act` proceeds even if every check
 * answered at once (as a cache would).
 */
async function underLoad(
  on: Instance,
  cookie: string,
  act: () => Promise<void>,
): Promise<{ checks: Array<{ at: number; status: number }>; done: number }> {
  const checks: Array<{ at: number; status: number }> = [];
  // Wait for 200 checks before acting, then for 400 that start after.
  let phase: "before" | "acting" | "after" = "before";
  let done = Infinity;
  let counted = 0;
  let reached = Promise.withResolvers<void>();
  let stop = false;
  const loop = async () => {
    while (!stop && checks.length < 50_000) {
      const at = performance.now();
      const status = await statusOf(
        on.call("GET", "/api/auth/session", cookie),
      );
      checks.push({ at, status });
      if (phase === "before" || (phase === "after" && at > done)) counted++;
      if (phase !== "acting" && counted >= (phase === "before" ? 200 : 400)) {
        reached.resolve();
      }
      // Let timers and I/O of the other instance run between checks.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    reached.resolve();
  };
  const workers = Array.from({ length: 40 }, loop);
  await reached.promise;
  phase = "acting";
  reached = Promise.withResolvers<void>();
  await act();
  done = performance.now();
  counted = 0;
  phase = "after";
  await reached.promise;
  stop = true;
  await Promise.all(workers);
  return { checks, done };
}

function assertRefusedAfter(
  result: { checks: Array<{ at: number; status: number }>; done: number },
  what: string,
) {
  const before = result.checks.filter((c) => c.at < result.done);
  const after = result.checks.filter((c) => c.at > result.done);
  assert.ok(before.some((c) => c.status === 200), `${what}: live before`);
  assert.ok(after.length >= 400, `${what}: checks after`);
  const let_through = after.filter((c) => c.status !== 401);
  assert.deepEqual(
    let_through,
    [],
    `${what}: every check started after it is refused`,
  );
}

// The ways a session ends, each acted out on instance A while instance B
// serves the session `victim` (a second session of `ada`; `own` is her
// first, `root` an administrator's).
const ENDINGS: Array<{
  name: string;
  act(
    a: Instance,
    cookies: { own: string; victim: string; root: string },
    ids: { ada: string; victimSession: string },
  ): Promise<void>;
}> = [
  {
    name: "a logout",
    async act(a, { victim }) {
      assert.equal(
        await statusOf(a.call("POST", "/api/auth/logout", victim)),
        204,
      );
    },
  },
  {
    name: "its holder ending it by id",
    async act(a, { own }, { victimSession }) {
      assert.equal(
        await statusOf(
          a.call("DELETE", `/api/auth/sessions/${victimSession}`, own),
        ),
        204,
      );
    },
  },
  {
    name: "its holder ending every other session",
    async act(a, { own }) {
      assert.equal(
        await statusOf(a.call("DELETE", "/api/auth/sessions", own)),
        204,
      );
    },
  },
  {
    name: "an administrator ending the account's sessions",
    async act(a, { root }, { ada }) {
      assert.equal(
        await statusOf(a.call("DELETE", `/api/users/${ada}/sessions`, root)),
        204,
      );
    },
  },
  {
    name: "a disable",
    async act(a, { root }, { ada }) {
      assert.equal(
        await statusOf(a.call("PATCH", `/api/users/${ada}`, root, {
          disabled: true,
        })),
        200,
      );
    },
  },
  {
    name: "a password change",
    async act(a, { own }) {
      assert.equal(
        await statusOf(a.call("POST", "/api/auth/password", own, {
          current_password: PASSWORD,
          new_password: "a different long password",
        })),
        204,
      );
    },
  },
];

for (const ending of ENDINGS) {
  pairTest(
    `refuse, under load on one, every check that starts after ${ending.name} on the other`,
    async (pair: Pair) => {
      const clock = () => Date.now();
      const [a, b] = [instance(pair.a, clock), instance(pair.b, clock)];
      await addUser(pair.a, {
        email: "root@example.com",
        role: "admin",
      });
      const ada = await addUser(pair.a, {
        email: "ada@example.com",
        role: "member",
      });
      const root = await signIn(a, "root@example.com");
      const own = await signIn(a, "ada@example.com");
      const victim = await signIn(b, "ada@example.com");
      const sessions = await (await a.call("GET", "/api/auth/sessions", own))
        .json();
      const victimSession = sessions.sessions.find((s: { current: boolean }) =>
        !s.current
      ).id;
      const result = await underLoad(
        b,
        victim,
        () =>
          ending.act(a, { own, victim, root }, { ada: ada.id, victimSession }),
      );
      assertRefusedAfter(result, ending.name);
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
    },
  );
}

pairTest(
  "refuse, under load on one, every check that starts after the session went idle",
  async (pair: Pair) => {
    let offset = 0;
    const clock = () => Date.now() + offset;
    const [a, b] = [instance(pair.a, clock), instance(pair.b, clock)];
    await addUser(pair.a, { email: "ada@example.com" });
    const cookie = await signIn(a, "ada@example.com");
    const result = await underLoad(b, cookie, () => {
      offset = IDLE;
      return Promise.resolve();
    });
    assertRefusedAfter(result, "idle expiry");
    await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
  },
);

testEachStore(
  "hundreds of concurrent session checks of many accounts over HTTP each answer their own account",
  async (store) => {
    const on = instance(store, () => Date.now());
    const server = serve((req, info) => on.app(req, undefined, info));
    try {
      const accounts = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) => addUser(store, { email: `user${i}@example.com` }),
        ),
      );
      const live: Array<{ cookie: string; id: string }> = [];
      for (const account of accounts) {
        for (let i = 0; i < 3; i++) {
          live.push({
            cookie: await signIn(on, account.email),
            id: account.id,
          });
        }
      }
      // Some sessions end before the burst: they must be refused within it.
      const ended = live.splice(0, 6);
      for (const { cookie } of ended) {
        assert.equal(
          await statusOf(on.call("POST", "/api/auth/logout", cookie)),
          204,
        );
      }
      const asked = Array.from(
        { length: 600 },
        (_, i) =>
          i % 10 === 0 ? { ...ended[i % ended.length]!, expected: null } : {
            ...live[i % live.length]!,
            expected: live[i % live.length]!.id,
          },
      );
      const answers = await Promise.all(asked.map(async ({ cookie }) => {
        const res = await fetch(`${server.url}/api/auth/session`, {
          headers: { cookie },
        });
        const body = await res.json();
        return res.status === 200 ? body.id : [res.status, body.code];
      }));
      assert.deepEqual(
        answers,
        asked.map((a) => a.expected ?? [401, "session_absent"]),
      );
      await on.gatehouse.settled();
    } finally {
      await server.close();
    }
  },
);

testEachStore(
  "a session token of the older form (no account id) still signs in and out",
  async (store) => {
    const on = instance(store, () => Date.now());
    const ada = await addUser(store, { email: "ada@example.com" });
    const token = randomToken();
    const now = Date.now();
    assert.equal(
      await store.createSession({
        tokenHash: hashToken(token),
        userId: ada.id,
        createdAt: now,
        expiresAt: now + MINUTE,
      }),
      true,
    );
    const cookie = `__Host-session=${token}`;
    const res = await on.call("GET", "/api/auth/session", cookie);
    assert.equal(res.status, 200);
    assert.equal((await res.json()).id, ada.id);
    assert.equal(
      await statusOf(on.call("POST", "/api/auth/logout", cookie)),
      204,
    );
    assert.equal(
      await statusOf(on.call("GET", "/api/auth/session", cookie)),
      401,
    );
  },
);

testEachStore(
  "a session token whose account id was swapped, or a hostile cookie, answers 401 session_absent",
  async (store) => {
    const on = instance(store, () => Date.now());
    const ada = await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    const cookie = await signIn(on, "ada@example.com");
    const token = cookie.slice("__Host-session=".length);
    const secret = token.slice(token.indexOf(".") + 1);
    // A session recorded under a token naming one account but belonging to
    // another (what a faulty or forged store record would be): refused.
    const forged = `${bob.id}.${randomToken()}`;
    const now = Date.now();
    await store.createSession({
      tokenHash: hashToken(forged),
      userId: ada.id,
      createdAt: now,
      expiresAt: now + MINUTE,
    });
    const hostile = [
      `${bob.id}.${secret}`,
      forged,
      `${ada.id.toUpperCase()}.${secret}`,
      `${ada.id}.${secret}x`,
      `${ada.id}..${secret}`,
      `.${secret}`,
      `${ada.id}.`,
      secret.slice(1),
      "\u0001".repeat(43),
      `${ada.id}.${secret}\u0007`,
      "x".repeat(8000),
      ".".repeat(500),
      `${ada.id}.${"\u00ff".repeat(43)}`,
    ];
    for (const value of hostile) {
      const res = await on.call(
        "GET",
        "/api/auth/session",
        `__Host-session=${value}`,
      );
      assert.equal(res.status, 401, JSON.stringify(value.slice(0, 60)));
      assert.equal((await res.json()).code, "session_absent");
    }
    // The real one still works.
    assert.equal(
      await statusOf(on.call("GET", "/api/auth/session", cookie)),
      200,
    );
  },
);
