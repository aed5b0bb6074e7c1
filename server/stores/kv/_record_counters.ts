// Limiter counters in KvRecords: fixed windows, each a counter record plus
// an entry in the counters' expiry index under the time its window ends.
// Attempts are reserved before the work they allow and given back when it
// did not count. A counter keeps its own atomic read-modify-write: going
// through read() and commit() would add a round trip to every limited
// request. Counters are read (readCounter, and a reservation's read) by the
// records' reader, with the records asked for in the same turn
// (_record_reads.ts).

import type {
  AttemptWindow,
  Counter,
  Reservation,
} from "../../core/records.ts";
import { commit, retry } from "./_atomic.ts";
import { type RecordKeys, ttl } from "./_record_keys.ts";
import type { KvReader } from "./_record_reads.ts";

/**
 * Reserves an attempt: one versionstamp-checked read-modify-write, retried
 * on conflict without a cap. It converges under any burst because a full
 * window is refused on the read alone, without a write that others would
 * conflict with. The read goes through `reader`, with whatever else is
 * read in the same turn (the account lock reserves beside its sign-in's
 * reads).
 */
export function reserveAttempt(
  kv: Deno.Kv,
  k: RecordKeys,
  key: string,
  window: AttemptWindow,
  reader: Pick<KvReader, "counterEntry">,
): Promise<Reservation> {
  const { now, windowMs, limit } = window;
  return retry<Reservation>(async () => {
    const entry = await reader.counterEntry(key);
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
  // Another instance's sweep may list the same entries: each is deleted
  // against its versionstamp, so only the sweep that removes it counts it,
  // and one it lost is passed over for the next rather than ending the
  // batch short (a short batch tells the reaper nothing is left).
  for await (
    const entry of kv.list(selector, {
      batchSize: Math.min(limit, 100),
    })
  ) {
    const [at, key] = entry.key.slice(-2) as [number, string];
    const counter = await kv.get<Counter>(k.counter(key));
    const op = kv.atomic().check(entry).delete(entry.key);
    // A counter that started a new window since keeps its record.
    if (counter.value !== null && counter.value.resetAt === at) {
      op.check(counter).delete(k.counter(key));
    }
    if ((await commit(op)).ok && ++deleted >= limit) break;
  }
  return deleted;
}
