// The account list's pages for the users table: the client's `listUsers`
// with the order asked for, read as the table needs it. A server that
// answers `total` also sorts (both came in one version); an older server,
// or an app's own transport that counts nothing, lists in creation order,
// and the table then offers no order of its own.

import { listUsers } from "../admin_calls.ts";
import type { User, UserSort } from "../types.ts";

/** What the table asks for. */
export interface UsersPageQuery {
  readonly limit: number;
  readonly cursor?: string;
  readonly q?: string;
  readonly sort: UserSort;
}

/** A page as the table shows it. */
export interface UsersPage {
  readonly users: readonly User[];
  readonly nextCursor: string | null;
  /** Accounts matching over every page; null when the server does not count. */
  readonly total: number | null;
  /** Whether the page came in the order asked for. */
  readonly sorted: boolean;
}

/** A page of accounts in `query.sort`'s order, with the total. */
export async function listUsersPage(query: UsersPageQuery): Promise<UsersPage> {
  const { limit, cursor, q, sort } = query;
  const page = await listUsers({
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(q === undefined ? {} : { q }),
    ...(sort === "created" ? {} : { sort }),
  });
  const total = page.total ?? null;
  return {
    users: page.users,
    nextCursor: page.nextCursor,
    total,
    sorted: total !== null || sort === "created",
  };
}
