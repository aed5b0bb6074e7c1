// The sweep of KvRecords: records of an expiring kind whose expiry field is
// at or before a time, found through the kind's expiry index (oldest
// first) and deleted with their copies and index entries, ten at a time,
// each guarded by its record's versionstamp so a record written since its
// read is left alone.

import { type ExpiringKind, KINDS } from "../../core/records.ts";
import { commit } from "./_atomic.ts";
import { getAll, READ_BATCH, type RecordKeys } from "./_record_keys.ts";
import { type Fields, Writes } from "./_record_writes.ts";

/** One expiry entry and what deleting it involves. */
interface Found {
  /** The writes that delete it (and, if it is due, its record). */
  writes: Writes;
  /** Whether a record is deleted (entries left behind are not counted). */
  counts: boolean;
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
  let deleted = 0;
  let batch: Array<{ entry: Deno.KvKey; at: number; key: string }> = [];
  const flush = async () => {
    const records = await getAll(kv, batch.map((b) => k.record(kind, b.key)));
    const found = batch.map((b, i) => plan(k, kind, b, records[i]!));
    batch = [];
    const all = new Writes(k, Date.now());
    for (const { writes } of found) all.add(writes);
    if ((await commit(all.operation(kv))).ok) {
      deleted += found.filter((f) => f.counts).length;
      return;
    }
    // One of them was written meanwhile: each on its own, so only that one
    // is left.
    for (const { writes, counts } of found) {
      if ((await commit(writes.operation(kv))).ok && counts) deleted++;
    }
  };
  if (limit <= 0) return 0;
  for await (const entry of kv.list({ prefix: k.expiries(kind) })) {
    const [at, key] = entry.key.slice(-2) as [number, string];
    if (at > before) break;
    batch.push({ entry: entry.key, at, key });
    if (batch.length >= Math.min(READ_BATCH, limit - deleted)) {
      await flush();
      if (deleted >= limit) break;
    }
  }
  if (batch.length > 0) await flush();
  return deleted;
}

// What deleting one expiry entry takes: its record is due (delete it whole,
// checked), gone (drop the entry, checked absent) or moved on to another
// expiry (drop only this stale entry, checked).
function plan(
  k: RecordKeys,
  kind: ExpiringKind,
  found: { entry: Deno.KvKey; at: number },
  record: Deno.KvEntryMaybe<unknown>,
): Found {
  const writes = new Writes(k, Date.now());
  writes.check(record.key, record.versionstamp);
  const value = record.value as Fields | null;
  if (value !== null && value[KINDS[kind].expiry] === found.at) {
    writes.deleteRecord(kind, value);
    return { writes, counts: true };
  }
  writes.delete(found.entry);
  return { writes, counts: false };
}
