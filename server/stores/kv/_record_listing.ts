// Listing accounts in KvRecords: KV has no index to sort by, so every
// account is read and the page is cut in memory: the search filter, the
// orders of `AccountQuery.sort` and the keyset cursor, as one pure
// function. Names and emails compare by their stored folded forms
// (`nameKey`, `emailKey`), by code point as PostgreSQL does on its folded
// columns (`compareKeys`); ids (UUIDv7, so creation order) break ties.

import { compareKeys } from "../../core/_fold.ts";
import type {
  AccountPage,
  AccountQuery,
  AccountRecord,
} from "../../core/records.ts";

/** A place in an order: the key compared first, then the id. */
interface Position {
  key: string;
  id: string;
}

/** An account with its place in the order. */
interface Keyed extends Position {
  account: AccountRecord;
}

function keyed(account: AccountRecord, field: string): Keyed {
  const key = field === "name"
    ? account.nameKey
    : field === "email"
    ? account.emailKey
    : account.id;
  return { account, key, id: account.id };
}

function compareKeyed(a: Position, b: Position, descending: boolean): number {
  const byKey = compareKeys(a.key, b.key);
  const order = byKey !== 0
    ? Math.sign(byKey)
    : a.id < b.id
    ? -1
    : a.id > b.id
    ? 1
    : 0;
  return descending ? -order : order;
}

/** Whether `account` matches the folded search text `q`. */
function matches(account: AccountRecord, q: string | undefined): boolean {
  return q === undefined || q === "" || account.emailKey.includes(q) ||
    account.nameKey.includes(q);
}

/**
 * The page `query` asks for out of `all` (every account, in any order):
 * the matching accounts in the query's order, those after the cursor's
 * account, `limit` of them, and how many match in all. A cursor naming no
 * account gives an empty last page, except in creation order, where the
 * id alone says where the page starts.
 */
export function accountPage(
  all: readonly AccountRecord[],
  query: AccountQuery,
): AccountPage {
  const sort = query.sort ?? "created";
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  const matching = all.filter((account) => matches(account, query.q))
    .map((account) => keyed(account, field))
    .sort((a, b) => compareKeyed(a, b, descending));
  let rest = matching;
  if (query.cursor !== undefined) {
    const cursorId = query.cursor;
    const found = all.find((account) => account.id === cursorId);
    const cursor: Position | undefined = found !== undefined
      ? keyed(found, field)
      : field === "created"
      ? { key: cursorId, id: cursorId }
      : undefined;
    rest = cursor === undefined
      ? []
      : matching.filter((entry) => compareKeyed(entry, cursor, descending) > 0);
  }
  const accounts = rest.slice(0, query.limit).map((entry) => entry.account);
  return {
    accounts,
    nextCursor: rest.length > query.limit
      ? accounts[accounts.length - 1]!.id
      : null,
    total: matching.length,
  };
}
