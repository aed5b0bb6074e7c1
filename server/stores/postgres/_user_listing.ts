// Listing accounts on Postgres: the search filter, the orders of
// `UserQuery.sort` and the keyset cursor in SQL, plus the count of every
// match. Names and emails compare by their folded columns (`name_key`,
// `email_key`, folded in JavaScript) in code-point order (`COLLATE "C"`),
// never by the database's locale, as the KV store does in memory
// (../_user_listing.ts).

import type postgres from "postgres";
import type { UserPage, UserQuery, UserRecord } from "../../core/store.ts";

/**
 * The page `query` asks for from the `users` table, and the total.
 *
 * @param sql The client.
 * @param users The table (`sql("schema.users")`).
 * @param query Limit, cursor (an id already checked to be a UUID), folded
 *   search and order.
 * @param toUser Reads a row.
 */
export async function listUsersPage(
  sql: postgres.Sql,
  users: postgres.Helper<string, []>,
  query: UserQuery,
  toUser: (row: postgres.Row) => UserRecord,
): Promise<UserPage> {
  const sort = query.sort ?? "created";
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  const key = field === "name"
    ? sql`name_key COLLATE "C"`
    : field === "email"
    ? sql`email_key COLLATE "C"`
    : sql`id`;
  const after = query.cursor ?? null;
  const needle = query.q ?? "";
  const pattern = `%${needle.replace(/[\\%_]/g, "\\$&")}%`;
  const search = sql`(${needle} = ''
    OR email_key LIKE ${pattern} OR name_key LIKE ${pattern})`;
  // The cursor is the last id of the previous page; its row gives the key
  // to continue from (no row: an empty page, as on KV).
  const from = after === null
    ? sql`TRUE`
    : field === "created"
    ? (descending ? sql`id < ${after}::uuid` : sql`id > ${after}::uuid`)
    : descending
    ? sql`(${key}, id) < (SELECT ${key}, id FROM ${users} WHERE id = ${after}::uuid)`
    : sql`(${key}, id) > (SELECT ${key}, id FROM ${users} WHERE id = ${after}::uuid)`;
  const order = descending ? sql`${key} DESC, id DESC` : sql`${key}, id`;
  // One row more than asked tells whether another page follows.
  const [rows, [count]] = await Promise.all([
    sql`
      SELECT id, email, name, role, disabled, created_at,
        totp_enabled, passkey_count FROM ${users}
      WHERE ${search} AND ${from}
      ORDER BY ${order} LIMIT ${query.limit + 1}`,
    sql`SELECT count(*) AS n FROM ${users} WHERE ${search}`,
  ]);
  // The row carries its factors (kept by triggers), so the list tells them.
  const page = rows.slice(0, query.limit).map((row) => ({
    ...toUser(row),
    secondFactor: {
      totp: row.totp_enabled === true,
      passkeys: Number(row.passkey_count),
    },
  }));
  return {
    users: page,
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
    total: Number(count!.n),
  };
}
