// Limiter counters on SQLite: fixed windows, one row each. A reservation is
// one upsert that refuses at the limit, in a write transaction, so
// reservations from every connection queue on the write lock and each sees
// the count the one before it committed.

import type {
  AttemptWindow,
  Counter,
  Reservation,
} from "../../core/records.ts";
import type { Connection, Row } from "./_connection.ts";
import { COUNTERS } from "./_schema.ts";

const toCounter = (row: Row): Counter => ({
  count: Number(row.count),
  resetAt: Number(row.reset_at),
});

/** Reserves one attempt unless the open window already counts `limit`. */
export function reserveAttempt(
  c: Connection,
  key: string,
  { now, windowMs, limit }: AttemptWindow,
): Reservation {
  return c.write(() => {
    const row = c.statement(`
      INSERT INTO ${COUNTERS} AS c (key, count, reset_at)
      VALUES (:key, 1, :end)
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN c.reset_at > :now THEN c.count + 1 ELSE 1 END,
        reset_at = CASE WHEN c.reset_at > :now THEN c.reset_at
          ELSE excluded.reset_at END
      WHERE c.reset_at <= :now OR c.count < :limit
      RETURNING count, reset_at`).get({ key, end: now + windowMs, now, limit });
    if (row !== undefined) return { admitted: true, ...toCounter(row) };
    // Refused: the open window is full (the upsert wrote nothing).
    const full = c.statement(
      `SELECT count, reset_at FROM ${COUNTERS} WHERE key = ?`,
    ).get(key)!;
    return { admitted: false, ...toCounter(full) };
  });
}

/** Gives one attempt back to the window ending at `resetAt`, if still there. */
export function releaseAttempt(
  c: Connection,
  key: string,
  resetAt: number,
): void {
  c.write(() =>
    c.statement(`
      UPDATE ${COUNTERS} SET count = count - 1
      WHERE key = ? AND reset_at = ? AND count > 0`).run(key, resetAt)
  );
}

/** The counter if its window is open at `now`. */
export function readCounter(
  c: Connection,
  key: string,
  now: number,
): Counter | null {
  const row = c.statement(
    `SELECT count, reset_at FROM ${COUNTERS} WHERE key = ? AND reset_at > ?`,
  ).get(key, now);
  return row === undefined ? null : toCounter(row);
}

/** Deletes up to `limit` counters whose window ended by `now`. */
export function deleteExpiredCounters(
  c: Connection,
  now: number,
  limit: number,
): number {
  return c.write(() =>
    Number(
      c.statement(`
        DELETE FROM ${COUNTERS} WHERE key IN (
          SELECT key FROM ${COUNTERS} WHERE reset_at <= ?
          ORDER BY reset_at LIMIT ?)`).run(now, limit).changes,
    )
  );
}
