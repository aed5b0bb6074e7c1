// What every PostgresStore module needs: the client, the schema's tables,
// functions and locks, and the row readers. No request path runs a
// client-side transaction (postgres.js `sql.begin()`): when a connection
// dies mid-transaction, the driver writes its ROLLBACK to a dead socket
// from a timer and the process ends (porsager/postgres#1208), and under
// load it can send a BEGIN on a connection already in one (#823). Every
// change is one statement or one call of a function of the schema.

import type postgres from "postgres";
import type { Counter, UserRecord } from "../../core/store.ts";
import { coalescing } from "../_coalesce.ts";

/** A postgres.js client. */
export type Sql = postgres.Sql;
/** A table of the store's schema, as an identifier helper. */
export type Table = postgres.Helper<string, []>;

/** The store's schema, bound to one client. */
export interface PgTables {
  sql: Sql;
  users: Table;
  sessions: Table;
  links: Table;
  counters: Table;
  auditEvents: Table;
  /** The `create_session_v5` function of the schema. */
  createSession: Table;
  /** The `change_password` function of the schema. */
  changePassword: Table;
  /** The `insert_events` function of the schema. */
  insertEvents: Table;
  /** The `count_privileged` function of the schema. */
  countPrivileged: Table;
  /** The `update_user` function of the schema. */
  updateUser: Table;
  /** The `accept_invitation` function of the schema. */
  acceptInvitation: Table;
  /** The `confirm_reset` function of the schema. */
  confirmReset: Table;
  /**
   * The row of the live session behind a token hash with its account
   * (`findSessionsText`), read together with the other checks waiting at
   * the same moment: see ../_coalesce.ts.
   */
  sessionRow(tokenHash: string): Promise<postgres.Row | undefined>;
  /**
   * Advisory lock of account changes (role, disabled): they queue, so the
   * last-privileged count is race-free.
   */
  rulesLock: string;
}

/** Session rows one statement reads at most. */
const MAX_SESSIONS_PER_READ = 100;

/**
 * The tables of `schema` (already validated) on `sql`; at most
 * `sessionReadsInFlight` session reads run at once.
 */
export function pgTables(
  sql: Sql,
  schema: string,
  sessionReadsInFlight: number,
): PgTables {
  // Constant, prepared statements (postgres.js prepares each once per
  // connection): the hot path assembles no fragments or identifiers. A read
  // of one session (no load) compares with `=`: binding and scanning an
  // array costs a lone check about a tenth of a millisecond more.
  const one = findSessionsText(schema, "= $1");
  const many = findSessionsText(schema, "= ANY($1::text[])");
  const sessionRow = coalescing<string, postgres.Row | undefined>({
    async readMany(hashes) {
      const rows = hashes.length === 1
        ? await sql.unsafe(one, [hashes[0]!], { prepare: true })
        : await sql.unsafe(many, [hashes], { prepare: true });
      const byHash = new Map<string, postgres.Row>();
      for (const row of rows) byHash.set(row.token_hash, row);
      return hashes.map((hash) => byHash.get(hash));
    },
    take: (waiting) => Math.min(waiting.length, MAX_SESSIONS_PER_READ),
    maxInFlight: sessionReadsInFlight,
  });
  return {
    sql,
    users: sql(`${schema}.users`),
    sessions: sql(`${schema}.sessions`),
    links: sql(`${schema}.links`),
    counters: sql(`${schema}.counters`),
    auditEvents: sql(`${schema}.audit_events`),
    createSession: sql(`${schema}.create_session_v5`),
    changePassword: sql(`${schema}.change_password`),
    insertEvents: sql(`${schema}.insert_events`),
    countPrivileged: sql(`${schema}.count_privileged`),
    updateUser: sql(`${schema}.update_user`),
    acceptInvitation: sql(`${schema}.accept_invitation`),
    confirmReset: sql(`${schema}.confirm_reset`),
    sessionRow,
    rulesLock: `gatehouse.account_rules:${schema}`,
  };
}

// The session check of one token hash (`= $1`) or several (`= ANY($1)`):
// each session by its primary key, joined to its account by the account's
// primary key; the account's row carries its second factors (kept by triggers).
// Expiry is compared by the caller.
function findSessionsText(schema: string, match: string): string {
  return `SELECT s.token_hash, u.id, u.email, u.name, u.role, u.created_at, s.id AS session_id, s.created_at AS session_created_at, s.expires_at, s.last_seen_at, s.authenticated_at, u.totp_enabled, u.passkey_count, u.factor_version FROM "${schema}".sessions s JOIN "${schema}".users u ON u.id = s.user_id WHERE s.token_hash ${match} AND NOT u.disabled AND u.generation = s.generation`;
}

// bigint columns arrive as strings by default (or as BigInt with custom
// types); Number() reads either, and millisecond times fit a double exactly.
/** The account of a row with its public columns. */
export function toUser(row: postgres.Row): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    createdAt: Number(row.created_at),
  };
}

/** A counter row. */
export function toCounter(row: postgres.Row): Counter {
  return { count: Number(row.count), resetAt: Number(row.reset_at) };
}

/** The SQLSTATE of a driver error, or "". */
export function codeOf(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err
    ? String(err.code)
    : "";
}

/**
 * Deletes up to `limit` rows of `table` whose `expiry` column is at or
 * before `now`; returns how many. `= ANY(ARRAY(…))` makes the batch an
 * InitPlan and the delete a primary-key lookup; `IN (…)` was planned as a
 * hash semi-join over a sequential scan of the whole table, once per batch
 * (bench: reaper). Rows another sweep holds are skipped.
 */
export async function deleteExpired(
  t: PgTables,
  table: Table,
  columns: { key: string; expiry: string },
  now: number,
  limit: number,
): Promise<number> {
  const key = t.sql(columns.key);
  const expiry = t.sql(columns.expiry);
  const result = await t.sql`
    DELETE FROM ${table} WHERE ${key} = ANY(ARRAY(
      SELECT ${key} FROM ${table} WHERE ${expiry} <= ${now}
      LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
  return result.count;
}
