// GET /api/users: pages in creation order, the `q` filter, and the refusals
// of malformed query parameters.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser, memoryStore } from "../fixtures/kv.ts";
import { actAs, bareAdminApp, services } from "../fixtures/admin.ts";
import type { UserRecord } from "../../server/core/store.ts";
import { uuidv7 } from "../../server/core/_crypto.ts";

const START = Date.UTC(2026, 0, 1);

// Accounts created one millisecond apart, so their UUIDv7 ids sort by age.
async function setup(names: string[]) {
  const { store, close } = await memoryStore();
  const { admin } = services(store);
  const app = bareAdminApp(admin);
  const actor = await addUser(store, {
    id: uuidv7(START),
    email: "root@example.com",
    name: "Root",
    role: "admin",
    createdAt: START,
  });
  const users: UserRecord[] = [actor];
  for (const [i, name] of names.entries()) {
    const at = START + 1 + i;
    users.push(
      await addUser(store, {
        id: uuidv7(at),
        email: `${name.toLowerCase()}@Example.com`,
        name,
        createdAt: at,
      }),
    );
  }
  const list = (query = "") => actAs(app, actor, "GET", `/api/users${query}`);
  return { users, list, close };
}

Deno.test("listUsers() answers users in creation order with the wire shape", async () => {
  const t = await setup(["Grace"]);
  try {
    const res = await t.list();
    assertEquals(res.status, 200);
    assertEquals(res.headers.get("cache-control"), "no-store");
    assertEquals(await res.json(), {
      users: [
        {
          id: t.users[0]!.id,
          email: "root@example.com",
          name: "Root",
          role: "admin",
          disabled: false,
          created_at: "2026-01-01T00:00:00.000Z",
          second_factor: { totp: false, passkeys: 0 },
          locked_until: null,
        },
        {
          id: t.users[1]!.id,
          email: "grace@Example.com",
          name: "Grace",
          role: "",
          disabled: false,
          created_at: "2026-01-01T00:00:00.001Z",
          second_factor: { totp: false, passkeys: 0 },
          locked_until: null,
        },
      ],
      next_cursor: null,
      total: 2,
    });
  } finally {
    await t.close();
  }
});

Deno.test("listUsers() pages with limit and cursor until next_cursor is null", async () => {
  const t = await setup(["A1", "A2", "A3", "A4"]);
  try {
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let query = "?limit=2";
    while (true) {
      const res = await t.list(query);
      assertEquals(res.status, 200);
      const page = await res.json();
      seen.push(...page.users.map((u: { id: string }) => u.id));
      cursors.push(page.next_cursor);
      if (page.next_cursor === null) break;
      query = `?limit=2&cursor=${page.next_cursor}`;
    }
    assertEquals(seen, t.users.map((u) => u.id));
    // Five accounts in pages of two: no empty page at the end.
    assertEquals(cursors, [t.users[1]!.id, t.users[3]!.id, null]);
  } finally {
    await t.close();
  }
});

Deno.test("listUsers() answers 50 users by default and at most 100", async () => {
  const t = await setup(Array.from({ length: 100 }, (_, i) => `U${i}`));
  try {
    const first = await (await t.list()).json();
    assertEquals(first.users.length, 50);
    assertEquals(first.next_cursor, t.users[49]!.id);
    const all = await (await t.list("?limit=100")).json();
    assertEquals(all.users.length, 100);
    assertEquals(all.next_cursor, t.users[99]!.id);
    const rest = await (await t.list(`?limit=100&cursor=${all.next_cursor}`))
      .json();
    assertEquals(rest.users.map((u: { id: string }) => u.id), [
      t.users[100]!.id,
    ]);
    assertEquals(rest.next_cursor, null);
  } finally {
    await t.close();
  }
});

Deno.test("listUsers() filters by q on email and name, case-insensitively, across pages", async () => {
  const t = await setup(["Ada", "Bob", "Adam", "Carol", "Madison"]);
  try {
    const names = async (query: string) => {
      const page = await (await t.list(query)).json();
      return [
        page.users.map((u: { name: string }) => u.name),
        page.next_cursor,
      ];
    };
    assertEquals(await names("?q=ADA"), [["Ada", "Adam"], null]);
    // "example.COM" is in every email.
    assertEquals((await names("?q=example.COM&limit=100"))[0].length, 6);
    assertEquals(await names("?q=%20carol%20"), [["Carol"], null]);
    const [firstPage, cursor] = await names("?q=ad&limit=2");
    assertEquals(firstPage, ["Ada", "Adam"]);
    assertEquals(cursor, t.users[3]!.id);
    assertEquals(await names(`?q=ad&limit=2&cursor=${cursor}`), [
      ["Madison"],
      null,
    ]);
    assertEquals(await names("?q=nobody"), [[], null]);
  } finally {
    await t.close();
  }
});

const MALFORMED: Array<[string, string]> = [
  ["?limit=0", "limit"],
  ["?limit=101", "limit"],
  ["?limit=-1", "limit"],
  ["?limit=1.5", "limit"],
  ["?limit=ten", "limit"],
  ["?limit=", "limit"],
  ["?limit=1e1", "limit"],
  ["?cursor=abc", "cursor"],
  ["?cursor=", "cursor"],
  ["?limit=2&cursor=0190f0a0-0000-7000-8000-00000000000", "cursor"],
];

for (const [query, field] of MALFORMED) {
  Deno.test(`listUsers() refuses "${query}" with 400 body_malformed naming "${field}"`, async () => {
    const t = await setup([]);
    try {
      const res = await t.list(query);
      assertEquals(res.status, 400);
      const body = await res.json();
      assertEquals(body.code, "body_malformed");
      assertEquals(body.meta, { field });
      assertEquals(typeof body.error, "string");
    } finally {
      await t.close();
    }
  });
}
