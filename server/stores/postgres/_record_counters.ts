// Limiter counters in PostgresRecords, as PostgresStore keeps them
// (_counters.ts): fixed windows, each attempt reserved by one upsert that
// refuses at the limit (the row lock makes concurrent reservations queue,
// each seeing the count the one before committed), each release one update.

import type postgres from "postgres";
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
  const counter = await readCounter(t, key, now);
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

/** The counter if its window is open at `now`. */
export async function readCounter(
  t: CounterTable,
  key: string,
  now: number,
): Promise<Counter | null> {
  const [row] = await t.sql`
    SELECT count, reset_at FROM ${t.counters}
    WHERE key = ${key} AND reset_at > ${now}`;
  return row === undefined ? null : toCounter(row);
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
