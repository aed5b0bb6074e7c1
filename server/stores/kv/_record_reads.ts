// Reads in KvRecords: records by key or by a unique field (a unique field's
// key holds a copy of the record, so both are one get with the record's
// versionstamp), coalesced like the session checks of today's KvStore so
// that concurrent reads share getMany calls; and the records of a list.

import type { Kind, RecordRef, Versioned } from "../../core/records.ts";
import { coalescing } from "../_coalesce.ts";
import { getAll, READ_BATCH, type RecordKeys } from "./_record_keys.ts";
import type { Fields } from "./_record_writes.ts";

/**
 * A reference's identity among the reads that share one getMany: cheaper
 * than stringifying its key, which the hot path would do twice per check.
 */
function refId(ref: RecordRef): string {
  return "key" in ref
    ? `${ref.kind}\u0000${ref.key}`
    : `${ref.kind}\u0000${ref.unique}\u0000${ref.value}`;
}

/** The key a reference reads: the record's, or its copy's. */
export function refKey(k: RecordKeys, ref: RecordRef): Deno.KvKey {
  return "key" in ref
    ? k.record(ref.kind, ref.key)
    : k.unique(ref.kind, ref.unique, ref.value);
}

/**
 * A stored entry as a versioned record, or null when absent. A tally is
 * kept as a KvU64 and read back as `{key, count}`.
 */
export function decode(
  kind: Kind,
  entry: Deno.KvEntryMaybe<unknown>,
): Versioned<unknown> | null {
  if (entry.versionstamp === null) return null;
  if (kind === "tally") {
    const sum = entry.value instanceof Deno.KvU64 ? entry.value.value : 0n;
    // A sum below zero wrapped around 2^64; read it back as negative.
    const count = Number(BigInt.asIntN(64, sum));
    const key = String(entry.key[entry.key.length - 1]);
    return { value: { key, count }, version: entry.versionstamp };
  }
  return { value: entry.value, version: entry.versionstamp };
}

type Answers = (Versioned<unknown> | null)[];

/**
 * A reader of references: at most `maxInFlight` getMany calls at once;
 * reads asked for while they are all busy wait, and the next call carries
 * as many of them as its ten keys hold (a read of more than ten keys goes
 * alone, in calls of ten sent together). See ../_coalesce.ts.
 */
export function recordReader(
  kv: Deno.Kv,
  k: RecordKeys,
  maxInFlight: number,
): (refs: readonly RecordRef[]) => Promise<Answers> {
  const read = coalescing<readonly RecordRef[], Answers>({
    async readMany(queries) {
      const slots = new Map<string, number>();
      const keys: Deno.KvKey[] = [];
      const placed = queries.map((refs) =>
        refs.map((ref) => {
          const id = refId(ref);
          let at = slots.get(id);
          if (at === undefined) {
            slots.set(id, at = keys.length);
            keys.push(refKey(k, ref));
          }
          return at;
        })
      );
      const entries = await getAll(kv, keys);
      return placed.map((slotsOf, q) =>
        slotsOf.map((at, i) => decode(queries[q]![i]!.kind, entries[at]!))
      );
    },
    take(waiting) {
      const seen = new Set<string>();
      let count = 0;
      for (const refs of waiting) {
        const ids = refs.map(refId);
        const adds = new Set(ids.filter((id) => !seen.has(id))).size;
        if (count > 0 && seen.size + adds > READ_BATCH) break;
        for (const id of ids) seen.add(id);
        count++;
      }
      return count;
    },
    maxInFlight,
  });
  return (refs) => refs.length === 0 ? Promise.resolve([]) : read(refs);
}

/**
 * Every record of `kind` whose `field` is `value`: the list entries, then
 * the records. A record gone meanwhile is skipped, and so is one whose
 * field no longer holds the value (an entry left by a put without its
 * `before`).
 */
export async function listRecords(
  kv: Deno.Kv,
  k: RecordKeys,
  kind: Kind,
  field: string,
  value: string,
): Promise<Versioned<unknown>[]> {
  const keys: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: k.listed(kind, field, value) })) {
    keys.push(k.record(kind, entry.key[entry.key.length - 1] as string));
  }
  const found: Versioned<unknown>[] = [];
  for (const entry of await getAll(kv, keys)) {
    const record = decode(kind, entry);
    if (record !== null && (record.value as Fields)[field] === value) {
      found.push(record);
    }
  }
  return found;
}
