// Limiter counters in PostgresRecords, as PostgresStore keeps them
// (_counters.ts): fixed windows, each attempt reserved by one upsert that
// refuses at the limit (the row lock makes concurrent reservations queue,
// each seeing the count the one before committed), each release one update.

import type postgres from "postgres";
import { batching } from "../_coalesce.ts";
import type {
  AttemptWindow,
  Counter,
  Reservation,
} from "../../core/records.ts";

/** The counters table of one schema, on one client. */
export interface CounterTable {
  sql: postgres.Sql;
  /** The table, as an identifier helper (`sql("schema.counters")`). */
  counters: postgres.Helper<string, []>;
}

/** Reserves one attempt unless the open window already counts `limit`. */
export async function reserveAttempt(
  t: CounterTable,
  key: string,
  window: AttemptWindow,
): Promise<Reservation> {
  const { now, windowMs, limit } = window;
  const [row] = await t.sql`
    INSERT INTO ${t.counters} AS c (key, count, reset_at)
    VALUES (${key}, 1, ${now + windowMs})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN c.reset_at > ${now} THEN c.count + 1 ELSE 1 END,
      reset_at = CASE WHEN c.reset_at > ${now} THEN c.reset_at
        ELSE excluded.reset_at END
    WHERE c.reset_at <= ${now} OR c.count < ${limit}
    RETURNING count, reset_at`;
  if (row !== undefined) return { admitted: true, ...toCounter(row) };
  // Refused: the window is full. Its end is for Retry-After.
  const [found] = await t.sql`
    SELECT count, reset_at FROM ${t.counters}
    WHERE key = ${key} AND reset_at > ${now}`;
  const counter = found === undefined ? null : toCounter(found);
  return {
    admitted: false,
    ...(counter ?? { count: limit, resetAt: now + windowMs }),
  };
}

/** Gives one attempt back to the window ending at `resetAt`. */
export async function releaseAttempt(
  t: CounterTable,
  key: string,
  resetAt: number,
): Promise<void> {
  await t.sql`
    UPDATE ${t.counters} SET count = count - 1
    WHERE key = ${key} AND reset_at = ${resetAt} AND count > 0`;
}

/** A counter's read: its key, and the time its window must be open at. */
export interface CounterQuery {
  key: string;
  now: number;
}

/**
 * Reads counters, those asked for in the same turn in one statement (the
 * account lock reads three at once).
 */
export function counterReader(
  t: CounterTable,
): (query: CounterQuery) => Promise<Counter | null> {
  return batching<CounterQuery, Counter | null>(async (queries) => {
    const keys = [...new Set(queries.map((q) => q.key))];
    const rows = await t.sql`
      SELECT key, count, reset_at FROM ${t.counters} WHERE key = ANY(${keys})`;
    const found = new Map(rows.map((row) => [row.key as string, row]));
    return queries.map(({ key, now }) => {
      const row = found.get(key);
      const counter = row === undefined ? null : toCounter(row);
      return counter !== null && counter.resetAt > now ? counter : null;
    });
  }, 100);
}

/**
 * Deletes up to `limit` counters whose window ended by `now` (rows another
 * sweep holds are skipped); returns how many.
 */
export async function deleteExpiredCounters(
  t: CounterTable,
  now: number,
  limit: number,
): Promise<number> {
  const result = await t.sql`
    DELETE FROM ${t.counters} WHERE key = ANY(ARRAY(
      SELECT key FROM ${t.counters} WHERE reset_at <= ${now}
      LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
  return result.count;
}

// bigint arrives as a string by default; Number() reads either form.
function toCounter(row: postgres.Row): Counter {
  return { count: Number(row.count), resetAt: Number(row.reset_at) };
}
