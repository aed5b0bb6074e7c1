// What every PostgresStore module needs: the client, the schema's tables
// and locks, the transaction runner, and the row readers.

import type postgres from "postgres";
import type { Counter, UserRecord } from "../../store.ts";

/** A postgres.js client. */
export type Sql = postgres.Sql;
/** A postgres.js transaction. */
export type Tx = postgres.TransactionSql;
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
  /** The second factors the session check reads with the account. */
  totp: Table;
  passkeys: Table;
  /** The `create_session_v5` function of the schema (migration 5). */
  createSession: Table;
  /** The `change_password` function of the schema (migration 3). */
  changePassword: Table;
  /** The `insert_events` function of the schema (migration 3). */
  insertEvents: Table;
  /**
   * Advisory lock of account changes (role, disabled): they queue, so the
   * last-privileged count is race-free.
   */
  rulesLock: string;
  /** Runs `work` in one transaction, again after a serialization failure. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

// Serialization failures and deadlocks are safe to retry: nothing committed.
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

/** The tables of `schema` (already validated) on `sql`. */
export function pgTables(sql: Sql, schema: string): PgTables {
  return {
    sql,
    users: sql(`${schema}.users`),
    sessions: sql(`${schema}.sessions`),
    links: sql(`${schema}.links`),
    counters: sql(`${schema}.counters`),
    auditEvents: sql(`${schema}.audit_events`),
    totp: sql(`${schema}.totp`),
    passkeys: sql(`${schema}.passkeys`),
    createSession: sql(`${schema}.create_session_v5`),
    changePassword: sql(`${schema}.change_password`),
    insertEvents: sql(`${schema}.insert_events`),
    rulesLock: `gatehouse.account_rules:${schema}`,
    async transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
      for (let attempt = 1;; attempt++) {
        try {
          return await sql.begin(work) as T;
        } catch (err) {
          if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(codeOf(err))) {
            throw err;
          }
        }
      }
    },
  };
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
