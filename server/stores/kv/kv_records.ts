// The KvRecords class: the narrow RecordStore on Deno KV. Each concern is
// in its private module beside it: the key layout (_record_keys.ts), the
// writes of a commit (_record_writes.ts), reads and lists, the counters'
// reads among them (_record_reads.ts), the event log (_record_audit.ts),
// the sweep (_record_sweep.ts), the limiter counters' writes
// (_record_counters.ts), account pages (_record_listing.ts) and the schema
// (_record_schema.ts).

import type {
  AccountPage,
  AccountQuery,
  AccountRecord,
  AttemptWindow,
  AuditEvent,
  Commit,
  Counter,
  EventQuery,
  ExpiringKind,
  Kind,
  ListField,
  RecordKinds,
  RecordRef,
  RecordStore,
  Reservation,
  Versioned,
} from "../../core/records.ts";
import { DEFAULT_SESSION_READS_IN_FLIGHT } from "../_coalesce.ts";
import { commit } from "./_atomic.ts";
import { listEvents } from "./_record_audit.ts";
import * as counters from "./_record_counters.ts";
import { type RecordKeys, recordKeys } from "./_record_keys.ts";
import { accountPage } from "./_record_listing.ts";
import { type KvReader, kvReader, listRecords } from "./_record_reads.ts";
import { migrateRecords, sameDatabase } from "./_record_schema.ts";
import { deleteExpired } from "./_record_sweep.ts";
import { freedCopies, Writes } from "./_record_writes.ts";

/**
 * The checks a {@linkcode Commit} may carry (the contract of
 * `RecordStore.commit`); the store adds its own for unique values.
 */
export const MAX_COMMIT_CHECKS = 10;

/** Options of {@linkcode KvRecords}. */
export interface KvRecordsOptions {
  /** Key prefix, so Gatehouse can share a database; `["gatehouse"]` by default. */
  prefix?: Deno.KvKey;
  /**
   * Reads in flight at most (2 by default). A read goes at the end of the
   * turn it was asked in, with every read (records and counters) asked in
   * that turn; a read that finds them all busy waits for the next one,
   * which carries every read then waiting that fits in one `getMany` of
   * ten keys: under load, one round trip serves several requests' session
   * checks. Nothing is cached.
   */
  sessionReadsInFlight?: number;
  /**
   * A second handle on the same database (the same file, opened again),
   * for reads; commits and the sweep stay on `kv`, which reads too when
   * this is absent. A local KV file runs each handle's reads and commits
   * one after another on its own thread, so on one handle a session
   * check's read waits behind every commit sent before it (the Reaper's,
   * a sign-in's); on its own handle it is read beside them (the file is
   * in WAL mode: a read sees every commit that returned before it began).
   * Commits stay on one handle, in the order sent: a second writing handle
   * would take SQLite's write lock in turns with the first, and under a
   * steady stream of writes the sweep's commits would wait minutes for
   * it (bench/README.md, "Sweeps"). `migrate()` refuses a handle on
   * another database (`:memory:` opens a new one each time). The caller
   * opens and closes it.
   */
  readKv?: Deno.Kv;
}

/**
 * The Deno KV implementation of {@linkcode RecordStore}: each record under
 * its kind and key, a copy under each unique field (written in the same
 * commit, so a read by it is one get with the same versionstamp), list,
 * expiry and event index entries beside it, and every commit one atomic
 * operation guarded by versionstamp checks, so instances sharing one KV
 * database keep the same rules as one.
 *
 * @example A commit, then a read by a unique field
 * ```ts
 * import { KvRecords } from "./kv_records.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const records = new KvRecords(kv);
 * await records.migrate();
 * const account = {
 *   id: "0190a0a0-0000-7000-8000-000000000001",
 *   email: "Ada@example.com",
 *   emailKey: "ada@example.com",
 *   name: "Ada",
 *   nameKey: "ada",
 *   role: "admin",
 *   disabled: false,
 *   passwordHash: "$argon2id$…",
 *   generation: 0,
 *   createdAt: 0,
 *   factorVersion: 0,
 *   totpEnabled: false,
 *   passkeyCount: 0,
 *   locale: "",
 *   localeChosen: false,
 * };
 * const ok = await records.commit({
 *   checks: [{ kind: "account", key: account.id, version: null }],
 *   puts: [{ kind: "account", value: account, before: null }],
 * });
 * const [found] = await records.read([
 *   { kind: "account", unique: "emailKey", value: "ada@example.com" },
 * ]);
 * console.assert(ok && found !== null);
 * kv.close();
 * ```
 */
export class KvRecords implements RecordStore {
  readonly #kv: Deno.Kv;
  readonly #readKv: Deno.Kv;
  readonly #prefix: Deno.KvKey;
  readonly #k: RecordKeys;
  readonly #reader: KvReader;

  /**
   * Wraps an open `Deno.Kv`.
   *
   * @param kv The database; the caller opens and closes it.
   * @param options The key prefix, the reads kept in flight and the
   *   reads' own handle.
   */
  constructor(kv: Deno.Kv, options: KvRecordsOptions = {}) {
    this.#kv = kv;
    this.#readKv = options.readKv ?? kv;
    this.#prefix = options.prefix ?? ["gatehouse"];
    this.#k = recordKeys(this.#prefix);
    this.#reader = kvReader(
      this.#readKv,
      this.#k,
      options.sessionReadsInFlight ?? DEFAULT_SESSION_READS_IN_FLIGHT,
    );
  }

  /**
   * Records the schema version on an empty store; refuses a store of any
   * other version (see ./_record_schema.ts), or a read handle on another
   * database.
   */
  async migrate(): Promise<void> {
    await migrateRecords(this.#kv, this.#k, this.#prefix);
    if (this.#readKv !== this.#kv) {
      await sameDatabase(this.#kv, this.#readKv, this.#k);
    }
  }

  /** The records behind `refs`, in order: one getMany when ten keys hold them. */
  read(refs: readonly RecordRef[]): Promise<(Versioned<unknown> | null)[]> {
    return this.#reader.records(refs);
  }

  /** Every record of `kind` whose `field` is `value`, in no set order. */
  async list<K extends Kind>(
    kind: K,
    field: ListField<K>,
    value: string,
  ): Promise<Versioned<RecordKinds[K]>[]> {
    const found = await listRecords(this.#readKv, this.#k, kind, field, value);
    return found as Versioned<RecordKinds[K]>[];
  }

  /**
   * Applies `c` in one atomic operation if every check holds (and every
   * unique value it gives is free); answers whether it did. Throws when
   * the commit exceeds {@linkcode MAX_COMMIT_CHECKS} or Deno KV's limits.
   */
  async commit(c: Commit): Promise<boolean> {
    const checks = c.checks ?? [];
    if (checks.length > MAX_COMMIT_CHECKS) {
      throw new Error(
        `KvRecords: a commit carries at most ${MAX_COMMIT_CHECKS} checks; this one has ${checks.length}`,
      );
    }
    const k = this.#k;
    const writes = new Writes(k, Date.now());
    for (const check of checks) {
      writes.check(k.record(check.kind, check.key), check.version);
    }
    // `before` is the stored value a put replaces, as its rule read (and
    // checked) it; absent, the record is new.
    const puts = (c.puts ?? []).map((put) => ({
      kind: put.kind,
      value: put.value as object,
      before: (put.before ?? null) as object | null,
    }));
    const deletes = c.deletes ?? [];
    const freed = freedCopies(k, deletes, puts);
    for (const { kind, value } of deletes) writes.deleteRecord(kind, value);
    for (const { kind, value, before } of puts) {
      writes.putRecord(kind, value, before, freed);
    }
    for (const { key, by } of c.tallies ?? []) {
      writes.sum(k.record("tally", key), by);
    }
    for (const event of c.events ?? []) {
      writes.putRecord("event", event, null, freed);
    }
    if (writes.checks.length === 0 && writes.size === 0) {
      return true;
    }
    writes.assertWithinLimits();
    return (await commit(writes.operation(this.#kv))).ok;
  }

  /** A page of accounts in the query's order, with the number matching. */
  async accounts(query: AccountQuery): Promise<AccountPage> {
    const all: AccountRecord[] = [];
    for await (
      const entry of this.#readKv.list<AccountRecord>({
        prefix: this.#k.records("account"),
      })
    ) {
      all.push(entry.value);
    }
    return accountPage(all, query);
  }

  /** Whether any account exists: one key read at most. */
  async hasAccounts(): Promise<boolean> {
    const prefix = this.#k.records("account");
    for await (const _ of this.#readKv.list({ prefix }, { limit: 1 })) {
      return true;
    }
    return false;
  }

  /** A page of audit events, newest first, from the matching index. */
  events(query: EventQuery): Promise<AuditEvent[]> {
    return listEvents(this.#readKv, this.#k, query);
  }

  /**
   * Deletes up to `limit` records of `kind` whose expiry field is at or
   * before `before`, with their copies and index entries; returns how many.
   */
  deleteExpired(
    kind: ExpiringKind,
    before: number,
    limit: number,
  ): Promise<number> {
    return deleteExpired(this.#kv, this.#k, kind, before, limit);
  }

  /** Reserves one attempt on the counter `key` (see `RecordStore`). */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation> {
    return counters.reserveAttempt(
      this.#kv,
      this.#k,
      key,
      window,
      this.#reader,
    );
  }

  /** Gives one attempt back to the window of `key` ending at `resetAt`. */
  releaseAttempt(key: string, resetAt: number): Promise<void> {
    return counters.releaseAttempt(this.#kv, this.#k, key, resetAt);
  }

  /**
   * The counter `key` if its window is open at `now`, else null; read with
   * the records and counters asked for in the same turn.
   */
  readCounter(key: string, now: number): Promise<Counter | null> {
    return this.#reader.counter(key, now);
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number> {
    return counters.deleteExpiredCounters(this.#kv, this.#k, now, limit);
  }
}
