// The writes of KvRecords: what a record is stored under (the record, the
// copies under its unique fields, its list, expiry and event index
// entries), and one commit's checks and mutations built from the records
// it puts and deletes, kept within Deno KV's limits.
//
// A record's expiry entry holds its sweep note (the fields that name its
// keys, see `sweepNote`) and is written in every commit that writes the
// record, so the entry's versionstamp is the record's: the sweep deletes
// a record from its entry alone, checked against that versionstamp, with
// no read (./_record_sweep.ts). Schema-5 stores written before hold null
// there, and are swept by reading the record as before.

import {
  type AuditEvent,
  keyOf,
  type Kind,
  KINDS,
  type StoredTally,
} from "../../core/records.ts";
import { EVENT_INDEX_FIELDS, eventIndexKeys } from "./_record_audit.ts";
import { keyId, type RecordKeys, ttl } from "./_record_keys.ts";

/** A record's fields, as the store reads them generically. */
export type Fields = Record<string, unknown>;

/** Deno KV's limit on the checks of one atomic operation. */
export const KV_MAX_CHECKS = 100;
/** Deno KV's limit on the mutations of one atomic operation. */
export const KV_MAX_MUTATIONS = 1000;

/**
 * Deno KV's limit on the total size of the mutations of one atomic
 * operation, in bytes: a delete counts its key's encoded bytes (`keyBytes`
 * of ./_record_keys.ts), a set its key and value; checks count nothing
 * (measured on Deno 2.9.6, which also caps the keys a commit sets at 80
 * KiB in all and any key at 2 KiB).
 */
export const KV_MAX_MUTATION_BYTES = 819_200;

/**
 * Where a record is indexed: `copies`, one per unique field in KINDS order,
 * hold the whole record; `entries` (list, expiry and event index entries)
 * hold null, but for the expiry entry, `expiry` (last of `entries`, null
 * for a kind that does not expire), which holds the record's sweep note.
 */
export function indexesOf(
  k: RecordKeys,
  kind: Kind,
  value: object,
): {
  copies: Deno.KvKey[];
  entries: Deno.KvKey[];
  expiry: Deno.KvKey | null;
} {
  const spec = KINDS[kind];
  const fields = value as Fields;
  const key = keyOf(kind, value);
  const copies = (spec.unique as readonly string[]).map((field) =>
    k.unique(kind, field, String(fields[field]))
  );
  // An absent optional field (a session of no single sign-on has no
  // `ssoSid`) lists the record under nothing.
  const entries = (spec.lists as readonly string[])
    .filter((field) => fields[field] !== undefined && fields[field] !== null)
    .map((field) => k.listEntry(kind, field, String(fields[field]), key));
  if (kind === "event") entries.push(...eventIndexKeys(k, value as AuditEvent));
  const expiry = spec.expiry === null
    ? null
    : k.expiry(kind, Number(fields[spec.expiry]), key);
  if (expiry !== null) entries.push(expiry);
  return { copies, entries, expiry };
}

/** The fields of each kind that name a record's keys (see sweepNote). */
const NOTE_FIELDS = new Map<Kind, readonly string[]>(
  (Object.keys(KINDS) as Kind[]).map((kind) => {
    const spec = KINDS[kind];
    const fields: string[] = [spec.key, ...spec.unique, ...spec.lists];
    if (spec.expiry !== null) fields.push(spec.expiry);
    if (kind === "event") fields.push(...EVENT_INDEX_FIELDS);
    return [kind, [...new Set(fields)]];
  }),
);

/**
 * A record's sweep note, what its expiry entry holds: the fields that name
 * its keys (its key, unique and list fields, its expiry, an event's type
 * and the accounts it names), so that {@linkcode indexesOf} the note finds
 * the very keys it finds of the record. A field the record lacks is left
 * out, as `indexesOf` leaves out its entry.
 */
export function sweepNote(kind: Kind, value: object): Fields {
  const fields = value as Fields;
  const note: Fields = {};
  for (const field of NOTE_FIELDS.get(kind) ?? []) {
    if (fields[field] !== undefined) note[field] = fields[field];
  }
  return note;
}

/**
 * The checks and mutations of one atomic operation, gathered before it is
 * built so that their number can be held to KV's limits with a clear error.
 * Every delete is applied before every set and sum: a key both removed
 * (an old index entry, a record deleted) and written (by another put of the
 * same commit, or the same record put again) ends written.
 */
export class Writes {
  /** The checks, in the order added. */
  readonly checks: Deno.AtomicCheck[] = [];
  /** The deletes, applied first. */
  readonly deletes: Deno.KvMutation[] = [];
  /** The sets and sums, applied after the deletes, in this order. */
  readonly writes: Deno.KvMutation[] = [];
  readonly #k: RecordKeys;
  readonly #now: number;

  /**
   * @param k The store's keys.
   * @param now The clock that KV's own expiry of dead records counts from.
   */
  constructor(k: RecordKeys, now: number) {
    this.#k = k;
    this.#now = now;
  }

  /** How many mutations the operation holds. */
  get size(): number {
    return this.deletes.length + this.writes.length;
  }

  /** Requires `key` to have `versionstamp` (null: to be absent). */
  check(key: Deno.KvKey, versionstamp: string | null): this {
    this.checks.push({ key, versionstamp });
    return this;
  }

  /** Sets `key`. */
  set(key: Deno.KvKey, value: unknown, expireIn?: number): this {
    this.writes.push(
      expireIn === undefined
        ? { type: "set", key, value }
        : { type: "set", key, value, expireIn },
    );
    return this;
  }

  /** Deletes `key` (absent is fine). */
  delete(key: Deno.KvKey): this {
    this.deletes.push({ type: "delete", key });
    return this;
  }

  /** Adds `by` (which may be negative) to the KvU64 at `key`. */
  sum(key: Deno.KvKey, by: number): this {
    // KvU64 sums wrap at 2^64: adding 2^64 - n subtracts n.
    const value = new Deno.KvU64(BigInt.asUintN(64, BigInt(by)));
    this.writes.push({ type: "sum", key, value });
    return this;
  }

  /** Adds the checks and mutations of `other` to this operation. */
  add(other: Writes): this {
    this.checks.push(...other.checks);
    this.deletes.push(...other.deletes);
    this.writes.push(...other.writes);
    return this;
  }

  /** Deletes a record, its copies and its index entries. */
  deleteRecord(kind: Kind, value: object): this {
    const { copies, entries } = indexesOf(this.#k, kind, value);
    this.delete(this.#k.record(kind, keyOf(kind, value)));
    for (const key of [...copies, ...entries]) this.delete(key);
    return this;
  }

  /**
   * Writes a record whole, with its copies, and moves its index entries
   * from `before` (the stored value, null for a new record). A unique value
   * the record did not hold before must be free: a check that its copy is
   * absent, unless `freed` holds it (see {@linkcode freedCopies}).
   */
  putRecord(
    kind: Kind,
    value: object,
    before: object | null,
    freed: ReadonlySet<string>,
  ): this {
    const k = this.#k;
    const next = indexesOf(k, kind, value);
    const old = before === null ? null : indexesOf(k, kind, before);
    const nextEntries = new Set(next.entries.map(keyId));
    const oldEntries = new Set(old?.entries.map(keyId) ?? []);
    const expireIn = this.#expireIn(kind, value);
    for (const entry of old?.entries ?? []) {
      if (!nextEntries.has(keyId(entry))) this.delete(entry);
    }
    next.copies.forEach((copy, i) => {
      const was = old?.copies[i];
      if (was !== undefined && keyId(was) === keyId(copy)) return;
      if (!freed.has(keyId(copy))) this.check(copy, null);
      if (was !== undefined) this.delete(was);
    });
    const stored = kind === "tally"
      ? new Deno.KvU64(
        BigInt.asUintN(64, BigInt((value as StoredTally).count)),
      )
      : value;
    this.set(k.record(kind, keyOf(kind, value)), stored, expireIn);
    // Copies are rewritten even when unchanged: each must carry the
    // record's value and versionstamp.
    for (const copy of next.copies) this.set(copy, stored, expireIn);
    // An entry kept as it was keeps its expiry unless the record's moved.
    const field = KINDS[kind].expiry;
    const rewrite = kind !== "event" && field !== null && before !== null &&
      (before as Fields)[field] !== (value as Fields)[field];
    const expiry = next.expiry === null ? null : keyId(next.expiry);
    for (const entry of next.entries) {
      if (keyId(entry) === expiry) {
        // Always, with the note: in this commit, so that the entry's
        // versionstamp is the record's, which is what lets the sweep check
        // that the record was not written since the entry was listed.
        this.set(entry, sweepNote(kind, value), expireIn);
      } else if (rewrite || !oldEntries.has(keyId(entry))) {
        this.set(entry, null, expireIn);
      }
    }
    return this;
  }

  /**
   * Throws when the operation exceeds Deno KV's limits, naming them, so a
   * commit too large fails loudly instead of with KV's own terse error.
   */
  assertWithinLimits(): void {
    if (this.checks.length > KV_MAX_CHECKS) {
      throw new Error(
        `KvRecords: this commit needs ${this.checks.length} checks (with the unique-value checks of its puts); Deno KV allows ${KV_MAX_CHECKS} in one atomic operation`,
      );
    }
    if (this.size > KV_MAX_MUTATIONS) {
      throw new Error(
        `KvRecords: this commit needs ${this.size} mutations (records with their copies and index entries); Deno KV allows ${KV_MAX_MUTATIONS} in one atomic operation: split it`,
      );
    }
  }

  /** The atomic operation on `kv`. */
  operation(kv: Deno.Kv): Deno.AtomicOperation {
    return kv.atomic().check(...this.checks)
      .mutate(...this.deletes, ...this.writes);
  }

  // Records that die by an expiry field (not events: their field is when
  // they happened) are also left to KV's own expiry, a while after they die.
  #expireIn(kind: Kind, value: object): number | undefined {
    const field = KINDS[kind].expiry;
    if (field === null || kind === "event") return undefined;
    return ttl(Number((value as Fields)[field]), this.#now).expireIn;
  }
}

/**
 * The copies (as {@linkcode keyId}s) that a commit gives up: those of the
 * records it deletes, and the old ones of the records it puts with another
 * unique value. Another put of the same commit may take their values
 * without an absence check: the delete is applied first. That the records
 * still hold them is the rules' check of their versions.
 */
export function freedCopies(
  k: RecordKeys,
  deletes: readonly { kind: Kind; value: object }[],
  puts: readonly { kind: Kind; value: object; before: object | null }[],
): Set<string> {
  const freed = new Set<string>();
  for (const { kind, value } of deletes) {
    for (const copy of indexesOf(k, kind, value).copies) freed.add(keyId(copy));
  }
  for (const { kind, value, before } of puts) {
    if (before === null) continue;
    const next = new Set(indexesOf(k, kind, value).copies.map(keyId));
    for (const copy of indexesOf(k, kind, before).copies) {
      if (!next.has(keyId(copy))) freed.add(keyId(copy));
    }
  }
  return freed;
}
