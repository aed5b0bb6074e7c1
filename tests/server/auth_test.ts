// SPEC.md's state table rows about login, logout and session, over a real
// HTTP server on 127.0.0.1 with a real KV store and the real argon2.

import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
} from "../fixtures/assert.ts";
import {
  addUser,
  memoryLogger,
  memoryStore,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { authApp, cookiePair } from "../fixtures/app.ts";
import { AuthError, createAuth, type Store } from "../../mod.ts";

const TTL = 60 * 60 * 1000;

async function setup(options: { privileged?: string[] } = {}) {
  const { store, close } = await memoryStore();
  let now = Date.now();
  const logger = memoryLogger();
  const auth = createAuth({
    store,
    sessionTtl: TTL,
    privileged: options.privileged ?? ["admin"],
    logger,
    now: () => now,
  });
  const server = serveHandler(authApp(auth, logger));
  const api = (path: string, init: RequestInit = {}) =>
    fetch(server.url + path, init);
  const login = (email: string, password: string) =>
    api("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
  return {
    store,
    auth,
    logger,
    api,
    login,
    advance: (ms: number) => {
      now += ms;
    },
    async close() {
      await server.close();
      await close();
    },
  };
}

Deno.test("login with valid credentials sets the cookie and answers the identity", async () => {
  const t = await setup();
  try {
    const user = await addUser(t.store, {
      email: "Ada@Example.com",
      name: "Ada",
      role: "admin",
    });
    const res = await t.login("  ada@example.COM ", PASSWORD);
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(await res.json(), {
      id: user.id,
      email: "Ada@Example.com",
      name: "Ada",
      role: "admin",
      second_factor: { totp: false, passkeys: 0 },
      second_factor_required: false,
      has_password: true,
      locale: "",
    });
    const [setCookie, device] = res.headers.getSetCookie();
    // The token: the account's id, a dot, 32 random bytes (base64url).
    assertMatch(
      setCookie!,
      new RegExp(
        `^__Host-session=${user.id}\\.[A-Za-z0-9_-]{43}; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax$`,
      ),
    );
    // And the browser is trusted for this address from now on (§15).
    assertMatch(
      device!,
      /^__Host-gatehouse-device=[A-Za-z0-9_.~-]+; Max-Age=31536000; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    const session = await t.api("/api/auth/session", {
      headers: { cookie: cookiePair(setCookie!) },
    });
    assertEquals(session.status, 200);
    assertEquals((await session.json()).id, user.id);
  } finally {
    await t.close();
  }
});

Deno.test("the store keeps only the SHA-256 of the session token", async () => {
  const { kv, store, close } = await memoryStore();
  try {
    const user = await addUser(store, { email: "ada@example.com" });
    const auth = createAuth({ store });
    const token = cookiePair(await auth.startSession(user.id)).split("=")[1]!;
    const stored: string[] = [];
    for await (const entry of kv.list({ prefix: [] })) {
      stored.push(
        JSON.stringify(
          [entry.key, entry.value],
          (_k, v) => typeof v === "bigint" ? String(v) : v,
        ),
      );
    }
    assert(stored.length > 0);
    assertEquals(stored.some((line) => line.includes(token)), false);
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)),
    ).toBase64({ alphabet: "base64url", omitPadding: true });
    assert(stored.some((line) => line.includes(digest)));
  } finally {
    await close();
  }
});

Deno.test("unknown email, wrong password and disabled account answer byte-identical 401s", async () => {
  const t = await setup();
  try {
    await addUser(t.store, { email: "ada@example.com", role: "admin" });
    const bob = await addUser(t.store, { email: "bob@example.com" });
    await t.store.updateUser(bob.id, { disabled: true });
    const answers = [
      await t.login("nobody@example.com", PASSWORD),
      await t.login("ada@example.com", "wrong password here"),
      await t.login("bob@example.com", PASSWORD),
    ];
    const bodies = await Promise.all(answers.map((res) => res.text()));
    for (const res of answers) {
      assertEquals(res.status, 401);
      assertEquals(res.headers.get("set-cookie"), null);
    }
    assertEquals(
      bodies[0],
      '{"error":"Email or password is incorrect","code":"credentials_invalid"}',
    );
    assertEquals(bodies[1], bodies[0]);
    assertEquals(bodies[2], bodies[0]);
  } finally {
    await t.close();
  }
});

Deno.test("logout deletes the session server side and clears the cookie", async () => {
  const t = await setup();
  try {
    await addUser(t.store, { email: "ada@example.com" });
    const cookie = cookiePair(
      (await t.login("ada@example.com", PASSWORD)).headers.get("set-cookie"),
    );
    const out = await t.api("/api/auth/logout", {
      method: "POST",
      headers: { cookie },
    });
    assertEquals(out.status, 204);
    assertEquals(await out.text(), "");
    assertEquals(
      out.headers.get("set-cookie"),
      "__Host-session=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
    // The old cookie no longer works, even if the browser kept it.
    const after = await t.api("/api/auth/session", { headers: { cookie } });
    assertEquals(after.status, 401);
    assertEquals(await after.json(), {
      error: "Not signed in",
      code: "session_absent",
    });
  } finally {
    await t.close();
  }
});

Deno.test("logging out twice, or without a cookie, is a success", async () => {
  const t = await setup();
  try {
    await addUser(t.store, { email: "ada@example.com" });
    const cookie = cookiePair(
      (await t.login("ada@example.com", PASSWORD)).headers.get("set-cookie"),
    );
    for (
      const headers of [{ cookie }, { cookie }, {}, {
        cookie: "__Host-session=garbage",
      }] as Record<string, string>[]
    ) {
      const res = await t.api("/api/auth/logout", { method: "POST", headers });
      assertEquals(res.status, 204);
      assertMatch(
        res.headers.get("set-cookie")!,
        /^__Host-session=; Max-Age=0;/,
      );
      await res.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("session without a usable cookie answers 401 session_absent", async () => {
  const t = await setup();
  try {
    for (
      const cookie of [
        null,
        "other=1",
        "__Host-session=",
        "__Host-session=short",
        `__Host-session=${"A".repeat(43)}`,
      ]
    ) {
      const res = await t.api(
        "/api/auth/session",
        cookie === null ? {} : { headers: { cookie } },
      );
      assertEquals(res.status, 401, String(cookie));
      assertEquals((await res.json()).code, "session_absent");
    }
  } finally {
    await t.close();
  }
});

Deno.test("requireSession() refuses a session past its TTL", async () => {
  const t = await setup();
  try {
    await addUser(t.store, { email: "ada@example.com" });
    const cookie = cookiePair(
      (await t.login("ada@example.com", PASSWORD)).headers.get("set-cookie"),
    );
    t.advance(TTL - 1);
    const before = await t.api("/api/auth/session", { headers: { cookie } });
    assertEquals(before.status, 200);
    await before.body?.cancel();
    t.advance(1);
    const after = await t.api("/api/auth/session", { headers: { cookie } });
    assertEquals(after.status, 401);
    assertEquals((await after.json()).code, "session_absent");
  } finally {
    await t.close();
  }
});

Deno.test("a disabled account's session is refused and it cannot log in", async () => {
  const t = await setup();
  try {
    const user = await addUser(t.store, { email: "ada@example.com" });
    const cookie = cookiePair(
      (await t.login("ada@example.com", PASSWORD)).headers.get("set-cookie"),
    );
    await t.store.updateUser(user.id, { disabled: true });
    const res = await t.api("/api/auth/session", { headers: { cookie } });
    assertEquals(res.status, 401);
    await res.body?.cancel();
    const again = await t.login("ada@example.com", PASSWORD);
    assertEquals(again.status, 401);
    await again.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("login answers the contract's codes for bad bodies", async () => {
  const t = await setup();
  try {
    const post = (body: string, headers: HeadersInit = {}) =>
      t.api("/api/auth/login", { method: "POST", body, headers });
    const cases: Array<[string, number, string, string | undefined]> = [
      ["not json", 400, "body_malformed", undefined],
      [
        '{"email":"a@b.c","password":"x"} trailing',
        400,
        "body_malformed",
        undefined,
      ],
      ["[]", 400, "body_malformed", undefined],
      ['{"password":"x"}', 400, "body_field_required", "email"],
      ['{"email":"a@b.c"}', 400, "body_field_required", "password"],
      ['{"email":1,"password":"x"}', 400, "body_malformed", "email"],
      [
        JSON.stringify({ email: "a@b.c", password: "x".repeat(17 * 1024) }),
        413,
        "body_too_large",
        undefined,
      ],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await post(body);
      const json = await res.json();
      assertEquals([res.status, json.code, json.meta?.field], [
        status,
        code,
        field,
      ], body.slice(0, 40));
      assertEquals(typeof json.error, "string");
    }
  } finally {
    await t.close();
  }
});

Deno.test("a failing store answers 500 internal, logs the cause and leaks nothing", async () => {
  const { store, kv } = await memoryStore();
  const logger = memoryLogger();
  const auth = createAuth({ store, logger });
  const server = serveHandler(authApp(auth, logger));
  try {
    kv.close(); // The database goes away under the running server.
    const res = await fetch(server.url + "/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
    });
    const text = await res.text();
    assertEquals(res.status, 500);
    assertEquals(JSON.parse(text), {
      error: "Internal server error",
      code: "internal",
    });
    const session = await fetch(server.url + "/api/auth/session", {
      headers: { cookie: `__Host-session=${"A".repeat(43)}` },
    });
    assertEquals([session.status, (await session.json()).code], [
      500,
      "internal",
    ]);
    assertEquals(
      logger.lines.filter((line) => line.level === "error").length,
      2,
    );
    assert(
      logger.lines.every((line) => !text.includes(String(line.fields?.error))),
    );
  } finally {
    await server.close();
  }
});

Deno.test("direct methods: startSession and endSession return cookies without setting them", async () => {
  const { store, close } = await memoryStore();
  try {
    const user = await addUser(store, {
      email: "ada@example.com",
      name: "Ada",
    });
    const auth = createAuth({ store, cookieName: "sid", sessionTtl: 90_500 });
    assertEquals(auth.cookieName(), "sid");
    const identity = await auth.authenticate("ADA@example.com", PASSWORD);
    assertEquals(identity, {
      id: user.id,
      email: "ada@example.com",
      name: "Ada",
      role: "",
      locale: "",
    });
    const cookie = await auth.startSession(user.id);
    assertMatch(
      cookie,
      new RegExp(
        `^sid=${user.id}\\.[A-Za-z0-9_-]{43}; Max-Age=90; Path=/; HttpOnly; Secure; SameSite=Lax$`,
      ),
    );
    const token = cookie.split(";")[0]!.slice("sid=".length);
    assertEquals((await auth.sessionIdentity(token))?.id, user.id);
    assertEquals(
      await auth.endSession(token),
      "sid=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Lax",
    );
    assertEquals(await auth.sessionIdentity(token), null);
    assertEquals(await auth.sessionIdentity("not a token"), null);
    await assertRejects(
      () => auth.authenticate("ada@example.com", "nope nope nope"),
      AuthError,
    );
    const err = await assertRejects(
      () => auth.startSession(crypto.randomUUID()),
      AuthError,
    );
    assertEquals((err as AuthError).code, "credentials_invalid");
  } finally {
    await close();
  }
});

Deno.test("createAuth() refuses a broken configuration at construction", () => {
  const store = {} as Store;
  const bad: Array<() => unknown> = [
    () => createAuth({} as { store: Store }),
    () => createAuth({ store, cookieName: "bad name" }),
    () => createAuth({ store, sessionTtl: 10 }),
    () => createAuth({ store, privileged: [""] }),
    () => createAuth({ store, limits: { maxBodyBytes: -1 } }),
  ];
  for (const build of bad) {
    let threw = false;
    try {
      build();
    } catch {
      threw = true;
    }
    assert(threw);
  }
});
