// Pages and sweeps of PostgresRecords: accounts in a chosen order with a
// search and the count of matches (PostgresStore's listing, _user_listing.ts,
// answering whole records), audit events newest first (PostgresStore's
// listing, _audit.ts, without the reach filter: the rules apply reach), and
// the bounded expiry sweep of each expiring kind.

import type postgres from "postgres";
import { isUuid } from "../../core/_crypto.ts";
import {
  type AccountPage,
  type AccountQuery,
  type AccountRecord,
  type AuditEvent,
  type EventQuery,
  type ExpiringKind,
  KINDS,
} from "../../core/records.ts";
import { columnOf, fromRow, type RowJson, TABLES } from "./_columns.ts";

/** A schema's tables used here, as identifier helpers. */
export interface ListingTables {
  sql: postgres.Sql;
  users: postgres.Helper<string, []>;
  auditEvents: postgres.Helper<string, []>;
}

/**
 * The page of accounts `query` asks for, and the number of matches. Names
 * and emails compare by their folded columns in code-point order
 * (`COLLATE "C"`), never by the database's locale; the cursor is the last
 * id of the previous page, whose row gives the key to continue from (no
 * such row: an empty page).
 */
export async function accountsPage(
  t: ListingTables,
  query: AccountQuery,
): Promise<AccountPage> {
  const { sql, users } = t;
  const after = query.cursor ?? null;
  if (after !== null && !isUuid(after)) {
    throw new TypeError(`Invalid cursor: "${after.slice(0, 64)}"`);
  }
  const sort = query.sort ?? "created";
  const descending = sort.startsWith("-");
  const field = descending ? sort.slice(1) : sort;
  const key = field === "name"
    ? sql`name_key COLLATE "C"`
    : field === "email"
    ? sql`email_key COLLATE "C"`
    : sql`id`;
  const needle = query.q ?? "";
  const pattern = `%${needle.replace(/[\\%_]/g, "\\$&")}%`;
  const search = sql`(${needle} = ''
    OR email_key LIKE ${pattern} OR name_key LIKE ${pattern})`;
  const from = after === null
    ? sql`TRUE`
    : field === "created"
    ? (descending ? sql`id < ${after}::uuid` : sql`id > ${after}::uuid`)
    : descending
    ? sql`(${key}, id) < (SELECT ${key}, id FROM ${users} WHERE id = ${after}::uuid)`
    : sql`(${key}, id) > (SELECT ${key}, id FROM ${users} WHERE id = ${after}::uuid)`;
  const order = descending ? sql`${key} DESC, id DESC` : sql`${key}, id`;
  // One row more than asked tells whether another page follows. The count
  // is a subquery of the same statement, so page and total come from one
  // snapshot (two statements could each see a different set of accounts
  // while others are created); a page with no row counts alone.
  const counted = sql`(SELECT count(*) FROM ${users} WHERE ${search})`;
  const rows = await sql`
    SELECT row_to_json(u) AS r, ${counted} AS n FROM ${users} u
    WHERE ${search} AND ${from}
    ORDER BY ${order} LIMIT ${query.limit + 1}`;
  const count = rows.length > 0
    ? rows[0]!
    : (await sql`SELECT ${counted} AS n`)[0];
  const accounts: AccountRecord[] = rows.slice(0, query.limit).map((row) =>
    fromRow("account", row.r as RowJson)
  );
  return {
    accounts,
    nextCursor: rows.length > query.limit
      ? accounts[accounts.length - 1]!.id
      : null,
    total: Number(count!.n),
  };
}

/**
 * A page of events, newest first (ids are UUIDv7, so id order is time
 * order): every page an index range read, under any of the filters.
 */
export async function eventsPage(
  t: ListingTables,
  query: EventQuery,
): Promise<AuditEvent[]> {
  const { sql, auditEvents } = t;
  const cursor = query.cursor ?? null;
  if (cursor !== null && !isUuid(cursor)) {
    throw new TypeError(`Invalid cursor: "${cursor.slice(0, 64)}"`);
  }
  const user = query.userId ?? null;
  if (user !== null && !isUuid(user)) return [];
  const before = cursor === null ? sql`` : sql`AND id < ${cursor}::uuid`;
  const type = query.type === undefined ? sql`` : sql`AND type = ${query.type}`;
  const limit = query.limit;
  // Actor and target each have an index; the union of the two ranges
  // keeps a page an index read, where an OR would scan.
  const rows = user === null
    ? await sql`
      SELECT row_to_json(e) AS r FROM ${auditEvents} AS e WHERE true ${before}
        ${type}
      ORDER BY id DESC LIMIT ${limit}`
    : await sql`
      SELECT row_to_json(e) AS r FROM (
        (SELECT * FROM ${auditEvents} WHERE actor_id = ${user}::uuid
          ${before} ${type} ORDER BY id DESC LIMIT ${limit})
        UNION
        (SELECT * FROM ${auditEvents} WHERE target_id = ${user}::uuid
          ${before} ${type} ORDER BY id DESC LIMIT ${limit})
      ) AS e ORDER BY e.id DESC LIMIT ${limit}`;
  return rows.map((row) => fromRow("event", row.r as RowJson));
}

/**
 * Deletes up to `limit` records of `kind` that ended at or before `before`;
 * returns how many. Rows a commit or another sweep holds are skipped.
 *
 * The batch is found through the kind's expiry index, oldest first, and
 * deleted by `ctid` (a TID scan of the rows just locked, no key index
 * probes). A batch that took the first rows of a sequential scan, as the
 * sweep did before, stepped over every row the earlier batches of the same
 * sweep had deleted (dead until vacuum) and over the live rows: each batch
 * cost more than the last, and the Reaper, which makes a slow batch's
 * successors smaller, turned that into many more such scans (bench: reaper,
 * a sweep of 100 000 sessions 2.9–158 s; 2.8–7.0 s now). Through the index
 * a batch costs the same at the end of a sweep as at its start. The expiry
 * is checked again on the rows deleted, so a row whose `ctid` were to name
 * another version than the one locked is left to the next sweep, never
 * deleted unexpired.
 */
export async function deleteExpiredRecords(
  sql: postgres.Sql,
  schema: string,
  kind: ExpiringKind,
  before: number,
  limit: number,
): Promise<number> {
  const result = await sql.unsafe(sweepText(schema, kind), [before, limit], {
    prepare: true,
  });
  return result.count;
}

// The sweep statement of each kind, built once per schema: the text is
// constant, so postgres.js prepares it once a connection.
const SWEEPS = new Map<string, string>();
function sweepText(schema: string, kind: ExpiringKind): string {
  const name = `${schema}.${kind}`;
  let text = SWEEPS.get(name);
  if (text === undefined) {
    const table = `"${schema}"."${TABLES[kind].table}"`;
    const expiry = `"${columnOf(kind, KINDS[kind].expiry).name}"`;
    text = `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM ${table} WHERE ${expiry} <= $1::bigint
      ORDER BY ${expiry} LIMIT $2::integer FOR UPDATE SKIP LOCKED))
      AND ${expiry} <= $1::bigint`;
    SWEEPS.set(name, text);
  }
  return text;
}
