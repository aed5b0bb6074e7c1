// PATCH /api/users/{id}: disabling kills every session of the account before
// the answer is sent, re-enabling lets its owner sign in again (old sessions
// stay dead), and one case per refusal.

import { assertEquals } from "../fixtures/assert.ts";
import {
  addUser,
  hasher,
  memoryStore,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { createAuth } from "../../mod.ts";
import { cookiePair } from "../fixtures/app.ts";
import {
  actAs,
  adminApp,
  assertRefusedUnchanged,
  bareAdminApp,
  services,
} from "../fixtures/admin.ts";

async function setup() {
  const { store, kv, close } = await memoryStore();
  const { auth, admin } = services(store);
  const app = bareAdminApp(admin);
  const root = await addUser(store, {
    email: "root@example.com",
    role: "admin",
  });
  const support = await addUser(store, {
    email: "support@example.com",
    role: "support",
  });
  const peer = await addUser(store, {
    email: "peer@example.com",
    role: "support",
  });
  const member = await addUser(store, {
    email: "member@example.com",
    role: "member",
  });
  const patch = (id: string, body: unknown, actor = root) =>
    actAs(app, actor, "PATCH", `/api/users/${id}`, body);
  return { store, kv, auth, admin, root, support, peer, member, patch, close };
}

async function sessionRecords(kv: Deno.Kv, userId: string): Promise<number> {
  let count = 0;
  const prefix = ["gatehouse", "session_of_userId", userId];
  for await (const _ of kv.list({ prefix })) count++;
  return count;
}

Deno.test("setUserDisabled() disables and enables an account, answering the User", async () => {
  const t = await setup();
  try {
    const off = await t.patch(t.member.id, { disabled: true });
    assertEquals(off.status, 200);
    assertEquals(off.headers.get("cache-control"), "no-store");
    assertEquals(await off.json(), {
      id: t.member.id,
      email: "member@example.com",
      name: "member",
      role: "member",
      disabled: true,
      created_at: new Date(t.member.createdAt).toISOString(),
      locked_until: null,
    });
    assertEquals((await t.store.userById(t.member.id))?.disabled, true);
    const on = await t.patch(t.member.id, {
      disabled: false,
      role: "member",
    });
    assertEquals(on.status, 200);
    assertEquals((await on.json()).disabled, false);
    assertEquals((await t.store.userById(t.member.id))?.disabled, false);
  } finally {
    await t.close();
  }
});

Deno.test("a disabled account's session is refused on the very next request, over HTTP", async () => {
  const t = await setup();
  const server = serveHandler(adminApp(t.auth, t.admin));
  try {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(server.url + path, init);
    const login = (email: string) =>
      api("/api/auth/login", {
        method: "POST",
        body: JSON.stringify({ email, password: PASSWORD }),
      });
    const adminCookie = cookiePair(
      (await login("root@example.com")).headers.get("set-cookie"),
    );
    const first = await login("member@example.com");
    assertEquals(first.status, 200);
    await first.body?.cancel();
    const oldCookie = cookiePair(first.headers.get("set-cookie"));
    const second = cookiePair(
      (await login("member@example.com")).headers.get("set-cookie"),
    );
    const session = await api("/api/auth/session", {
      headers: { cookie: oldCookie },
    });
    assertEquals(session.status, 200);
    await session.body?.cancel();

    const disable = await api(`/api/users/${t.member.id}`, {
      method: "PATCH",
      headers: { cookie: adminCookie },
      body: JSON.stringify({ disabled: true, role: "member" }),
    });
    assertEquals(disable.status, 200);
    assertEquals((await disable.json()).disabled, true);

    for (const cookie of [oldCookie, second]) {
      const next = await api("/api/auth/session", { headers: { cookie } });
      assertEquals(next.status, 401);
      assertEquals((await next.json()).code, "session_absent");
    }
    assertEquals(await sessionRecords(t.kv, t.member.id), 0);
    const refused = await login("member@example.com");
    assertEquals(refused.status, 401);
    assertEquals((await refused.json()).code, "credentials_invalid");

    const enable = await api(`/api/users/${t.member.id}`, {
      method: "PATCH",
      headers: { cookie: adminCookie },
      body: JSON.stringify({ disabled: false }),
    });
    assertEquals(enable.status, 200);
    await enable.body?.cancel();
    const old = await api("/api/auth/session", {
      headers: { cookie: oldCookie },
    });
    assertEquals(old.status, 401, "re-enabling does not revive old sessions");
    await old.body?.cancel();
    const again = await login("member@example.com");
    assertEquals(again.status, 200);
    await again.body?.cancel();
    const fresh = await api("/api/auth/session", {
      headers: { cookie: cookiePair(again.headers.get("set-cookie")) },
    });
    assertEquals(fresh.status, 200);
    assertEquals((await fresh.json()).id, t.member.id);
  } finally {
    await server.close();
    await t.close();
  }
});

Deno.test("setUserDisabled() kills more sessions than one KV commit could delete", async () => {
  const t = await setup();
  try {
    // 3 keys a session: 400 sessions are 1200 deletions, over KV's 1000.
    // (More than the default cap of 50 live sessions an account: lifted.)
    const many = createAuth({
      store: t.store,
      hasher,
      limits: { maxSessionsPerAccount: 400 },
    });
    const tokens: string[] = [];
    for (let i = 0; i < 400; i++) {
      tokens.push(
        cookiePair(await many.startSession(t.member.id)).split("=")[1]!,
      );
    }
    assertEquals(await sessionRecords(t.kv, t.member.id), 400);
    const res = await t.patch(t.member.id, { disabled: true });
    assertEquals(res.status, 200);
    await res.body?.cancel();
    for (const token of [tokens[0]!, tokens[399]!]) {
      assertEquals(await t.auth.sessionIdentity(token), null);
    }
    assertEquals(await sessionRecords(t.kv, t.member.id), 0);
  } finally {
    await t.close();
  }
});

Deno.test("setUserDisabled() answers 409 role_changed when the role the actor saw is stale", async () => {
  const t = await setup();
  try {
    // The actor saw "member"; meanwhile another administrator promoted them.
    await t.store.updateUser(t.member.id, { role: "support" });
    const res = await t.patch(t.member.id, { disabled: true, role: "member" });
    assertEquals(res.status, 409);
    assertEquals(await res.json(), {
      error: 'The account\'s role changed: it is now "support"',
      code: "role_changed",
      meta: { role: "support" },
    });
    assertEquals((await t.store.userById(t.member.id))?.disabled, false);
    // With the role it now has, the same request goes through.
    const ok = await t.patch(t.member.id, { disabled: true, role: "support" });
    assertEquals(ok.status, 200);
    await ok.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("setUserDisabled() answers 409 last_privileged_refused when it would leave no administrator", async () => {
  const t = await setup();
  try {
    // The actor's request passed the guards as "admin", but by the time it
    // reaches the store the actor itself was demoted and "support" is the
    // last privileged account: the store refuses on the state it commits on.
    await t.store.updateUser(t.root.id, { role: "member" });
    await t.store.updateUser(t.peer.id, { disabled: true });
    const res = await t.patch(t.support.id, { disabled: true });
    assertEquals(res.status, 409);
    const body = await res.json();
    assertEquals(body.code, "last_privileged_refused");
    assertEquals((await t.store.userById(t.support.id))?.disabled, false);
  } finally {
    await t.close();
  }
});

// [case, path id, body, actor, status, code, meta]
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
    () => "not-a-uuid",
    { disabled: true },
    "root",
    400,
    "user_id_malformed",
    { field: "id" },
  ],
  [
    "an id with a trailing character",
    (t) => t.member.id + "0",
    { disabled: true },
    "root",
    400,
    "user_id_malformed",
    { field: "id" },
  ],
  [
    "an unknown id",
    () => "0190f0a0-0000-7000-8000-00000000abcd",
    { disabled: true },
    "root",
    404,
    "user_not_found",
    undefined,
  ],
  [
    "a missing disabled",
    (t) => t.member.id,
    {},
    "root",
    400,
    "body_field_required",
    { field: "disabled" },
  ],
  [
    "a disabled that is not a boolean",
    (t) => t.member.id,
    { disabled: "yes" },
    "root",
    400,
    "body_malformed",
    { field: "disabled" },
  ],
  [
    "a role that is not a string",
    (t) => t.member.id,
    { disabled: true, role: 3 },
    "root",
    400,
    "body_malformed",
    { field: "role" },
  ],
  [
    "the actor's own account",
    (t) => t.root.id,
    { disabled: true },
    "root",
    403,
    "self_disable_refused",
    undefined,
  ],
  [
    "the actor's own account, even to enable it",
    (t) => t.root.id,
    { disabled: false },
    "root",
    403,
    "self_disable_refused",
    undefined,
  ],
  [
    "an account whose role the actor cannot grant",
    (t) => t.root.id,
    { disabled: true },
    "support",
    403,
    "role_beyond_reach",
    undefined,
  ],
  [
    "a peer whose role the actor cannot grant",
    (t) => t.peer.id,
    { disabled: true, role: "support" },
    "support",
    403,
    "role_beyond_reach",
    undefined,
  ],
  [
    "a stale role before anything else about the account",
    (t) => t.peer.id,
    { disabled: true, role: "member" },
    "support",
    409,
    "role_changed",
    { role: "support" },
  ],
];

for (const [name, id, body, actorName, status, code, meta] of REFUSALS) {
  Deno.test(`setUserDisabled() refuses ${name} with ${status} ${code}`, async () => {
    const t = await setup();
    try {
      await assertRefusedUnchanged(
        t.store,
        () => t.patch(id(t), body, t[actorName]),
        { status, code, meta },
      );
    } finally {
      await t.close();
    }
  });
}
