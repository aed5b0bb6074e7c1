// requireSession, requirePrivilege and requireCapability, and what the
// identity carries with and without a role registry.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser, memoryStore, PASSWORD } from "../fixtures/kv.ts";
import { authApp, cookiePair } from "../fixtures/app.ts";
import { createAuth, type Store } from "../../mod.ts";
import { type RoleRegistry, roleRegistry } from "../../server/core/roles.ts";

async function signIn(
  app: ReturnType<typeof authApp>,
  email: string,
): Promise<string> {
  const res = await app(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      body: JSON.stringify({ email, password: PASSWORD }),
    }),
  );
  assertEquals(res.status, 200);
  return cookiePair(res.headers.get("set-cookie"));
}

async function get(
  app: ReturnType<typeof authApp>,
  path: string,
  cookie?: string,
) {
  const res = await app(
    new Request(
      `http://localhost${path}`,
      cookie ? { headers: { cookie } } : {},
    ),
  );
  return { status: res.status, body: await res.json() };
}

async function accounts(store: Store) {
  return {
    admin: await addUser(store, { email: "admin@example.com", role: "admin" }),
    member: await addUser(store, {
      email: "member@example.com",
      role: "member",
    }),
    none: await addUser(store, { email: "none@example.com", role: "" }),
  };
}

Deno.test("requirePrivilege() admits privileged roles and refuses the rest", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const app = authApp(createAuth({ store, privileged: ["admin"] }));
    const rows: Array<[string, number, string | undefined]> = [
      ["admin@example.com", 200, undefined],
      ["member@example.com", 403, "role_insufficient"],
      ["none@example.com", 403, "role_insufficient"],
    ];
    for (const [email, status, code] of rows) {
      const res = await get(app, "/api/private", await signIn(app, email));
      assertEquals([res.status, res.body.code], [status, code], email);
    }
    const anonymous = await get(app, "/api/private");
    assertEquals([anonymous.status, anonymous.body.code], [
      401,
      "session_absent",
    ]);
  } finally {
    await close();
  }
});

Deno.test("requirePrivilege() with an empty list admits every role, even none", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const app = authApp(createAuth({ store }));
    for (
      const email of [
        "admin@example.com",
        "member@example.com",
        "none@example.com",
      ]
    ) {
      assertEquals(
        (await get(app, "/api/private", await signIn(app, email))).status,
        200,
      );
    }
  } finally {
    await close();
  }
});

Deno.test("createAuth() copies the privileged list at construction", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const privileged = ["admin"];
    const auth = createAuth({ store, privileged });
    privileged.push("member");
    privileged.length = 0;
    assertEquals(auth.privileged, ["admin"]);
    const app = authApp(auth);
    assertEquals(
      (await get(app, "/api/private", await signIn(app, "member@example.com")))
        .status,
      403,
    );
    assertEquals(
      (await get(app, "/api/private", await signIn(app, "admin@example.com")))
        .status,
      200,
    );
  } finally {
    await close();
  }
});

Deno.test("requireCapability() admits holders and names the missing capability", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const registry = roleRegistry({
      admin: { capabilities: ["users.manage"], grants: ["admin", "member"] },
      member: {},
    });
    const app = authApp(createAuth({ store, capabilities: registry }));
    const admin = await get(
      app,
      "/api/manage",
      await signIn(app, "admin@example.com"),
    );
    assertEquals(admin.status, 200);
    for (const email of ["member@example.com", "none@example.com"]) {
      const res = await get(app, "/api/manage", await signIn(app, email));
      assertEquals(res.status, 403);
      assertEquals(res.body, {
        error: 'Your role lacks the capability "users.manage"',
        code: "capability_missing",
        meta: { capability: "users.manage" },
      });
    }
  } finally {
    await close();
  }
});

Deno.test("requireCapability() without a registry refuses everyone", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const app = authApp(createAuth({ store, privileged: ["admin"] }));
    const res = await get(
      app,
      "/api/manage",
      await signIn(app, "admin@example.com"),
    );
    assertEquals([res.status, res.body.code], [403, "capability_missing"]);
  } finally {
    await close();
  }
});

Deno.test("identity lists appear only when the registry answers them", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const plain = authApp(createAuth({ store }));
    const bare = await get(
      plain,
      "/api/auth/session",
      await signIn(plain, "admin@example.com"),
    );
    // The own Identity always says which second factors the account has,
    // and its mail language ("" until one is known).
    assertEquals(Object.keys(bare.body).sort(), [
      "email",
      "has_password",
      "id",
      "locale",
      "name",
      "role",
      "second_factor",
      "second_factor_required",
    ]);

    const capabilitiesOnly: RoleRegistry = {
      capabilitiesOf: (role) => role === "admin" ? ["users.manage"] : [],
      roles: () => ["admin", "member"],
    };
    const partial = authApp(
      createAuth({ store, capabilities: capabilitiesOnly }),
    );
    const some = await get(
      partial,
      "/api/auth/session",
      await signIn(partial, "member@example.com"),
    );
    assertEquals(some.body.capabilities, []);
    assertEquals("grantable" in some.body, false);

    const full = authApp(createAuth({
      store,
      capabilities: roleRegistry({
        admin: { capabilities: ["users.manage"], grants: ["member"] },
        member: {},
      }),
    }));
    const admin = await get(
      full,
      "/api/auth/session",
      await signIn(full, "admin@example.com"),
    );
    assertEquals([admin.body.capabilities, admin.body.grantable], [[
      "users.manage",
    ], ["member"]]);
    const none = await get(
      full,
      "/api/auth/session",
      await signIn(full, "none@example.com"),
    );
    assertEquals([none.body.capabilities, none.body.grantable], [[], []]);
  } finally {
    await close();
  }
});

Deno.test("a grant in the registry counts from the next request", async () => {
  const { store, close } = await memoryStore();
  try {
    await accounts(store);
    const granted = new Map<string, string[]>([["member", []]]);
    let lookups = 0;
    const registry: RoleRegistry = {
      capabilitiesOf: (role) => {
        lookups++;
        return Promise.resolve(granted.get(role) ?? []);
      },
      roles: () => ["admin", "member"],
    };
    const app = authApp(createAuth({ store, capabilities: registry }));
    const cookie = await signIn(app, "member@example.com");
    assertEquals((await get(app, "/api/manage", cookie)).status, 403);
    granted.set("member", ["users.manage"]);
    assertEquals((await get(app, "/api/manage", cookie)).status, 200);
    granted.set("member", []);
    assertEquals((await get(app, "/api/manage", cookie)).status, 403);
    // Login reads once; each of the three guarded requests reads exactly once.
    assertEquals(lookups, 4);
  } finally {
    await close();
  }
});
