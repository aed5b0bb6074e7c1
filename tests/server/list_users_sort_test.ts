// Listing accounts in an order (`sort`), with the total, on KV and Postgres
// alike: every order walks every matching account exactly once, page by
// page; the total counts the matches; hostile parameters never reach a 5xx;
// a cursor naming no account ends the walk.

import { USER_SORTS, type UserSort } from "@gatehouse/contract";
import type { Store, UserQuery, UserRecord } from "../../server/core/store.ts";
import fc from "fast-check";
import { uuidv7 } from "../../server/core/_crypto.ts";
import { compareKeys } from "../../server/core/_fold.ts";
import { compareUsers, pageOf } from "../../server/stores/_user_listing.ts";
import { actAs, bareAdminApp, services } from "../fixtures/admin.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { HOSTILE } from "../fixtures/hostile.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";

const SORTS: readonly UserSort[] = USER_SORTS;
const START = Date.UTC(2026, 0, 1);
// Mixed case, equal names, names whose order differs from creation's, and
// names whose code points order otherwise than their UTF-16 code units (a
// character above U+FFFF after one in U+E000–U+FFFF), as Postgres and
// SQLite order them.
const NAMES = [
  "\u{1D400}stral",
  "\uFF41 full width",
  "zoe",
  "Ada",
  "bob",
  "Ada",
  "Émile",
  "carl",
  "ADA",
  "dora",
  "Zed",
  "eve",
  "Bob",
  "al",
];

async function seed(store: Store): Promise<UserRecord[]> {
  const users: UserRecord[] = [];
  for (const [i, name] of NAMES.entries()) {
    users.push(
      await addUser(store, {
        id: uuidv7(START + i),
        email: `${String.fromCharCode(122 - i)}${i}@Example.com`,
        name,
        createdAt: START + i,
        passwordHash: "$argon2id$unused",
      }),
    );
  }
  return users;
}

async function walk(
  store: Store,
  query: Omit<UserQuery, "limit">,
  limit: number,
) {
  const seen: UserRecord[] = [];
  const totals = new Set<number | undefined>();
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const page = await store.listUsers({
      ...query,
      limit,
      ...(cursor === undefined ? {} : { cursor }),
    });
    seen.push(...page.users);
    totals.add(page.total);
    if (page.nextCursor === null) return { seen, totals };
    cursor = page.nextCursor;
  }
  throw new Error("the walk never ended");
}

testEachStore(
  "listUsers() walks every order page by page, each account once, with the total",
  async (store) => {
    const users = await seed(store);
    for (const sort of SORTS) {
      const expected = [...users].sort((a, b) => compareUsers(a, b, sort));
      for (const limit of [1, 5, 12, 50]) {
        const { seen, totals } = await walk(store, { sort }, limit);
        assertEquals(
          seen.map((u) => u.id),
          expected.map((u) => u.id),
          `${sort} by ${limit}`,
        );
        assertEquals([...totals], [users.length]);
      }
    }
    // Names compare lower-cased; equal names keep creation order.
    const byName = (await store.listUsers({ limit: 50, sort: "name" })).users;
    assertEquals(byName.slice(0, 4).map((u) => u.name), [
      "Ada",
      "Ada",
      "ADA",
      "al",
    ]);
    // By code point: U+FF41 before U+1D400, on every store.
    assertEquals(byName.slice(-2).map((u) => u.name), [
      "\uFF41 full width",
      "\u{1D400}stral",
    ]);
    // Newest first.
    const newest =
      (await store.listUsers({ limit: 1, sort: "-created" })).users;
    assertEquals(newest[0]!.id, users.at(-1)!.id);
  },
);

testEachStore(
  "listUsers() counts and orders only the accounts that match the search",
  async (store) => {
    const users = await seed(store);
    const { seen, totals } = await walk(store, { q: "ada", sort: "-name" }, 2);
    // Equal lower-cased names: the newest first, in descending order.
    const adas = users.filter((u) => u.name.toLowerCase() === "ada").reverse();
    assertEquals(seen.map((u) => u.id), adas.map((u) => u.id));
    assertEquals([...totals], [3]);
    const none = await store.listUsers({
      limit: 5,
      q: "nobody",
      sort: "email",
    });
    assertEquals(none, { users: [], nextCursor: null, total: 0 });
  },
);

testEachStore(
  "listUsers() ends the walk at a cursor that names no account",
  async (store) => {
    await seed(store);
    const forged = uuidv7(START + 1_000_000);
    for (const sort of ["name", "-email"] as const) {
      const page = await store.listUsers({ limit: 5, sort, cursor: forged });
      assertEquals(page.users, [], sort);
      assertEquals(page.nextCursor, null, sort);
    }
    // In creation order the id alone places it: after every account.
    assertEquals(
      (await store.listUsers({ limit: 5, cursor: forged })).users,
      [],
    );
  },
);

testEachStore(
  "listUsers() keeps each page in order while 100 accounts are created at once",
  async (store) => {
    await seed(store);
    const creations = Array.from({ length: 100 }, (_, i) =>
      addUser(store, {
        email: `burst${i}@example.com`,
        name: `Burst ${String(i).padStart(3, "0")}`,
        passwordHash: "$argon2id$unused",
      }));
    const listings = Array.from(
      { length: 200 },
      (_, i) =>
        store.listUsers({
          limit: 10,
          sort: SORTS[i % SORTS.length]!,
          q: i % 3 === 0 ? "burst" : "",
        })
          .then((page) => ({ page, sort: SORTS[i % SORTS.length]! })),
    );
    await Promise.all(creations);
    for (const { page, sort } of await Promise.all(listings)) {
      const sorted = [...page.users].sort((a, b) => compareUsers(a, b, sort));
      assertEquals(page.users.map((u) => u.id), sorted.map((u) => u.id), sort);
      assert((page.total ?? -1) >= page.users.length);
    }
    const { seen, totals } = await walk(store, { sort: "name" }, 7);
    assertEquals(seen.length, NAMES.length + 100);
    assertEquals(new Set(seen.map((u) => u.id)).size, seen.length);
    assertEquals([...totals], [NAMES.length + 100]);
  },
);

testEachStore(
  "GET /api/users answers hostile sort and search values with a clear error or a page, never a 5xx",
  async (store) => {
    const { admin } = services(store);
    const app = bareAdminApp(admin);
    const actor = await addUser(store, {
      email: "root@example.com",
      role: "admin",
      passwordHash: "$argon2id$unused",
    });
    // The shared hostile strings, full-width look-alikes, LIKE wildcards and
    // near-misses of the orders.
    const values = [
      ...HOSTILE,
      "ＡＤＡ",
      "%_\\",
      "Name",
      "-",
      "--name",
      "name,email",
    ];
    for (const value of values) {
      const sorted = await actAs(
        app,
        actor,
        "GET",
        `/api/users?${new URLSearchParams({ sort: value })}`,
      );
      assertEquals(sorted.status, 400, JSON.stringify(value.slice(0, 20)));
      const refusal = await sorted.json();
      assertEquals(refusal.code, "body_malformed");
      assertEquals(refusal.meta, { field: "sort" });

      const searched = await actAs(
        app,
        actor,
        "GET",
        `/api/users?${new URLSearchParams({ sort: "-name", q: value })}`,
      );
      assert(
        searched.status < 500,
        `q=${JSON.stringify(value.slice(0, 20))}: ${searched.status}`,
      );
      await searched.body?.cancel();
    }
    const ok = await actAs(app, actor, "GET", "/api/users?sort=-email&limit=1");
    assertEquals(ok.status, 200);
    const body = await ok.json();
    assertEquals(body.total, 1);
    assertEquals(body.next_cursor, null);
  },
);

Deno.test("compareKeys() orders any two strings by code point, as Postgres and SQLite do", () => {
  const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!);
  const byCodePoint = (a: string, b: string) => {
    const [x, y] = [codePoints(a), codePoints(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] !== y[i]) return x[i]! - y[i]!;
    }
    return x.length - y.length;
  };
  fc.assert(
    fc.property(
      fc.string({ unit: "binary" }),
      fc.string({ unit: "binary" }),
      (a, b) =>
        Math.sign(compareKeys(a, b)) === Math.sign(byCodePoint(a, b)) &&
        Math.sign(compareKeys(a, b)) === -Math.sign(compareKeys(b, a)),
    ),
    { numRuns: 2000 },
  );
  // The pairs where code units and code points disagree, and ties.
  assert(compareKeys("\uFF41", "\u{1D400}") < 0);
  assert(compareKeys("\uE000", "\uD7FF") > 0);
  assert(compareKeys("\u{10FFFF}", "\uFFFF") > 0);
  assertEquals(compareKeys("abc", "abc"), 0);
  assert(compareKeys("ab", "abc") < 0);
});

Deno.test("pageOf() orders, pages and counts in memory as the stores do", () => {
  const users: UserRecord[] = ["b", "A", "c"].map((name, i) => ({
    id: uuidv7(START + i),
    email: `${name}@x.example`,
    name,
    role: "",
    disabled: false,
    createdAt: START + i,
  }));
  const first = pageOf(users, { limit: 2, sort: "name" });
  assertEquals(first.users.map((u) => u.name), ["A", "b"]);
  assertEquals(first.total, 3);
  const second = pageOf(users, {
    limit: 2,
    sort: "name",
    cursor: first.nextCursor!,
  });
  assertEquals(second.users.map((u) => u.name), ["c"]);
  assertEquals(second.nextCursor, null);
});
