// The sweep of KvRecords: records of an expiring kind whose expiry field is
// at or before a time, found through the kind's expiry index (oldest
// first) and deleted with their copies and index entries, each guarded by
// its record's versionstamp so a record written since is left alone.
//
// Each expiry entry holds its record's sweep note (./_record_writes.ts):
// the fields that name the record's keys, written in every commit that
// writes the record, so the entry's versionstamp is the record's. The
// sweep deletes a record from its listed entry alone, with a check that
// the record still has the entry's versionstamp: no read of the record,
// and up to SWEEP_STEP records a commit. A record written since the entry
// was listed (its expiry moved, its last_seen touched, deleted and
// written again) fails that check; that commit is then done again record
// by record from fresh reads (the path of entries without a note, written
// before notes: schema-5 stores keep working as they are).
//
// The sweep shares Deno KV with live requests: a local KV file is one
// SQLite thread that runs reads and commits one after another, in the
// order they were sent, so a session check's read waits behind whatever
// the sweep sent before it. Hence commits kept short (SWEEP_STEP, below)
// and before each a turn of the event loop, so that requests that arrived
// meanwhile send their reads ahead of the sweep's next commit
// (bench/README.md, "Sweeps"); the next page of the index is listed
// while a commit waits, so a step costs one commit and one turn.

import { type ExpiringKind, KINDS } from "../../core/records.ts";
import { commit } from "./_atomic.ts";
import { keyBytes, READ_BATCH, type RecordKeys } from "./_record_keys.ts";
import {
  type Fields,
  KV_MAX_CHECKS,
  KV_MAX_MUTATION_BYTES,
  KV_MAX_MUTATIONS,
  Writes,
} from "./_record_writes.ts";

/**
 * Records one commit of the sweep deletes at most, each with one check
 * (KV allows 100). A commit's fixed cost (about 0.8 ms on a file) is
 * shared by more records as it grows, and the checks that wait behind it
 * wait longer: with 50 session checks in flight, 100 a commit put their
 * p99 at 2.2× idle against 1.5× for 50, and swept no faster (2026-11-27,
 * a loaded machine: the Reaper's batches shrank below 100).
 */
export const SWEEP_STEP = 50;

/** An expiry entry as listed. */
interface Entry {
  /** The entry's key. */
  entry: Deno.KvKey;
  /** Its expiry. */
  at: number;
  /** Its record's key. */
  key: string;
  /** Its versionstamp: the record's, when it has a note. */
  versionstamp: string;
  /** The record's sweep note; null for an entry written before notes. */
  note: Fields | null;
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
  const list = (cursor: string | undefined, want: number) =>
    listDue(kv, k, kind, before, cursor, want);
  await yieldToRequests();
  let next: Promise<Page> | null = list(undefined, Math.min(SWEEP_STEP, limit));
  while (next !== null) {
    const page: Page = await next;
    next = null;
    // The next page is read while this one's commit waits its turn: a
    // step costs the sweep one turn of the event loop and one commit, not
    // two round trips more. Its entries are past this page's, which its
    // commit does not touch.
    const room = limit - deleted - page.batch.length;
    if (page.more && room > 0) {
      next = list(page.cursor, Math.min(SWEEP_STEP, room));
    }
    try {
      deleted += await deleteListed(kv, k, kind, page.batch);
    } catch (err) {
      // The page read meanwhile is dropped, its failure with it.
      await next?.catch(() => {});
      throw err;
    }
    // Entries left uncounted (stale, or their record gone) leave room for
    // another page.
    if (next === null && page.more && deleted < limit) {
      await yieldToRequests();
      next = list(page.cursor, Math.min(SWEEP_STEP, limit - deleted));
    }
  }
  return deleted;
}

/** A page of due expiry entries. */
interface Page {
  /** The entries, oldest first. */
  batch: Entry[];
  /** Where the next page starts. */
  cursor: string;
  /** Whether more due entries may follow. */
  more: boolean;
}

// Up to `want` due entries from `cursor` on, in one list call.
async function listDue(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  before: number,
  cursor: string | undefined,
  want: number,
): Promise<Page> {
  const page = kv.list(
    { prefix: k.expiries(kind) },
    {
      limit: want,
      batchSize: want,
      ...(cursor === undefined ? {} : { cursor }),
    },
  );
  const batch: Entry[] = [];
  for await (const listed of page) {
    const [at, key] = listed.key.slice(-2) as [number, string];
    if (at > before) return { batch, cursor: page.cursor, more: false };
    batch.push({
      entry: listed.key,
      at,
      key,
      versionstamp: listed.versionstamp,
      note: noteOf(kind, listed.value, at, key),
    });
  }
  return { batch, cursor: page.cursor, more: batch.length === want };
}

// The note an entry holds, if it is one for this entry: an object naming
// the entry's record and expiry. Anything else (null, from before notes)
// is read the old way.
function noteOf(
  kind: ExpiringKind,
  value: unknown,
  at: number,
  key: string,
): Fields | null {
  if (typeof value !== "object" || value === null) return null;
  const note = value as Fields;
  const spec = KINDS[kind];
  return note[spec.key] === key && note[spec.expiry] === at ? note : null;
}

// Deletes the records of listed entries: those with a note unread, in
// commits within KV's limits, the others read ten at a time.
async function deleteListed(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  batch: readonly Entry[],
): Promise<number> {
  // Deletes only: the clock of KV's own expiry is never read.
  const now = Date.now();
  let deleted = 0;
  let run: Entry[] = [];
  let all = new Writes(k, now);
  let bytes = 0;
  const flush = async () => {
    if (run.length > 0) deleted += await deleteNoted(kv, k, kind, run, all);
    run = [];
    all = new Writes(k, now);
    bytes = 0;
  };
  const unread: Entry[] = [];
  for (const found of batch) {
    if (found.note === null) {
      unread.push(found);
      continue;
    }
    // Checked against the entry's versionstamp, which is the record's as
    // the entry's commit wrote it: a record written since fails it.
    const writes = new Writes(k, now)
      .check(k.record(kind, found.key), found.versionstamp)
      .deleteRecord(kind, found.note);
    // Never reached with today's kinds and SWEEP_STEP (an event, the
    // largest, is seven deletes), but a long prefix or a larger step must
    // not make a commit KV refuses.
    const size = writes.deletes.reduce((sum, d) => sum + keyBytes(d.key), 0);
    if (
      all.checks.length + writes.checks.length > KV_MAX_CHECKS ||
      all.size + writes.size > KV_MAX_MUTATIONS ||
      bytes + size > KV_MAX_MUTATION_BYTES
    ) {
      await flush();
    }
    run.push(found);
    all.add(writes);
    bytes += size;
  }
  await flush();
  return deleted + await deleteEachRead(kv, k, kind, unread);
}

// Commits `writes`, the unread deletes of `run`; if a record of it was
// written since its entry was listed, deletes the run from fresh reads
// instead.
async function deleteNoted(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  run: readonly Entry[],
  writes: Writes,
): Promise<number> {
  await yieldToRequests();
  if ((await commit(writes.operation(kv))).ok) return run.length;
  return await deleteEachRead(kv, k, kind, run);
}

// Deletes `entries` from fresh reads of their records, READ_BATCH a
// commit; returns how many records it deleted.
async function deleteEachRead(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  entries: readonly Entry[],
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < entries.length; i += READ_BATCH) {
    deleted += await deleteRead(kv, k, kind, entries.slice(i, i + READ_BATCH));
  }
  return deleted;
}

// Reads the records of `batch` (READ_BATCH at most) and deletes them in
// one commit; returns how many records it deleted.
async function deleteRead(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: ExpiringKind,
  batch: readonly Entry[],
): Promise<number> {
  await yieldToRequests();
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

/** One expiry entry and what deleting it involves, as read. */
interface Planned {
  /** The writes that delete it (and, if it is due, its record). */
  writes: Writes;
  /** Whether a record is deleted (entries left behind are not counted). */
  counts: boolean;
}

// What deleting one expiry entry takes, from its record as read: the
// record is due (delete it whole, checked), gone (drop the entry, checked
// absent) or moved on to another expiry (drop only this stale entry,
// checked).
function plan(
  k: RecordKeys,
  kind: ExpiringKind,
  found: Entry,
  record: Deno.KvEntryMaybe<unknown>,
  now: number,
): Planned {
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
