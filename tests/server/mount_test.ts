// The routes of createGatehouse mount as they are on a plain URLPattern
// table over Deno.serve (handing the match over, or, as the README does,
// finding the route with pattern.test() and handing none) and on Hono
// (npm:hono), with the same behaviour: one suite of HTTP cases runs against
// every mount, over real HTTP on 127.0.0.1, every answer checked against the
// contract.

import { Hono } from "hono";
import { assertEquals } from "../fixtures/assert.ts";
import { checkedAgainstContract } from "../fixtures/contract.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
  serve,
} from "../fixtures/kv.ts";
import { cookiePair } from "../fixtures/app.ts";
import {
  createGatehouse,
  type Handler,
  type Route,
  USERS_MANAGE,
} from "../../mod.ts";

/** How an application mounts `routes`: returns a Deno.serve handler. */
type Mount = (routes: readonly Route[]) => Deno.ServeHandler;

// A plain table as @std/http's route() runs one: the first route whose
// method and pattern match, its match handed to the handler.
const urlPatternTable: Mount = (routes) => (req, info) => {
  for (const route of routes) {
    const match = route.method === req.method && route.pattern.exec(req.url);
    if (match) return route.handler(req, match, info);
  }
  return new Response("Not found", { status: 404 });
};

// The README's table: found with `pattern.test()`, no match handed over (a
// handler whose path has values reads them from the request itself).
const testedTable: Mount = (routes) => (req, info) => {
  const route = routes.find((r) =>
    r.method === req.method && r.pattern.test(req.url)
  );
  return route?.handler(req, undefined, info) ??
    new Response("Not found", { status: 404 });
};

// The README's Hono mount: Hono routes by `path` (the same `:id` syntax);
// under Deno.serve, Hono's `c.env` is the connection info.
const hono: Mount = (routes) => {
  const app = new Hono();
  for (const route of routes) {
    app.on(
      route.method,
      route.path,
      (c) =>
        route.handler(
          c.req.raw,
          route.pattern.exec(c.req.url) ?? undefined,
          c.env as Deno.ServeHandlerInfo,
        ),
    );
  }
  return (req, info) => app.fetch(req, info);
};

const ROLES = {
  admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
  member: {},
};

async function started(mount: Mount) {
  const { store, close } = await memoryStore();
  const gatehouse = createGatehouse({
    store,
    roles: ROLES,
    hasher,
    logger: memoryLogger(),
    rateLimit: { maxFailures: 2 },
  });
  const checked = (handler: Deno.ServeHandler): Handler =>
    checkedAgainstContract((req, _params, info) => handler(req, info!));
  const server = serve((req, info) =>
    checked(mount(gatehouse.routes))(req, undefined, info)
  );
  const admin = await addUser(store, {
    email: "admin@example.com",
    role: "admin",
  });
  const member = await addUser(store, {
    email: "member@example.com",
    role: "member",
  });
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, init);
  const signIn = async (email: string) => {
    const res = await call("/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    await res.body?.cancel();
    return cookiePair(res.headers.get("set-cookie"));
  };
  return {
    admin,
    member,
    call,
    signIn,
    async close() {
      await server.close();
      await close();
    },
  };
}

const CASES: Array<
  [string, (t: Awaited<ReturnType<typeof started>>) => Promise<void>]
> = [
  ["signs in, reads the session, lists users", async (t) => {
    const cookie = await t.signIn("admin@example.com");
    const session = await t.call("/api/auth/session", { headers: { cookie } });
    assertEquals(session.status, 200);
    assertEquals((await session.json()).capabilities, [USERS_MANAGE]);
    const users = await t.call("/api/users?limit=1", { headers: { cookie } });
    assertEquals(users.status, 200);
    const page = await users.json();
    assertEquals(page.users.length, 1);
    assertEquals(typeof page.next_cursor, "string");
  }],
  ["answers 401 without a session and 403 to a member", async (t) => {
    const anonymous = await t.call("/api/users");
    assertEquals(anonymous.status, 401);
    assertEquals((await anonymous.json()).code, "session_absent");
    const cookie = await t.signIn("member@example.com");
    const member = await t.call("/api/users", { headers: { cookie } });
    assertEquals(member.status, 403);
    assertEquals((await member.json()).code, "role_insufficient");
  }],
  ["reads path values: changes a role", async (t) => {
    const cookie = await t.signIn("admin@example.com");
    const res = await t.call(`/api/users/${t.member.id}/role`, {
      method: "PUT",
      headers: { cookie },
      body: JSON.stringify({ role: "admin" }),
    });
    assertEquals(res.status, 200);
    assertEquals((await res.json()).role, "admin");
  }],
  ["refuses a cross-origin write", async (t) => {
    const res = await t.call("/api/auth/logout", {
      method: "POST",
      headers: { "sec-fetch-site": "cross-site" },
    });
    assertEquals(res.status, 403);
    assertEquals((await res.json()).code, "request_cross_origin");
  }],
  ["limits failed sign-ins by the client address", async (t) => {
    const wrong = () =>
      t.call("/api/auth/login", {
        method: "POST",
        body: JSON.stringify({ email: "admin@example.com", password: "no" }),
      });
    for (const expected of [401, 401, 429]) {
      const res = await wrong();
      assertEquals(res.status, expected);
      await res.body?.cancel();
    }
  }],
  ["serves the OpenAPI description", async (t) => {
    const res = await t.call("/api/openapi.json");
    assertEquals(res.status, 200);
    assertEquals((await res.json()).openapi, "3.1.0");
  }],
];

for (
  const [mountName, mount] of [
    ["URLPattern table", urlPatternTable],
    ["pattern.test() table", testedTable],
    ["Hono", hono],
  ] as const
) {
  for (const [name, run] of CASES) {
    Deno.test(`routes on a ${mountName} ${name}`, async () => {
      const t = await started(mount);
      try {
        await run(t);
      } finally {
        await t.close();
      }
    });
  }
}
