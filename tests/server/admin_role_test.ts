// PUT /api/users/{id}/role: who may hand out which role to whom, the last
// privileged account, and one case per refusal.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser, memoryStore } from "../fixtures/kv.ts";
import { cookiePair } from "../fixtures/app.ts";
import {
  actAs,
  adminApp,
  assertRefusedUnchanged,
  bareAdminApp,
  jsonRequest,
  services,
} from "../fixtures/admin.ts";

async function setup(
  options: { privileged?: string[]; registry?: boolean } = {},
) {
  const { store, close } = await memoryStore();
  const { auth, admin } = services(store, {
    ...(options.privileged ? { privileged: options.privileged } : {}),
    ...(options.registry === false ? { roles: undefined } : {}),
  });
  const app = bareAdminApp(admin);
  const root = await addUser(store, {
    email: "root@example.com",
    role: "admin",
  });
  const support = await addUser(store, {
    email: "support@example.com",
    role: "support",
  });
  const member = await addUser(store, {
    email: "member@example.com",
    role: "member",
  });
  const plain = await addUser(store, { email: "plain@example.com" });
  const put = (id: string, body: unknown, actor = root) =>
    actAs(app, actor, "PUT", `/api/users/${id}/role`, body);
  return { store, auth, admin, root, support, member, plain, put, close };
}

Deno.test("setUserRole() changes the role and answers the User", async () => {
  const t = await setup();
  try {
    const res = await t.put(t.member.id, { role: "support" });
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(await res.json(), {
      id: t.member.id,
      email: "member@example.com",
      name: "member",
      role: "support",
      disabled: false,
      created_at: new Date(t.member.createdAt).toISOString(),
      locked_until: null,
    });
    assertEquals((await t.store.userById(t.member.id))?.role, "support");
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() counts from the account's next request", async () => {
  const t = await setup();
  try {
    const app = adminApp(t.auth, t.admin);
    const cookie = cookiePair(await t.auth.startSession(t.member.id));
    const before = await app(
      jsonRequest("GET", "/api/users", undefined, { cookie }),
    );
    assertEquals(before.status, 403);
    await before.body?.cancel();
    const res = await t.put(t.member.id, { role: "admin" });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    const after = await app(
      jsonRequest("GET", "/api/users", undefined, { cookie }),
    );
    assertEquals(after.status, 200);
    await after.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() to the empty role takes every role away", async () => {
  const t = await setup();
  try {
    const res = await t.put(t.support.id, { role: "" }, t.root);
    assertEquals(res.status, 200);
    assertEquals((await res.json()).role, "");
    // The empty role is always within reach and always grantable.
    const back = await t.put(t.plain.id, { role: "member" }, t.support);
    assertEquals(back.status, 200);
    await back.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() by a role of limited reach works within it", async () => {
  const t = await setup();
  try {
    const res = await t.put(t.member.id, { role: "" }, t.support);
    assertEquals(res.status, 200);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() without a registry knows only the privileged roles", async () => {
  const t = await setup({ privileged: ["admin"], registry: false });
  try {
    const promote = await t.put(t.plain.id, { role: "admin" });
    assertEquals(promote.status, 200);
    await promote.body?.cancel();
    const unknown = await t.put(t.plain.id, { role: "member" });
    assertEquals(unknown.status, 400);
    assertEquals(await unknown.json(), {
      error: 'Role is not known: "member"',
      code: "role_unknown",
      meta: { field: "role" },
    });
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() answers 409 last_privileged_refused when it would leave no administrator", async () => {
  const t = await setup();
  try {
    // The actor passed the guards as "admin" but has since been demoted:
    // "support" is now the last privileged account.
    await t.store.updateUser(t.root.id, { role: "" });
    const res = await t.put(t.support.id, { role: "member" });
    assertEquals(res.status, 409);
    assertEquals(await res.json(), {
      error: "Cannot remove the last account that may administer users",
      code: "last_privileged_refused",
    });
    assertEquals((await t.store.userById(t.support.id))?.role, "support");
    // Moving it between privileged roles keeps an administrator: allowed.
    const ok = await t.put(t.support.id, { role: "admin" });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("setUserRole() with an empty privileged list demotes anyone, every account counting as privileged", async () => {
  const t = await setup({ privileged: [] });
  try {
    // Everyone is privileged; demoting never removes an administrator.
    const res = await t.put(t.support.id, { role: "member" });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  } finally {
    await t.close();
  }
});

type Row = [
  string,
  (t: Awaited<ReturnType<typeof setup>>) => string,
  unknown,
  "root" | "support",
  number,
  string,
  Record<string, string> | undefined,
];
const REFUSALS: Row[] = [
  [
    "a malformed id",
    () => "42",
    { role: "member" },
    "root",
    400,
    "user_id_malformed",
    { field: "id" },
  ],
  [
    "an unknown id",
    () => "0190f0a0-0000-7000-8000-00000000abcd",
    { role: "member" },
    "root",
    404,
    "user_not_found",
    undefined,
  ],
  [
    "a missing role",
    (t) => t.member.id,
    {},
    "root",
    400,
    "body_field_required",
    { field: "role" },
  ],
  [
    "a null role",
    (t) => t.member.id,
    { role: null },
    "root",
    400,
    "body_field_required",
    { field: "role" },
  ],
  [
    "a role that is not a string",
    (t) => t.member.id,
    { role: ["admin"] },
    "root",
    400,
    "body_malformed",
    { field: "role" },
  ],
  [
    "a role no registry declares",
    (t) => t.member.id,
    { role: "root" },
    "root",
    400,
    "role_unknown",
    { field: "role" },
  ],
  [
    "a role in another case",
    (t) => t.member.id,
    { role: "Admin" },
    "root",
    400,
    "role_unknown",
    { field: "role" },
  ],
  [
    "the actor's own role",
    (t) => t.root.id,
    { role: "member" },
    "root",
    403,
    "self_role_refused",
    undefined,
  ],
  [
    "the actor's own role, even within reach",
    (t) => t.support.id,
    { role: "member" },
    "support",
    403,
    "self_role_refused",
    undefined,
  ],
  [
    "a role the actor may not grant",
    (t) => t.member.id,
    { role: "admin" },
    "support",
    403,
    "role_beyond_reach",
    undefined,
  ],
  [
    "an account whose role the actor may not grant",
    (t) => t.root.id,
    { role: "member" },
    "support",
    403,
    "role_beyond_reach",
    undefined,
  ],
];

for (const [name, id, body, actorName, status, code, meta] of REFUSALS) {
  Deno.test(`setUserRole() refuses ${name} with ${status} ${code}`, async () => {
    const t = await setup();
    try {
      await assertRefusedUnchanged(
        t.store,
        () => t.put(id(t), body, t[actorName]),
        { status, code, meta },
      );
    } finally {
      await t.close();
    }
  });
}
