// The demo's handler in process (no browser): its pages and island
// markers, the API table under /api, the security headers on every answer,
// the hashed assets, and the login limiter on sign-ins and reset requests.

import assert from "node:assert/strict";
import { createDemoApp, type DemoOptions } from "../../demo/app.ts";
import { CSP, HSTS } from "../../demo/headers.ts";
import type { Handler, Store } from "../../mod.ts";
import { islands } from "../fixtures/demo.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
} from "../fixtures/kv.ts";

const ORIGIN = "http://localhost:8000";
const UUID = "0190f0a0-0000-7000-8000-000000000001";
const INFO = {
  remoteAddr: { transport: "tcp" as const, hostname: "127.0.0.1", port: 4711 },
  completed: Promise.resolve(),
} as Deno.ServeHandlerInfo;

async function withDemo(
  fn: (app: Handler, store: Store) => Promise<void>,
  options: Partial<DemoOptions> = {},
): Promise<void> {
  const { store, close } = await memoryStore();
  try {
    const { handler: app } = await createDemoApp({
      store,
      islands: await islands(),
      publicUrl: ORIGIN,
      logger: memoryLogger(),
      hasher,
      ...options,
    });
    await fn(app, store);
  } finally {
    await close();
  }
}

function call(
  app: Handler,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { "content-type": "application/json", ...headers };
  }
  return Promise.resolve(
    app(new Request(`${ORIGIN}${path}`, init), undefined, INFO),
  );
}

const PAGES: ReadonlyArray<readonly [string, string]> = [
  ["/", "AppGate"],
  ["/invite", "SetPassword"],
  ["/reset", "ResetPassword"],
  ["/forgot", "RequestReset"],
  ["/users", "Users"],
  ["/users/new", "NewUser"],
  ["/users/invite", "Invite"],
];

Deno.test("createDemoApp() renders each page around its island, with the bundle and stylesheets linked", async () => {
  await withDemo(async (app) => {
    const bundle = await islands();
    for (const [path, island] of PAGES) {
      const res = await call(app, "GET", path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get("content-type")!, /^text\/html/);
      const html = await res.text();
      assert.ok(html.startsWith("<!DOCTYPE html>"), path);
      assert.ok(html.includes(`data-island="${island}"`), `${path}: ${island}`);
      assert.ok(html.includes(`<script type="module" src="${bundle.path}">`));
      assert.match(
        html,
        /<link rel="stylesheet" href="\/styles\/screens-[0-9a-f]{12}\.css"\/>/,
      );
    }
    const missing = await call(app, "GET", "/nowhere");
    assert.equal(missing.status, 404);
    assert.match(
      await missing.text(),
      /<h1 class="gh-title">Page not found<\/h1>/,
    );
  });
});

Deno.test("createDemoApp() serves the island bundle and the screens' stylesheet under their content hash, cached for good", async () => {
  await withDemo(async (app) => {
    const bundle = await islands();
    const js = await call(app, "GET", bundle.path);
    assert.equal(js.status, 200);
    assert.match(js.headers.get("content-type")!, /^text\/javascript/);
    assert.match(js.headers.get("cache-control")!, /immutable/);
    assert.equal(await js.text(), bundle.text);

    const html = await (await call(app, "GET", "/")).text();
    const cssPath = html.match(
      /href="(\/styles\/screens-[0-9a-f]{12}\.css)"/,
    )![1]!;
    const css = await call(app, "GET", cssPath);
    assert.equal(css.status, 200);
    assert.match(css.headers.get("content-type")!, /^text\/css/);
    assert.match(await css.text(), /\.gh/);

    const demoCss = await call(app, "GET", "/demo.css");
    assert.equal(demoCss.status, 200);
    assert.match(demoCss.headers.get("content-type")!, /^text\/css/);
    await demoCss.body?.cancel();
  });
});

Deno.test("createDemoApp() sends Strict-Transport-Security on every answer and a strict CSP on pages", async () => {
  await withDemo(async (app) => {
    const answers: Array<[string, Response]> = [
      ["page", await call(app, "GET", "/")],
      ["404 page", await call(app, "GET", "/nowhere")],
      ["asset", await call(app, "GET", "/demo.css")],
      ["API refusal", await call(app, "GET", "/api/auth/session")],
      ["API success", await call(app, "POST", "/api/auth/logout")],
      ["unknown API path", await call(app, "GET", "/api/nowhere")],
      [
        "cross-origin refusal",
        await call(app, "POST", "/api/auth/logout", undefined, {
          "sec-fetch-site": "cross-site",
        }),
      ],
    ];
    for (const [what, res] of answers) {
      assert.equal(res.headers.get("strict-transport-security"), HSTS, what);
      assert.equal(res.headers.get("x-content-type-options"), "nosniff", what);
      assert.equal(res.headers.get("referrer-policy"), "no-referrer", what);
      const html = (res.headers.get("content-type") ?? "").startsWith(
        "text/html",
      );
      assert.equal(
        res.headers.get("content-security-policy"),
        html ? CSP : null,
        what,
      );
      await res.body?.cancel();
    }
    assert.match(CSP, /script-src 'self'(;|$)/);
    assert.match(CSP, /frame-ancestors 'none'/);
  });
});

Deno.test("createDemoApp() mounts the auth API under /api, administration behind the session guard", async () => {
  await withDemo(async (app) => {
    const table: Array<[string, string, unknown, number, string | null]> = [
      ["GET", "/api/auth/session", undefined, 401, "session_absent"],
      [
        "POST",
        "/api/auth/login",
        { email: "a@example.com", password: "x".repeat(12) },
        401,
        "credentials_invalid",
      ],
      ["POST", "/api/auth/logout", undefined, 204, null],
      ["GET", "/api/users", undefined, 401, "session_absent"],
      [
        "POST",
        "/api/users",
        { email: "a@example.com", name: "A", password: "x".repeat(12) },
        401,
        "session_absent",
      ],
      [
        "POST",
        "/api/users/invite",
        { email: "a@example.com", name: "A" },
        401,
        "session_absent",
      ],
      [
        "PATCH",
        `/api/users/${UUID}`,
        { disabled: true },
        401,
        "session_absent",
      ],
      [
        "PUT",
        `/api/users/${UUID}/role`,
        { role: "member" },
        401,
        "session_absent",
      ],
      [
        "POST",
        "/api/auth/invite/accept",
        { token: "x".repeat(43), password: "y".repeat(12) },
        410,
        "token_invalid",
      ],
      [
        "POST",
        "/api/auth/password-reset",
        { email: "a@example.com" },
        202,
        null,
      ],
      [
        "POST",
        "/api/auth/password-reset/confirm",
        { token: "x".repeat(43), password: "y".repeat(12) },
        410,
        "token_invalid",
      ],
      ["GET", "/api/nowhere", undefined, 404, "not_found"],
    ];
    for (const [method, path, body, status, code] of table) {
      const res = await call(app, method, path, body);
      assert.equal(res.status, status, `${method} ${path}`);
      const text = await res.text();
      if (code !== null) {
        assert.equal(JSON.parse(text).code, code, `${method} ${path}`);
      }
    }
  });
});

Deno.test("createDemoApp() limits failed sign-ins and reset requests per client, each with its own count", async () => {
  await withDemo(async (app) => {
    const login = () =>
      call(app, "POST", "/api/auth/login", {
        email: "nobody@example.com",
        password: "not the password",
      });
    const reset = () =>
      call(app, "POST", "/api/auth/password-reset", {
        email: "nobody@example.com",
      });
    for (let i = 0; i < 10; i++) {
      const res = await login();
      assert.equal(res.status, 401, `sign-in ${i + 1}`);
      await res.body?.cancel();
    }
    const limited = await login();
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).code, "login_rate_limited");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);

    // Reset requests count apart from sign-ins, and are limited too.
    for (let i = 0; i < 10; i++) {
      const res = await reset();
      assert.equal(res.status, 202, `reset request ${i + 1}`);
      await res.body?.cancel();
    }
    const refused = await reset();
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).code, "login_rate_limited");
  });
});

Deno.test("createDemoApp() limits attempts with dead links per client, on both link routes together", async () => {
  await withDemo(async (app) => {
    const dead = { token: "A".repeat(43), password: "a long enough password" };
    for (let i = 0; i < 10; i++) {
      const path = i % 2 === 0
        ? "/api/auth/invite/accept"
        : "/api/auth/password-reset/confirm";
      const res = await call(app, "POST", path, dead);
      assert.equal(res.status, 410, `attempt ${i + 1}`);
      await res.body?.cancel();
    }
    const limited = await call(app, "POST", "/api/auth/invite/accept", dead);
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).code, "login_rate_limited");
    // Sign-ins keep their own count.
    const login = await call(app, "POST", "/api/auth/login", {
      email: "nobody@example.com",
      password: "not the password",
    });
    assert.equal(login.status, 401);
    await login.body?.cancel();
  });
});

Deno.test("createDemoApp() seals TOTP secrets with the keys it is given (GATEHOUSE_TOTP_KEYS)", async () => {
  const key = crypto.getRandomValues(new Uint8Array(32)).toBase64();
  await withDemo(async (app, store) => {
    const user = await addUser(store, { email: "ada@example.com" });
    const login = await call(app, "POST", "/api/auth/login", {
      email: user.email,
      password: PASSWORD,
    });
    assert.equal(login.status, 200);
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const setup = await call(app, "POST", "/api/auth/totp/setup", undefined, {
      cookie,
    });
    assert.equal(setup.status, 200);
    const { secret } = await setup.json();
    const stored = await store.totpEnrolment(user.id, Date.now());
    assert.match(stored!.secret, /^sealed1\./);
    assert.ok(!stored!.secret.includes(secret));
  }, { totpKeys: [key] });
  await assert.rejects(
    () => withDemo(() => Promise.resolve(), { totpKeys: ["not a key"] }),
    TypeError,
  );
});
