// createGatehouse: one configuration read by every part, and one authority
// on who may administer users, which the identity the client sees agrees
// with.

import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
} from "../fixtures/kv.ts";
import {
  createGatehouse,
  type Handler,
  type RoleRegistry,
  type Store,
  USERS_MANAGE,
} from "../../mod.ts";
import type { MailMessage } from "../../server/mail.ts";

const ROLES = {
  admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
  auditor: { capabilities: ["audit.read"] },
  member: {},
};

async function signIn(app: Handler, email: string, password = PASSWORD) {
  const res = await app(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email, password }),
    }),
  );
  const identity = await res.json();
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { status: res.status, identity, cookie };
}

const listUsers = (app: Handler, cookie: string) =>
  Promise.resolve(
    app(new Request("http://localhost/api/users", { headers: { cookie } })),
  );

async function withStore(fn: (store: Store) => Promise<void>) {
  const { store, close } = await memoryStore();
  try {
    await fn(store);
  } finally {
    await close();
  }
}

Deno.test("createGatehouse() admits to administration exactly the roles whose identities carry users.manage", () =>
  withStore(async (store) => {
    const { app, gatehouse } = gatehouseApp({ store, roles: ROLES, hasher });
    assertEquals(gatehouse.privileged, ["admin"]);
    for (const role of ["admin", "auditor", "member", ""]) {
      await addUser(store, { email: `${role || "none"}@example.com`, role });
      const { identity, cookie } = await signIn(
        app,
        `${role || "none"}@example.com`,
      );
      const mayManage = identity.capabilities.includes(USERS_MANAGE);
      const res = await listUsers(app, cookie);
      await res.body?.cancel();
      assertEquals(res.status === 200, mayManage, `role "${role}"`);
      assertEquals(mayManage, role === "admin", `role "${role}"`);
    }
  }));

Deno.test("createGatehouse() without roles gives users.manage to the privileged roles' identities", () =>
  withStore(async (store) => {
    const { app } = gatehouseApp({ store, privileged: ["owner"], hasher });
    await addUser(store, { email: "owner@example.com", role: "owner" });
    await addUser(store, { email: "guest@example.com", role: "guest" });
    const owner = await signIn(app, "owner@example.com");
    const guest = await signIn(app, "guest@example.com");
    assertEquals(owner.identity.capabilities, [USERS_MANAGE]);
    assertEquals(guest.identity.capabilities, []);
    assertEquals((await listUsers(app, owner.cookie)).status, 200);
    assertEquals((await listUsers(app, guest.cookie)).status, 403);
  }));

Deno.test("createGatehouse() refuses two authorities, none, or one it cannot read at once", () =>
  withStore((store) => {
    const lookedUp: RoleRegistry = {
      capabilitiesOf: () => Promise.resolve([USERS_MANAGE]),
      roles: () => Promise.resolve(["admin"]),
    };
    for (
      const options of [
        { roles: ROLES, privileged: ["admin"] },
        { roles: { member: {} } },
        { roles: lookedUp },
      ]
    ) {
      assertThrows(() => createGatehouse({ store, ...options }), TypeError);
    }
    assertThrows(
      () => createGatehouse({} as { store: Store }),
      TypeError,
    );
    return Promise.resolve();
  }));

Deno.test("createGatehouse() applies one password minimum to account creation and password resets", () =>
  withStore(async (store) => {
    const sent: MailMessage[] = [];
    const { gatehouse, app } = gatehouseApp({
      store,
      roles: ROLES,
      hasher,
      logger: memoryLogger(),
      limits: { minPasswordLength: 30 },
      publicUrl: "https://app.example",
      mailer: { send: (message) => Promise.resolve(void sent.push(message)) },
    });
    await addUser(store, { email: "admin@example.com", role: "admin" });
    const { cookie } = await signIn(app, "admin@example.com");
    const short = "twenty-nine characters long!!";
    const created = await app(
      new Request("http://localhost/api/users", {
        method: "POST",
        headers: { cookie },
        body: JSON.stringify({
          email: "n@example.com",
          name: "N",
          password: short,
        }),
      }),
    );
    assertEquals((await created.json()).code, "password_too_short");
    const requested = await app(
      new Request("http://localhost/api/auth/password-reset", {
        method: "POST",
        body: JSON.stringify({ email: "admin@example.com" }),
      }),
    );
    assertEquals(requested.status, 202);
    await gatehouse.settled(); // the mail is sent after the answer
    const link = sent.find((message) => message.kind === "password_reset")
      ?.link as string;
    assertEquals(link.startsWith("https://app.example/reset#token="), true);
    const token = new URL(link).hash.slice("#token=".length);
    const reset = await app(
      new Request("http://localhost/api/auth/password-reset/confirm", {
        method: "POST",
        body: JSON.stringify({ token, password: short }),
      }),
    );
    assertEquals((await reset.json()).code, "password_too_short");
  }));

Deno.test("createGatehouse() routes put the session guard, the limiter and the cross-origin guard in place", () =>
  withStore(async (store) => {
    const { app } = gatehouseApp({
      store,
      roles: ROLES,
      hasher,
      logger: memoryLogger(),
      rateLimit: { maxFailures: 1 },
    });
    assertEquals((await listUsers(app, "")).status, 401);
    const crossSite = await app(
      new Request("http://localhost/api/users", {
        method: "POST",
        headers: { "sec-fetch-site": "cross-site" },
        body: "{}",
      }),
    );
    assertEquals((await crossSite.json()).code, "request_cross_origin");
    const info = {
      remoteAddr: { transport: "tcp" as const, hostname: "192.0.2.9", port: 1 },
      completed: Promise.resolve(),
    };
    const wrong = () =>
      app(
        new Request("http://localhost/api/auth/login", {
          method: "POST",
          body: JSON.stringify({ email: "x@example.com", password: "wrong" }),
        }),
        undefined,
        info,
      );
    assertEquals((await wrong()).status, 401);
    assertEquals((await wrong()).status, 429);
  }));
