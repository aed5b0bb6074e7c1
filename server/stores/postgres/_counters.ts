// Limiter counters in PostgresStore: fixed windows, each attempt reserved by
// one upsert that refuses at the limit (the row lock makes concurrent
// reservations queue, each seeing the count the one before committed).

import type { AttemptWindow, Counter, Reservation } from "../../core/store.ts";
import { type PgTables, toCounter } from "./_tables.ts";

/** Reserves one attempt unless the open window already counts `limit`. */
export async function reserveAttempt(
  t: PgTables,
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
  t: PgTables,
  key: string,
  resetAt: number,
): Promise<void> {
  await t.sql`
    UPDATE ${t.counters} SET count = count - 1
    WHERE key = ${key} AND reset_at = ${resetAt} AND count > 0`;
}

/** The counter if its window is open at `now`. */
export async function readCounter(
  t: PgTables,
  key: string,
  now: number,
): Promise<Counter | null> {
  const [row] = await t.sql`
    SELECT count, reset_at FROM ${t.counters}
    WHERE key = ${key} AND reset_at > ${now}`;
  return row === undefined ? null : toCounter(row);
}
