// Listing accounts in memory, for stores without an index to sort by (KV):
// the search filter, the orders of `UserQuery.sort` and the keyset cursor,
// as one pure function over every account. Postgres does the same in SQL
// (postgres.ts); tests/server/list_users_test.ts holds both to one result.

import type { UserPage, UserQuery, UserRecord, UserSort } from "../store.ts";

/** Whether `user` matches the search `q` (a case-insensitive substring of email or name). */
export function matchesSearch(
  user: UserRecord,
  q: string | undefined,
): boolean {
  const needle = q?.trim().toLowerCase() ?? "";
  return needle === "" || user.email.toLowerCase().includes(needle) ||
    user.name.toLowerCase().includes(needle);
}

/** The key an order compares first; ids (UUIDv7, so creation order) break ties. */
function keyOf(user: UserRecord, field: string): string {
  if (field === "name") return user.name.toLowerCase();
  if (field === "email") return user.email.toLowerCase();
  return user.id;
}

/** Compares two accounts in `sort`'s order. */
export function compareUsers(
  a: UserRecord,
  b: UserRecord,
  sort: UserSort = "created",
): number {
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  const [ka, kb] = [keyOf(a, field), keyOf(b, field)];
  const order = ka < kb
    ? -1
    : ka > kb
    ? 1
    : a.id < b.id
    ? -1
    : a.id > b.id
    ? 1
    : 0;
  return descending ? -order : order;
}

/**
 * The page `query` asks for out of `all` (every account, in any order): the
 * matching accounts in the query's order, those after the cursor's account,
 * `limit` of them, and how many match in all. A cursor naming no account
 * gives an empty last page (ids are never reused, so only a forged one can).
 */
export function pageOf(all: readonly UserRecord[], query: UserQuery): UserPage {
  const sort = query.sort ?? "created";
  const matching = all.filter((user) => matchesSearch(user, query.q))
    .sort((a, b) => compareUsers(a, b, sort));
  let rest = matching;
  if (query.cursor !== undefined) {
    const cursor = all.find((user) => user.id === query.cursor) ??
      (sort.endsWith("created") ? placeholder(query.cursor) : undefined);
    rest = cursor === undefined
      ? []
      : matching.filter((user) => compareUsers(user, cursor, sort) > 0);
  }
  const users = rest.slice(0, query.limit);
  return {
    users,
    nextCursor: rest.length > query.limit ? users[users.length - 1]!.id : null,
    total: matching.length,
  };
}

// In creation order the cursor's id alone says where the page starts.
function placeholder(id: string): UserRecord {
  return { id, email: "", name: "", role: "", disabled: false, createdAt: 0 };
}
