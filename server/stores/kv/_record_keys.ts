// The key layout of KvRecords (schema version 6), in one place, built from
// KINDS (../../core/records.ts). Every key starts with the store's prefix
// so Gatehouse can share a Deno.Kv with the application.
//
//   {kind}/{key}                          -> the record (a tally: KvU64)
//   {kind}_by_{field}/{value}             -> a COPY of the record, written in
//                                            the same commit, so a read by a
//                                            unique field is one get and its
//                                            versionstamp is the record's
//   {kind}_of_{field}/{value}/{key}       -> null (list entry)
//   {kind}_expiry/{expiry value}/{key}    -> the record's sweep note, the
//                                            fields naming its keys, written
//                                            with every write of the record
//                                            (null when written before notes)
//   event_user/{user id}/{event id}       -> null (actor or target)
//   event_type/{type}/{event id}          -> null
//   event_user_type/{user id}/{type}/{event id} -> null
//   counter/{key}                         -> Counter (the limiter)
//   counter_expiry/{resetAt}/{key}        -> null (sweep entry)
//   schema                                -> 6
//   handle_probe/{uuid}                   -> true, for a moment: migrate()
//                                            checks that `readKv` is a
//                                            handle on the same database
//
// Event ids are UUIDv7, so each event index is in time order and a page of
// the log is one reverse range read.

import type { Kind } from "../../core/records.ts";

/** Builds the keys of one KvRecords store under `prefix`. */
export function recordKeys(prefix: Deno.KvKey) {
  return {
    record: (kind: Kind, key: string): Deno.KvKey => [...prefix, kind, key],
    records: (kind: Kind): Deno.KvKey => [...prefix, kind],
    unique: (kind: Kind, field: string, value: string): Deno.KvKey => [
      ...prefix,
      `${kind}_by_${field}`,
      value,
    ],
    listEntry: (
      kind: Kind,
      field: string,
      value: string,
      key: string,
    ): Deno.KvKey => [...prefix, `${kind}_of_${field}`, value, key],
    listed: (kind: Kind, field: string, value: string): Deno.KvKey => [
      ...prefix,
      `${kind}_of_${field}`,
      value,
    ],
    expiry: (kind: Kind, at: number, key: string): Deno.KvKey => [
      ...prefix,
      `${kind}_expiry`,
      at,
      key,
    ],
    expiries: (kind: Kind): Deno.KvKey => [...prefix, `${kind}_expiry`],
    eventOfUser: (userId: string, id: string): Deno.KvKey => [
      ...prefix,
      "event_user",
      userId,
      id,
    ],
    eventsOfUser: (userId: string): Deno.KvKey => [
      ...prefix,
      "event_user",
      userId,
    ],
    eventOfType: (type: string, id: string): Deno.KvKey => [
      ...prefix,
      "event_type",
      type,
      id,
    ],
    eventsOfType: (type: string): Deno.KvKey => [...prefix, "event_type", type],
    eventOfUserType: (userId: string, type: string, id: string): Deno.KvKey => [
      ...prefix,
      "event_user_type",
      userId,
      type,
      id,
    ],
    eventsOfUserType: (userId: string, type: string): Deno.KvKey => [
      ...prefix,
      "event_user_type",
      userId,
      type,
    ],
    counter: (key: string): Deno.KvKey => [...prefix, "counter", key],
    counterExpiry: (at: number, key: string): Deno.KvKey => [
      ...prefix,
      "counter_expiry",
      at,
      key,
    ],
    counterExpiries: (): Deno.KvKey => [...prefix, "counter_expiry"],
    schema: (): Deno.KvKey => [...prefix, "schema"],
    handleProbe: (id: string): Deno.KvKey => [...prefix, "handle_probe", id],
  };
}

/** The key builders of one KvRecords store. */
export type RecordKeys = ReturnType<typeof recordKeys>;

/** Deno KV reads at most 10 keys per getMany. */
export const READ_BATCH = 10;

/**
 * Reads `keys` in getMany calls of at most ten keys, sent together, and
 * answers the entries in the same order.
 */
export async function getAll(
  kv: Deno.Kv,
  keys: readonly Deno.KvKey[],
): Promise<Deno.KvEntryMaybe<unknown>[]> {
  if (keys.length <= READ_BATCH) {
    return keys.length === 0 ? [] : await kv.getMany<unknown[]>(keys);
  }
  const batches: Promise<Deno.KvEntryMaybe<unknown>[]>[] = [];
  for (let i = 0; i < keys.length; i += READ_BATCH) {
    batches.push(kv.getMany<unknown[]>(keys.slice(i, i + READ_BATCH)));
  }
  return (await Promise.all(batches)).flat();
}

/**
 * The size of `key` as Deno KV encodes it, in bytes, which is what its
 * limits on one atomic operation count: a string is a type byte, its
 * UTF-8 bytes (a NUL escaped to two) and a terminator; a number a type
 * byte and eight (a bigint is counted at ten, above what a small one
 * takes).
 */
export function keyBytes(key: Deno.KvKey): number {
  let size = 0;
  for (const part of key) {
    if (typeof part === "string") {
      size += 2 + encodedLength(part);
    } else if (part instanceof Uint8Array) {
      size += 2 + part.length + part.filter((b) => b === 0).length;
    } else if (typeof part === "number") {
      size += 9;
    } else if (typeof part === "bigint") {
      size += 10;
    } else {
      size += 1;
    }
  }
  return size;
}

// A string's UTF-8 bytes, a NUL counted twice (KV escapes it), without
// encoding it: the sweep counts every key of its commits.
function encodedLength(text: string): number {
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) size += 2;
    else if (c < 0x80) size += 1;
    else if (c < 0x800) size += 2;
    // Three for anything else, a surrogate too: a pair is four bytes, a
    // lone one is written as U+FFFD's three, and counting over is safe.
    else size += 3;
  }
  return size;
}

/** A key as a string, to compare keys (its parts are strings and numbers). */
export function keyId(key: Deno.KvKey): string {
  return JSON.stringify(key);
}

/**
 * Time-to-live for KV's own expiry of a record that dies at `expiresAt`:
 * hygiene only, never what decides that a record is dead.
 */
export function ttl(expiresAt: number, now: number): { expireIn?: number } {
  const left = expiresAt - now;
  // A margin keeps KV from removing a record before the rules' own check
  // says it is dead; KV's expiry is lazy anyway.
  return left > 0 ? { expireIn: left + 60_000 } : {};
}
