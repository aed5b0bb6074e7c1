// Conformance cases for accounts: the schema, creation and lookup, paging,
// the update rules (role_changed, role_beyond_reach, last_privileged_refused)
// and concurrent writers of accounts.

import assert from "node:assert/strict";
import { USER_SORTS } from "@gatehouse/contract";
import type { UserPage, UserRecord } from "../../core/store.ts";
import {
  addSession,
  addUser,
  allUsers,
  type Case,
  hash,
  nextId,
  NO_FACTORS,
  refused,
  withoutFactors,
} from "./_helpers.ts";
import { compareUsers } from "../_user_listing.ts";

/**
 * The page without its total, once the total (optional: a store may not
 * count) is checked to be every match over all pages.
 */
function paged(page: UserPage, total: number): Omit<UserPage, "total"> {
  if (page.total !== undefined) assert.equal(page.total, total, "total");
  return { users: page.users.map(withoutFactors), nextCursor: page.nextCursor };
}

const schema: Case[] = [
  ["migrate() is idempotent and safe to run concurrently", async (store) => {
    await Promise.all([store.migrate(), store.migrate()]);
    const ada = await addUser(store, { email: "ada@example.com" });
    await store.migrate();
    assert.deepEqual(await store.userById(ada.id), ada);
  }],
];

const accounts: Case[] = [
  ["createUser() returns the account and userById() reads it", async (s) => {
    const id = nextId();
    const created = await s.createUser({
      id,
      email: "Ada@Example.com",
      emailKey: "ada@example.com",
      name: "Ada Lovelace",
      role: "admin",
      passwordHash: hash("ada"),
      createdAt: 1_700_000_000_123,
    });
    const expected: UserRecord = {
      id,
      email: "Ada@Example.com",
      name: "Ada Lovelace",
      role: "admin",
      disabled: false,
      createdAt: 1_700_000_000_123,
      locale: "",
      localeChosen: false,
    };
    assert.deepEqual(created, expected);
    assert.deepEqual(await s.userById(id), expected);
  }],
  ["createUser() refuses an email whose folded key is taken", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com" });
    await refused(
      addUser(s, { email: "ADA@example.COM", name: "Other" }),
      "email_taken",
    );
    // The key is what counts: İ folds (NFC, then lower case) to i + U+0307.
    const dotted = await addUser(s, { email: "\u0130x@example.com" });
    await refused(
      addUser(s, { email: "i\u0307x@example.com", name: "Twin" }),
      "email_taken",
    );
    assert.deepEqual(await allUsers(s), [ada, dotted]);
  }],
  ["createUser() lets one of two racing sign-ups win", async (store) => {
    const results = await Promise.allSettled([
      addUser(store, { email: "race@example.com" }),
      addUser(store, { email: "Race@Example.com" }),
    ]);
    const failures = results.filter((r) => r.status === "rejected");
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.reason.code, "email_taken");
    assert.equal((await allUsers(store)).length, 1);
  }],
  ["userById() answers null for an unknown or malformed id", async (s) => {
    await addUser(s, { email: "ada@example.com" });
    assert.equal(await s.userById(nextId()), null);
    assert.equal(await s.userById("not-a-uuid"), null);
  }],
  [
    "credentialsByEmail() finds the account by its key, with its generation",
    async (store) => {
      const ada = await addUser(store, {
        email: "Ada@Example.com",
        passwordHash: hash("ada"),
      });
      assert.deepEqual(await store.credentialsByEmail("ada@example.com"), {
        user: ada,
        passwordHash: hash("ada"),
        generation: 0,
        factors: NO_FACTORS,
      });
      // Callers fold; a store compares keys as they are.
      assert.equal(await store.credentialsByEmail("Ada@Example.com"), null);
      assert.equal(await store.credentialsByEmail("bob@example.com"), null);
      await store.updateUser(ada.id, { disabled: true });
      await store.updateUser(ada.id, { disabled: false });
      const after = await store.credentialsByEmail("ada@example.com");
      assert.equal(after?.generation, 1);
    },
  ],
  ["listUsers() pages in creation order with a cursor", async (store) => {
    const users: UserRecord[] = [];
    for (const name of ["a", "b", "c", "d", "e"]) {
      users.push(await addUser(store, { email: `${name}@example.com` }));
    }
    const first = paged(await store.listUsers({ limit: 2 }), 5);
    assert.deepEqual(first, {
      users: users.slice(0, 2),
      nextCursor: users[1]!.id,
    });
    const second = paged(
      await store.listUsers({ limit: 2, cursor: users[1]!.id }),
      5,
    );
    assert.deepEqual(second, {
      users: users.slice(2, 4),
      nextCursor: users[3]!.id,
    });
    const last = paged(
      await store.listUsers({ limit: 2, cursor: users[3]!.id }),
      5,
    );
    assert.deepEqual(last, { users: users.slice(4), nextCursor: null });
    // A page that ends exactly at the last account says there is no more.
    const exact = paged(
      await store.listUsers({ limit: 3, cursor: users[1]!.id }),
      5,
    );
    assert.deepEqual(exact, { users: users.slice(2), nextCursor: null });
  }],
  ["listUsers() filters by q on email or name, literally", async (store) => {
    const ada = await addUser(store, {
      email: "ada@example.com",
      name: "Ada Lovelace",
    });
    const bob = await addUser(store, {
      email: "bob@Lovelace.org",
      name: "Bob",
    });
    const pct = await addUser(store, {
      email: "p%c_t@example.com",
      name: "Per Cent",
    });
    await addUser(store, { email: "carol@example.com", name: "Carol" });
    const olaf = await addUser(store, {
      email: "olaf@example.com",
      name: "\u00d6LAF Stra\u00dfe",
    });
    // q comes folded (NFC, then lower case); names and emails are matched
    // by the same rule.
    const page = async (q: string) => {
      const { users } = await store.listUsers({ limit: 10, q });
      return { users: users.map(withoutFactors) };
    };
    assert.deepEqual((await page("lovelace")).users, [ada, bob]);
    assert.deepEqual((await page("\u00f6laf stra\u00dfe")).users, [olaf]);
    assert.deepEqual((await page("%")).users, [pct]);
    assert.deepEqual((await page("c_t")).users, [pct]);
    assert.deepEqual((await page("nobody")).users, []);
    const first = paged(
      await store.listUsers({ limit: 1, q: "lovelace" }),
      2,
    );
    assert.deepEqual(first, { users: [ada], nextCursor: ada.id });
    const rest = paged(
      await store.listUsers({ limit: 1, q: "lovelace", cursor: ada.id }),
      2,
    );
    assert.deepEqual(rest, { users: [bob], nextCursor: null });
  }],
  [
    "listUsers() orders by creation, name or email, both ways",
    async (store) => {
      const users: UserRecord[] = [];
      for (const [i, name] of ["bea", "Al", "cy", "al", "Bo"].entries()) {
        users.push(
          await addUser(store, { email: `${"edcba"[i]}@x.example`, name }),
        );
      }
      for (const sort of USER_SORTS) {
        const expected = [...users].sort((a, b) => compareUsers(a, b, sort));
        const seen: UserRecord[] = [];
        let cursor: string | null | undefined;
        while (cursor !== null) {
          const page = await store.listUsers({
            limit: 2,
            sort,
            ...(cursor === undefined ? {} : { cursor }),
          });
          seen.push(...paged(page, 5).users);
          cursor = page.nextCursor;
        }
        assert.deepEqual(seen, expected, sort);
      }
    },
  ],
  ["hasUsers() tells whether any account exists", async (store) => {
    assert.equal(await store.hasUsers(), false);
    await addUser(store, { email: "ada@example.com" });
    assert.equal(await store.hasUsers(), true);
  }],
  ["replacePasswordHash() replaces only the expected hash", async (store) => {
    const ada = await addUser(store, {
      email: "ada@example.com",
      passwordHash: hash("old"),
    });
    const token = await addSession(store, ada.id, Date.now());
    const replace = (id: string, previous: string, next: string) =>
      store.replacePasswordHash(id, hash(previous), hash(next));
    assert.equal(await replace(ada.id, "stale", "x"), false);
    assert.equal(await replace(ada.id, "old", "new"), true);
    assert.equal(await replace(ada.id, "old", "y"), false);
    assert.equal(await replace(nextId(), "old", "y"), false);
    const found = await store.credentialsByEmail("ada@example.com");
    assert.equal(found?.passwordHash, hash("new"));
    assert.notEqual(await store.findSession(token, Date.now()), null);
  }],
];

const rules: Case[] = [
  ["updateUser() changes the role and the disabled state", async (store) => {
    const ada = await addUser(store, {
      email: "ada@example.com",
      role: "member",
    });
    const promoted = await store.updateUser(ada.id, { role: "admin" });
    assert.deepEqual(promoted, { ...ada, role: "admin" });
    const disabled = await store.updateUser(ada.id, { disabled: true });
    assert.deepEqual(disabled, { ...ada, role: "admin", disabled: true });
    assert.deepEqual(await store.userById(ada.id), disabled);
    const unchanged = await store.updateUser(ada.id, {});
    assert.deepEqual(unchanged, disabled);
    await refused(
      store.updateUser(nextId(), { disabled: true }),
      "user_not_found",
    );
  }],
  [
    "updateUser() changes the name and the mail language; a browser's language never replaces a chosen one",
    async (store) => {
      const ada = await addUser(store, { email: "ada@example.com" });
      assert.equal(ada.locale, "");
      const browser = await store.updateUser(ada.id, {
        locale: { tag: "es", chosen: false },
      });
      assert.deepEqual(browser, { ...ada, locale: "es" });
      const chosen = await store.updateUser(ada.id, {
        name: "Ada Byron",
        locale: { tag: "en", chosen: true },
      });
      assert.deepEqual(chosen, {
        ...ada,
        name: "Ada Byron",
        locale: "en",
        localeChosen: true,
      });
      const kept = await store.updateUser(ada.id, {
        locale: { tag: "es", chosen: false },
      });
      assert.deepEqual(kept, chosen);
      assert.deepEqual(await store.userById(ada.id), chosen);
      assert.deepEqual(
        (await store.credentialsByEmail("ada@example.com"))?.user,
        chosen,
      );
      // The new name is what a search finds.
      const found = await store.listUsers({ limit: 10, q: "byron" });
      assert.deepEqual(found.users.map((user) => user.id), [ada.id]);
    },
  ],
  [
    "updateUser() refuses a stale expected role with role_changed",
    async (s) => {
      const ada = await addUser(s, {
        email: "ada@example.com",
        role: "member",
      });
      await refused(
        s.updateUser(ada.id, { disabled: true, expectedRole: "admin" }),
        "role_changed",
      );
      assert.deepEqual(await s.userById(ada.id), ada);
      const done = await s.updateUser(ada.id, {
        disabled: true,
        expectedRole: "member",
      });
      assert.equal(done.disabled, true);
    },
  ],
  ["updateUser() refuses an account out of reach", async (store) => {
    const owner = await addUser(store, {
      email: "owner@example.com",
      role: "owner",
    });
    const plain = await addUser(store, { email: "plain@example.com" });
    await refused(
      store.updateUser(owner.id, {
        role: "member",
        reachableRoles: ["admin", "member"],
      }),
      "role_beyond_reach",
    );
    assert.deepEqual(await store.userById(owner.id), owner);
    // An account with no role is always within reach.
    const changed = await store.updateUser(plain.id, {
      role: "member",
      reachableRoles: [],
    });
    assert.equal(changed.role, "member");
  }],
  ["updateUser() refuses to remove the last privileged account", async (s) => {
    const keepPrivileged = ["admin", "owner"];
    const ada = await addUser(s, { email: "ada@example.com", role: "admin" });
    const off = await addUser(s, { email: "off@example.com", role: "admin" });
    await s.updateUser(off.id, { disabled: true });
    await addUser(s, { email: "mo@example.com", role: "member" });
    const last = "last_privileged_refused";
    // A disabled admin and an enabled member do not count.
    await refused(
      s.updateUser(ada.id, { role: "member", keepPrivileged }),
      last,
    );
    await refused(
      s.updateUser(ada.id, { disabled: true, keepPrivileged }),
      last,
    );
    // A repeated role is still one role.
    await refused(
      s.updateUser(ada.id, { role: "", keepPrivileged: ["admin", "admin"] }),
      last,
    );
    assert.deepEqual(await s.userById(ada.id), ada);
    // Moving between privileged roles keeps the account privileged.
    const owner = await s.updateUser(ada.id, { role: "owner", keepPrivileged });
    assert.equal(owner.role, "owner");
    // With a second privileged account (any privileged role) it may go.
    await s.updateUser(off.id, { disabled: false, keepPrivileged });
    const demoted = await s.updateUser(ada.id, {
      role: "member",
      keepPrivileged,
    });
    assert.equal(demoted.role, "member");
    await refused(
      s.updateUser(off.id, { disabled: true, keepPrivileged }),
      last,
    );
  }],
  [
    "updateUser() with an empty privileged list keeps one enabled account",
    async (s) => {
      const ada = await addUser(s, {
        email: "ada@example.com",
        role: "member",
      });
      const bob = await addUser(s, { email: "bob@example.com" });
      // Every enabled account counts, whatever its role; role changes are free.
      const plain = await s.updateUser(ada.id, {
        role: "",
        keepPrivileged: [],
      });
      assert.equal(plain.role, "");
      await s.updateUser(bob.id, { disabled: true, keepPrivileged: [] });
      await refused(
        s.updateUser(ada.id, { disabled: true, keepPrivileged: [] }),
        "last_privileged_refused",
      );
      assert.equal((await s.userById(ada.id))?.disabled, false);
    },
  ],
];

const concurrency: Case[] = [
  [
    "updateUser() keeps one privileged account under parallel demotions",
    async (s) => {
      const keepPrivileged = ["admin"];
      const admins = [];
      for (const name of ["a", "b", "c"]) {
        admins.push(
          await addUser(s, { email: `${name}@example.com`, role: "admin" }),
        );
      }
      const results = await Promise.allSettled([
        s.updateUser(admins[0]!.id, { role: "member", keepPrivileged }),
        s.updateUser(admins[1]!.id, { disabled: true, keepPrivileged }),
        s.updateUser(admins[2]!.id, { role: "", keepPrivileged }),
      ]);
      const refusals = results.filter((r) => r.status === "rejected");
      assert.equal(refusals.length, 1);
      assert.equal(refusals[0]!.reason.code, "last_privileged_refused");
      const left = (await allUsers(s)).filter((u) =>
        u.role === "admin" && !u.disabled
      );
      assert.equal(left.length, 1);
    },
  ],
  [
    "updateUser() keeps one privileged account when two demote each other",
    async (s) => {
      for (let round = 0; round < 3; round++) {
        const a = await addUser(s, {
          email: `a${round}@example.com`,
          role: "admin",
        });
        const b = await addUser(s, {
          email: `b${round}@example.com`,
          role: "admin",
        });
        const results = await Promise.allSettled([
          s.updateUser(a.id, { role: "member", keepPrivileged: ["admin"] }),
          s.updateUser(b.id, { role: "member", keepPrivileged: ["admin"] }),
        ]);
        assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
        const left = (await allUsers(s)).filter((u) => u.role === "admin");
        assert.equal(left.length, 1);
        // Leave no admin behind for the next round: a member takes over.
        await s.updateUser(left[0]!.id, { role: "member" });
      }
    },
  ],
];

/** The account cases, in the order they are registered. */
export const ACCOUNT_CASES: readonly Case[] = [
  ...schema,
  ...accounts,
  ...rules,
  ...concurrency,
];
