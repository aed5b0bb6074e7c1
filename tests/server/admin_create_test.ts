// POST /api/users: the account it creates, and one case per refusal.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { addUser, memoryStore, PASSWORD } from "../fixtures/kv.ts";
import { actAs, bareAdminApp, services } from "../fixtures/admin.ts";
import { withIdentity } from "../../mod.ts";

const AT = Date.UTC(2026, 2, 3, 4, 5, 6);

async function setup(
  options: { privileged?: string[]; registry?: boolean } = {},
) {
  const { store, close } = await memoryStore();
  const { auth, admin } = services(store, {
    now: () => AT,
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
  const create = (body: unknown, actor = root) =>
    actAs(app, actor, "POST", "/api/users", body);
  return { store, auth, root, support, create, close };
}

Deno.test("createUser() answers 201 with the new account, which can sign in", async () => {
  const t = await setup();
  try {
    const res = await t.create({
      email: "  Grace@Example.COM ",
      name: "  Grace Hopper ",
      password: PASSWORD,
      role: "member",
    });
    assertEquals(res.status, 201);
    assertEquals(res.headers.get("cache-control"), "no-store");
    const body = await res.json();
    assertMatch(
      body.id,
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assertEquals(body, {
      id: body.id,
      email: "Grace@Example.COM",
      name: "Grace Hopper",
      role: "member",
      disabled: false,
      created_at: "2026-03-03T04:05:06.000Z",
      locked_until: null,
    });
    const identity = await t.auth.authenticate("grace@example.com", PASSWORD);
    assertEquals(identity.id, body.id);
    assertEquals(identity.role, "member");
  } finally {
    await t.close();
  }
});

Deno.test("createUser() without a role creates an account with none", async () => {
  const t = await setup();
  try {
    const res = await t.create({
      email: "norole@example.com",
      name: "No Role",
      password: PASSWORD,
    });
    assertEquals(res.status, 201);
    assertEquals((await res.json()).role, "");
    const stored = await t.store.credentialsByEmail("norole@example.com");
    assertEquals(stored?.user.role, "");
    assert(stored?.passwordHash.startsWith("$argon2id$"));
  } finally {
    await t.close();
  }
});

Deno.test("createUser() by a role of limited reach may grant what it grants", async () => {
  const t = await setup();
  try {
    const res = await t.create({
      email: "m@example.com",
      name: "M",
      password: PASSWORD,
      role: "member",
    }, t.support);
    assertEquals(res.status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("createUser() without a registry knows only the privileged roles", async () => {
  const t = await setup({ privileged: ["admin"], registry: false });
  try {
    const ok = await t.create({
      email: "second@example.com",
      name: "Second",
      password: PASSWORD,
      role: "admin",
    });
    assertEquals(ok.status, 201);
    const refused = await t.create({
      email: "m@example.com",
      name: "M",
      password: PASSWORD,
      role: "member",
    });
    assertEquals(refused.status, 400);
    assertEquals((await refused.json()).code, "role_unknown");
  } finally {
    await t.close();
  }
});

const VALID = { email: "new@example.com", name: "New", password: PASSWORD };

// [case, body, status, code, meta]
const REFUSALS: Array<
  [string, unknown, number, string, Record<string, string> | undefined]
> = [
  [
    "a missing email",
    { ...VALID, email: undefined },
    400,
    "body_field_required",
    { field: "email" },
  ],
  [
    "an email that is not a string",
    { ...VALID, email: 7 },
    400,
    "body_malformed",
    { field: "email" },
  ],
  [
    "an email without @",
    { ...VALID, email: "new.example.com" },
    400,
    "email_invalid",
    { field: "email" },
  ],
  [
    "an email with a space",
    { ...VALID, email: "new user@example.com" },
    400,
    "email_invalid",
    { field: "email" },
  ],
  [
    "an email over 254 characters",
    { ...VALID, email: `${"a".repeat(250)}@b.cd` },
    400,
    "email_invalid",
    { field: "email" },
  ],
  [
    "a taken email in another case",
    { ...VALID, email: " ROOT@example.com" },
    409,
    "email_taken",
    { field: "email" },
  ],
  [
    "a missing name",
    { ...VALID, name: undefined },
    400,
    "body_field_required",
    { field: "name" },
  ],
  ["a blank name", { ...VALID, name: "   " }, 400, "name_required", {
    field: "name",
  }],
  [
    "a name over 100 characters",
    { ...VALID, name: "n".repeat(101) },
    400,
    "name_too_long",
    { field: "name" },
  ],
  [
    "a missing password",
    { ...VALID, password: undefined },
    400,
    "body_field_required",
    { field: "password" },
  ],
  [
    "an 11-character password",
    { ...VALID, password: "a".repeat(11) },
    400,
    "password_too_short",
    { field: "password" },
  ],
  [
    "a 257-character password",
    { ...VALID, password: "a".repeat(257) },
    400,
    "password_too_long",
    { field: "password" },
  ],
  [
    "a role no registry declares",
    { ...VALID, role: "root" },
    400,
    "role_unknown",
    { field: "role" },
  ],
  [
    "a role that is not a string",
    { ...VALID, role: 1 },
    400,
    "body_malformed",
    { field: "role" },
  ],
  ["a body that is not an object", [VALID], 400, "body_malformed", undefined],
];

for (const [name, body, status, code, meta] of REFUSALS) {
  Deno.test(`createUser() refuses ${name} with ${status} ${code}`, async () => {
    const t = await setup();
    try {
      const res = await t.create(body);
      assertEquals(res.status, status);
      const answer = await res.json();
      assertEquals(answer.code, code);
      assertEquals(answer.meta, meta);
      assertEquals(typeof answer.error, "string");
      assertEquals((await t.store.listUsers({ limit: 10 })).users.length, 2);
    } finally {
      await t.close();
    }
  });
}

Deno.test("createUser() refuses a role beyond the actor's grants with 403 role_beyond_reach", async () => {
  const t = await setup();
  try {
    for (const role of ["admin", "support"]) {
      const res = await t.create({ ...VALID, role }, t.support);
      assertEquals(res.status, 403);
      const body = await res.json();
      assertEquals(body.code, "role_beyond_reach");
      assertEquals(body.error, `You may not hand out the role "${role}"`);
    }
    assertEquals(await t.store.credentialsByEmail(VALID.email), null);
  } finally {
    await t.close();
  }
});

Deno.test("createUser() refuses malformed JSON and a body over the cap", async () => {
  const t = await setup();
  try {
    const { admin } = services(t.store);
    const send = (text: string) =>
      admin.createUser(
        withIdentity(
          new Request("http://localhost/api/users", {
            method: "POST",
            body: text,
          }),
          t.root,
        ),
      );
    const malformed = await send('{"email":');
    assertEquals(malformed.status, 400);
    assertEquals((await malformed.json()).code, "body_malformed");
    const trailing = await send(JSON.stringify(VALID) + "{}");
    assertEquals(trailing.status, 400);
    assertEquals((await trailing.json()).code, "body_malformed");
    const huge = await send(
      JSON.stringify({ ...VALID, name: "x".repeat(17 * 1024) }),
    );
    assertEquals(huge.status, 413);
    assertEquals((await huge.json()).code, "body_too_large");
    assertEquals(await t.store.credentialsByEmail(VALID.email), null);
  } finally {
    await t.close();
  }
});
