// Who may reach the administration handlers: each handler checks the actor
// itself, so a handler mounted without (or before) the guards still refuses.

import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import { addUser, memoryStore } from "../fixtures/kv.ts";
import { cookiePair } from "../fixtures/app.ts";
import {
  actAs,
  adminApp,
  bareAdminApp,
  jsonRequest,
  services,
} from "../fixtures/admin.ts";
import { createAdmin } from "../../mod.ts";

const ID = "0190f0a0-0000-7000-8000-000000000001";

// One row per handler: the request each would accept from an administrator.
const CALLS: Array<[string, string, string, unknown]> = [
  ["listUsers", "GET", "/api/users", undefined],
  ["createUser", "POST", "/api/users", {
    email: "new@example.com",
    name: "New",
    password: "correct horse battery staple",
  }],
  ["setUserDisabled", "PATCH", `/api/users/${ID}`, { disabled: true }],
  ["setUserRole", "PUT", `/api/users/${ID}/role`, { role: "member" }],
];

for (const [name, method, path, body] of CALLS) {
  Deno.test(`${name}() mounted without requireSession answers 401 session_absent`, async () => {
    const { store, close } = await memoryStore();
    try {
      const { admin } = services(store);
      const res = await bareAdminApp(admin)(jsonRequest(method, path, body));
      assertEquals(res.status, 401);
      assertEquals(await res.json(), {
        error: "Not signed in",
        code: "session_absent",
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}() refuses a role outside the privileged list with 403 role_insufficient`, async () => {
    const { store, close } = await memoryStore();
    try {
      const { auth, admin } = services(store);
      const app = adminApp(auth, admin);
      for (const role of ["member", ""]) {
        const user = await addUser(store, {
          email: `${role}x@example.com`,
          role,
        });
        const cookie = cookiePair(await auth.startSession(user.id));
        const req = jsonRequest(method, path, body, { cookie });
        const res = await app(req);
        assertEquals(res.status, 403, `role "${role}"`);
        assertEquals((await res.json()).code, "role_insufficient");
        // The same refusal without the guard in front.
        const direct = await actAs(
          bareAdminApp(admin),
          user,
          method,
          path,
          body,
        );
        assertEquals(direct.status, 403);
      }
      assertEquals((await store.listUsers({ limit: 10 })).users.length, 2);
    } finally {
      await close();
    }
  });
}

Deno.test("createAdmin() with an empty privileged list admits every role, even none", async () => {
  const { store, close } = await memoryStore();
  try {
    const { admin } = services(store, { privileged: [] });
    const user = await addUser(store, { email: "plain@example.com", role: "" });
    const res = await actAs(bareAdminApp(admin), user, "GET", "/api/users");
    assertEquals(res.status, 200);
  } finally {
    await close();
  }
});

Deno.test("createAdmin() refuses a config without a store or with the empty role privileged", () => {
  // deno-lint-ignore no-explicit-any
  assertThrows(() => createAdmin({} as any), TypeError);
  assertThrows(
    // deno-lint-ignore no-explicit-any
    () => createAdmin({ store: {} as any, privileged: ["admin", ""] }),
    TypeError,
  );
});

Deno.test("createAdmin() copies the privileged list at construction", async () => {
  const { store, close } = await memoryStore();
  try {
    const privileged = ["admin"];
    const { admin } = services(store, { privileged });
    privileged.push("member");
    const member = await addUser(store, {
      email: "m@example.com",
      role: "member",
    });
    const res = await actAs(bareAdminApp(admin), member, "GET", "/api/users");
    assertEquals(res.status, 403);
    assertEquals(admin.privileged, ["admin"]);
  } finally {
    await close();
  }
});
