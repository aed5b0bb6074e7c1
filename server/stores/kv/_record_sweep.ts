// The sweep of KvRecords: records of an expiring kind whose expiry field is
// at or before a time, found through the kind's expiry index (oldest
// first) and deleted with their copies and index entries, ten at a time,
// each guarded by its record's versionstamp so a record written since its
// read is left alone.
//
// The sweep shares Deno KV with live requests: a local KV file is one
// SQLite thread that runs reads and commits one after another, in the
// order they were sent, so a session check's read waits behind whatever
// the sweep sent before it. Hence small steps (one read of ten records,
// one commit of ten: measured, fifty a commit halved the sweep's time and
// doubled the checks' p99 during it, each waiting behind a longer commit),
// and before each step a turn of the event loop, so that requests that
// arrived meanwhile send their reads ahead of the sweep's next one
// (bench/README.md, "Reaper").

import { type ExpiringKind, KINDS } from "../../core/records.ts";
import { commit } from "./_atomic.ts";
import { READ_BATCH, type RecordKeys } from "./_record_keys.ts";
import { type Fields, Writes } from "./_record_writes.ts";

/** One expiry entry and what deleting it involves. */
interface Found {
  /** The writes that delete it (and, if it is due, its record). */
  writes: Writes;
  /** Whether a record is deleted (entries left behind are not counted). */
  counts: boolean;
}

/** An expiry entry as listed: its key, its expiry and its record's key. */
interface Entry {
  entry: Deno.KvKey;
  at: number;
  key: string;
}

/**
 * Deletes up to `limit` records of `kind` whose expiry field is `<=
 * before`, with their copies and index entries; returns how many. Entries
 * whose record is gone or has moved its expiry are removed on the way and
 * not counted.
 */
export async function deleteExpired(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  before: number,
  limit: number,
): Promise<number> {
  if (limit <= 0) return 0;
  let deleted = 0;
  let batch: Entry[] = [];
  for await (const listed of kv.list({ prefix: k.expiries(kind) })) {
    const [at, key] = listed.key.slice(-2) as [number, string];
    if (at > before) break;
    batch.push({ entry: listed.key, at, key });
    if (batch.length >= Math.min(READ_BATCH, limit - deleted)) {
      deleted += await deleteFound(kv, k, kind, batch);
      batch = [];
      if (deleted >= limit) break;
    }
  }
  if (batch.length > 0) deleted += await deleteFound(kv, k, kind, batch);
  return deleted;
}

// Reads the records of `batch` and deletes them in one commit; returns how
// many records it deleted.
async function deleteFound(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  batch: readonly Entry[],
): Promise<number> {
  await yieldToRequests();
  // At most READ_BATCH keys: one getMany.
  const records = await kv.getMany<unknown[]>(
    batch.map((b) => k.record(kind, b.key)),
  );
  const now = Date.now();
  const found = batch.map((b, i) => plan(k, kind, b, records[i]!, now));
  const all = new Writes(k, now);
  for (const { writes } of found) all.add(writes);
  if ((await commit(all.operation(kv))).ok) {
    return found.filter((f) => f.counts).length;
  }
  // One of them was written meanwhile: each on its own, so only that one
  // is left.
  let deleted = 0;
  for (const { writes, counts } of found) {
    if ((await commit(writes.operation(kv))).ok && counts) deleted++;
  }
  return deleted;
}

// What deleting one expiry entry takes: its record is due (delete it whole,
// checked), gone (drop the entry, checked absent) or moved on to another
// expiry (drop only this stale entry, checked).
function plan(
  k: RecordKeys,
  kind: ExpiringKind,
  found: Entry,
  record: Deno.KvEntryMaybe<unknown>,
  now: number,
): Found {
  const writes = new Writes(k, now);
  writes.check(record.key, record.versionstamp);
  const value = record.value as Fields | null;
  if (value !== null && value[KINDS[kind].expiry] === found.at) {
    writes.deleteRecord(kind, value);
    return { writes, counts: true };
  }
  writes.delete(found.entry);
  return { writes, counts: false };
}

// One turn of the event loop after the I/O it has ready: requests that
// arrived while the last commit ran are read, and send their own store
// reads, before the sweep sends its next ones. Not a timer: chained
// timers are held to 4 ms each, which would make the pause, not the work,
// set the sweep's pace.
const yieldToRequests = () =>
  new Promise<void>((resolve) => setImmediate(resolve));
