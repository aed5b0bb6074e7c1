// Limiter counters in KvStore: fixed windows, each a counter record plus an
// entry in the expiry index under the time its window ends.

import type { Counter } from "../store.ts";
import { commit, retry } from "./_kv_atomic.ts";
import { type KvKeys, ttl } from "./_kv_keys.ts";

/** Adds one to a fixed-window counter, atomically. */
export function hitCounter(
  kv: Deno.Kv,
  k: KvKeys,
  key: string,
  now: number,
  windowMs: number,
): Promise<Counter> {
  return retry(async () => {
    const entry = await kv.get<Counter>(k.counter(key));
    const open = entry.value !== null && entry.value.resetAt > now;
    const next: Counter = open
      ? { count: entry.value!.count + 1, resetAt: entry.value!.resetAt }
      : { count: 1, resetAt: now + windowMs };
    const op = kv.atomic().check(entry)
      .set(k.counter(key), next, ttl(next.resetAt, now));
    if (!open) {
      if (entry.value !== null) {
        op.delete(k.counterExpiry(entry.value.resetAt, key));
      }
      op.set(k.counterExpiry(next.resetAt, key), null);
    }
    return { op, result: next };
  });
}

/** The counter if its window is open at `now`. */
export async function readCounter(
  kv: Deno.Kv,
  k: KvKeys,
  key: string,
  now: number,
): Promise<Counter | null> {
  const entry = await kv.get<Counter>(k.counter(key));
  return entry.value !== null && entry.value.resetAt > now ? entry.value : null;
}

/** Deletes up to `limit` counters whose window ended by `now`. */
export async function deleteExpiredCounters(
  kv: Deno.Kv,
  k: KvKeys,
  now: number,
  limit: number,
): Promise<number> {
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
