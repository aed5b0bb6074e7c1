// Reads in KvRecords: records by key or by a unique field (a unique field's
// key holds a copy of the record, so both are one get with the record's
// versionstamp) and limiter counters, through one coalescing reader so
// that the reads of one turn, and concurrent ones, share getMany calls;
// and the records of a list.

import type {
  Counter,
  Kind,
  RecordRef,
  Versioned,
} from "../../core/records.ts";
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
 * A counter's read: its key, and the time its window must be open at, or
 * null for its entry as stored (the read of a read-modify-write).
 */
export interface CounterQuery {
  key: string;
  now: number | null;
}

// One query of the shared reader: a read's references, or one counter.
type Query = readonly RecordRef[] | CounterQuery;
type Answer =
  | Answers
  | Counter
  | null
  | Deno.KvEntryMaybe<unknown>;

// A counter's identity among the keys of one getMany: no kind starts with
// U+0001, so it never meets a reference's.
const counterId = (query: CounterQuery) => `\u0001${query.key}`;

/** What {@linkcode kvReader} answers: records, and limiter counters. */
export interface KvReader {
  /** The records behind `refs`, in order. */
  records(refs: readonly RecordRef[]): Promise<Answers>;
  /** The counter of `key` if its window is open at `now`, else null. */
  counter(key: string, now: number): Promise<Counter | null>;
  /** The entry of the counter `key` as stored, with its versionstamp. */
  counterEntry(key: string): Promise<Deno.KvEntryMaybe<Counter>>;
}

/**
 * The reader of KvRecords: at most `maxInFlight` getMany calls at once,
 * each sent at the end of the turn it was asked in, so that the reads a
 * request starts together share it (a sign-in's account, its account
 * lock's counters and its session's early reads: one getMany). Reads
 * asked for while every call is busy wait, and the next call carries as
 * many of them as its ten keys hold (a read of more than ten keys goes
 * alone, in calls of ten sent together). See ../_coalesce.ts.
 */
export function kvReader(
  kv: Deno.Kv,
  k: RecordKeys,
  maxInFlight: number,
): KvReader {
  const read = coalescing<Query, Answer>({
    async readMany(queries) {
      const slots = new Map<string, number>();
      const keys: Deno.KvKey[] = [];
      const slot = (id: string, key: () => Deno.KvKey) => {
        let at = slots.get(id);
        if (at === undefined) {
          slots.set(id, at = keys.length);
          keys.push(key());
        }
        return at;
      };
      const placed = queries.map((query) =>
        isRefs(query)
          ? query.map((ref) => slot(refId(ref), () => refKey(k, ref)))
          : slot(counterId(query), () => k.counter(query.key))
      );
      const entries = await getAll(kv, keys);
      return placed.map((at, q) => {
        const query = queries[q]!;
        if (isRefs(query)) {
          return (at as number[]).map((s, i) =>
            decode(query[i]!.kind, entries[s]!)
          );
        }
        const entry = entries[at as number]!;
        return query.now === null ? entry : openCounter(entry, query.now);
      });
    },
    take(waiting) {
      const seen = new Set<string>();
      let count = 0;
      for (const query of waiting) {
        const ids = isRefs(query) ? query.map(refId) : [counterId(query)];
        const adds = new Set(ids.filter((id) => !seen.has(id))).size;
        if (count > 0 && seen.size + adds > READ_BATCH) break;
        for (const id of ids) seen.add(id);
        count++;
      }
      return count;
    },
    maxInFlight,
    sameTurn: true,
  });
  return {
    records: (refs) =>
      refs.length === 0 ? Promise.resolve([]) : read(refs) as Promise<Answers>,
    counter: (key, now) => read({ key, now }) as Promise<Counter | null>,
    counterEntry: (key) =>
      read({ key, now: null }) as Promise<Deno.KvEntryMaybe<Counter>>,
  };
}

const isRefs = (query: Query): query is readonly RecordRef[] =>
  Array.isArray(query);

// A counter as read: null when absent or when its window ended by `now`.
const openCounter = (entry: Deno.KvEntryMaybe<unknown>, now: number) => {
  const value = entry.value as Counter | null;
  return value !== null && value.resetAt > now ? value : null;
};

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
