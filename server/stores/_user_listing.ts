// Listing accounts in memory, for stores without an index to sort by (KV):
// the search filter, the orders of `UserQuery.sort` and the keyset cursor,
// as one pure function over every account. Postgres does the same in SQL
// on the folded columns (postgres/_user_listing.ts);
// tests/server/list_users_sort_test.ts holds both to one result. Names and
// emails compare by their folded form (`fold`: NFC, then lower case), the
// form searches match.

import { compareKeys, fold } from "../core/_fold.ts";
import type {
  UserPage,
  UserQuery,
  UserRecord,
  UserSort,
} from "../core/store.ts";

/**
 * Whether `user` matches the search `q`: folded text (as `UserQuery.q`
 * holds it) within the folded email or the folded name.
 */
export function matchesSearch(
  user: UserRecord,
  q: string | undefined,
): boolean {
  return q === undefined || q === "" || fold(user.email).includes(q) ||
    fold(user.name).includes(q);
}

/** An account with the key its order compares first. */
interface Keyed {
  user: UserRecord;
  key: string;
}

/** The field an order compares and whether it is reversed. */
function orderOf(sort: UserSort): { field: string; descending: boolean } {
  const descending = sort.startsWith("-");
  return { field: descending ? sort.slice(1) : sort, descending };
}

// Folded once per account and listing, not once per comparison.
function keyed(user: UserRecord, field: string): Keyed {
  const key = field === "name"
    ? fold(user.name)
    : field === "email"
    ? fold(user.email)
    : user.id;
  return { user, key };
}

// Ids (UUIDv7, so creation order) break ties.
function compareKeyed(a: Keyed, b: Keyed, descending: boolean): number {
  const byKey = compareKeys(a.key, b.key);
  const order = byKey !== 0
    ? Math.sign(byKey)
    : a.user.id < b.user.id
    ? -1
    : a.user.id > b.user.id
    ? 1
    : 0;
  return descending ? -order : order;
}

/** Compares two accounts in `sort`'s order. */
export function compareUsers(
  a: UserRecord,
  b: UserRecord,
  sort: UserSort = "created",
): number {
  const { field, descending } = orderOf(sort);
  return compareKeyed(keyed(a, field), keyed(b, field), descending);
}

/**
 * The page `query` asks for out of `all` (every account, in any order): the
 * matching accounts in the query's order, those after the cursor's account,
 * `limit` of them, and how many match in all. A cursor naming no account
 * gives an empty last page (ids are never reused, so only a forged one can).
 */
export function pageOf(all: readonly UserRecord[], query: UserQuery): UserPage {
  const sort = query.sort ?? "created";
  const { field, descending } = orderOf(sort);
  const matching = all.filter((user) => matchesSearch(user, query.q))
    .map((user) => keyed(user, field))
    .sort((a, b) => compareKeyed(a, b, descending));
  let rest = matching;
  if (query.cursor !== undefined) {
    const found = all.find((user) => user.id === query.cursor) ??
      (field === "created" ? placeholder(query.cursor) : undefined);
    const cursor = found === undefined ? undefined : keyed(found, field);
    rest = cursor === undefined
      ? []
      : matching.filter((entry) => compareKeyed(entry, cursor, descending) > 0);
  }
  const users = rest.slice(0, query.limit).map((entry) => entry.user);
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
