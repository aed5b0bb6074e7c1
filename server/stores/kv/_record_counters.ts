// Limiter counters in KvRecords: fixed windows, each a counter record plus
// an entry in the counters' expiry index under the time its window ends.
// Attempts are reserved before the work they allow and given back when it
// did not count. A counter keeps its own atomic read-modify-write: going
// through read() and commit() would add a round trip to every limited
// request.

import type {
  AttemptWindow,
  Counter,
  Reservation,
} from "../../core/records.ts";
import { commit, retry } from "./_atomic.ts";
import { batching } from "../_coalesce.ts";
import { READ_BATCH, type RecordKeys, ttl } from "./_record_keys.ts";

/**
 * Reserves an attempt: one versionstamp-checked read-modify-write, retried
 * on conflict without a cap. It converges under any burst because a full
 * window is refused on the read alone, without a write that others would
 * conflict with.
 */
export function reserveAttempt(
  kv: Deno.Kv,
  k: RecordKeys,
  key: string,
  window: AttemptWindow,
): Promise<Reservation> {
  const { now, windowMs, limit } = window;
  return retry<Reservation>(async () => {
    const entry = await kv.get<Counter>(k.counter(key));
    const current = entry.value;
    const open = current !== null && current.resetAt > now;
    if (open && current.count >= limit) {
      return { op: null, result: { admitted: false, ...current } };
    }
    const next: Counter = open
      ? { count: current.count + 1, resetAt: current.resetAt }
      : { count: 1, resetAt: now + windowMs };
    const op = kv.atomic().check(entry)
      .set(k.counter(key), next, ttl(next.resetAt, now));
    if (!open) {
      if (current !== null) {
        op.delete(k.counterExpiry(current.resetAt, key));
      }
      op.set(k.counterExpiry(next.resetAt, key), null);
    }
    return { op, result: { admitted: true, ...next } };
  });
}

/** Gives one attempt back to the window ending at `resetAt`, if still open. */
export async function releaseAttempt(
  kv: Deno.Kv,
  k: RecordKeys,
  key: string,
  resetAt: number,
): Promise<void> {
  await retry(async () => {
    const entry = await kv.get<Counter>(k.counter(key));
    const counter = entry.value;
    if (counter === null || counter.resetAt !== resetAt || counter.count <= 0) {
      return { op: null, result: undefined };
    }
    const op = kv.atomic().check(entry).set(
      k.counter(key),
      { count: counter.count - 1, resetAt },
      ttl(resetAt, Date.now()),
    );
    return { op, result: undefined };
  });
}

/** A counter's read: its key, and the time its window must be open at. */
export interface CounterQuery {
  key: string;
  now: number;
}

/**
 * Reads counters, those asked for in the same turn in one getMany (the
 * account lock reads three at once, beside the account's own read).
 */
export function counterReader(
  kv: Deno.Kv,
  k: RecordKeys,
): (query: CounterQuery) => Promise<Counter | null> {
  return batching<CounterQuery, Counter | null>(async (queries) => {
    const entries = await kv.getMany<Counter[]>(
      queries.map((q) => k.counter(q.key)),
    );
    return entries.map(({ value }, i) =>
      value !== null && value.resetAt > queries[i]!.now ? value : null
    );
  }, READ_BATCH);
}

/** Deletes up to `limit` counters whose window ended by `now`. */
export async function deleteExpiredCounters(
  kv: Deno.Kv,
  k: RecordKeys,
  now: number,
  limit: number,
): Promise<number> {
  if (limit <= 0) return 0;
  let deleted = 0;
  const selector = {
    prefix: k.counterExpiries(),
    end: [...k.counterExpiries(), now + 1],
  };
  for await (const entry of kv.list(selector, { limit })) {
    const [at, key] = entry.key.slice(-2) as [number, string];
    const counter = await kv.get<Counter>(k.counter(key));
    const op = kv.atomic().delete(entry.key);
    // A counter that started a new window since keeps its record.
    if (counter.value !== null && counter.value.resetAt === at) {
      op.check(counter).delete(k.counter(key));
    }
    if ((await commit(op)).ok) deleted++;
  }
  return deleted;
}
