// The narrow store over SQLite (`node:sqlite`, built into Deno). Records
// are JSON in one table keyed by (kind, key), indexed as `KINDS` says. A
// commit is one `BEGIN IMMEDIATE` transaction that checks versions, then
// writes: commits from every connection to the file run one at a time. A
// version is the value of a clock every commit moves, so a record deleted
// and written again never gets an old version back. Every answer is
// synchronous, handed back as a promise.

import {
  type AccountPage,
  type AccountQuery,
  type AttemptWindow,
  type AuditEvent,
  type Commit,
  type Counter,
  type EventQuery,
  type ExpiringKind,
  type Kind,
  KINDS,
  type ListField,
  type RecordKinds,
  type RecordRef,
  type RecordStore,
  type Reservation,
  type Versioned,
} from "../../core/records.ts";
import { Connection, isUniqueViolation, type Row } from "./_connection.ts";
import * as counters from "./_counters.ts";
import { accountPage, eventPage } from "./_pages.ts";
import { field, migrate, RECORDS } from "./_schema.ts";

/** Where {@linkcode SqliteRecords} keeps its data. */
export interface SqliteRecordsOptions {
  /** The database file (created if missing), or `":memory:"`. */
  path: string;
  /**
   * How long a write waits for another connection to the same file to
   * finish its transaction, in ms (5000 by default).
   */
  busyTimeout?: number;
}

/**
 * The {@linkcode RecordStore} over a SQLite database. Open one per process
 * and file; several (instances, `create-admin`) may share the file.
 * Everything runs synchronously on the calling thread, one short
 * transaction at a time.
 *
 * @example A record store on a file
 * ```ts
 * import { SqliteRecords } from "@gatehouse/server/sqlite";
 *
 * const records = new SqliteRecords({ path: ":memory:" });
 * await records.migrate();
 * const saved = await records.commit({ tallies: [{ key: "enabled", by: 1 }] });
 * const [tally] = await records.read([{ kind: "tally", key: "enabled" }]);
 * console.assert(saved && (tally?.value as { count: number }).count === 1);
 * records.close();
 * ```
 */
export class SqliteRecords implements RecordStore {
  #c: Connection;

  /** Opens (or creates) the database; {@linkcode migrate} before use. */
  constructor(options: SqliteRecordsOptions) {
    this.#c = new Connection(options.path, options.busyTimeout ?? 5000);
  }

  /** The database file, or `":memory:"`. */
  get path(): string {
    return this.#c.path;
  }

  /** Creates or upgrades the schema; refuses one from a newer version. */
  migrate(): Promise<void> {
    return Promise.try(() => migrate(this.#c));
  }

  /** The records behind `refs`, in order, read from one snapshot. */
  read(refs: readonly RecordRef[]): Promise<(Versioned<unknown> | null)[]> {
    return Promise.try(() => {
      const one = (ref: RecordRef) => {
        const row = "key" in ref
          ? this.#byKey(ref.kind, ref.key)
          : this.#c.statement(`
              SELECT version, value FROM ${RECORDS}
              WHERE kind = '${kindOf(ref.kind)}'
                AND ${field(fieldOf(ref.kind, ref.unique, "unique"))} = ?`)
            .get(ref.value);
        return row === undefined ? null : versioned(row);
      };
      return refs.length < 2
        ? refs.map(one)
        : this.#c.read(() => refs.map(one));
    });
  }

  /** Every record of `kind` whose `field` is `value`. */
  list<K extends Kind>(
    kind: K,
    name: ListField<K>,
    value: string,
  ): Promise<Versioned<RecordKinds[K]>[]> {
    return Promise.try(() =>
      this.#c.statement(`
        SELECT version, value FROM ${RECORDS}
        WHERE kind = '${kindOf(kind)}'
          AND ${field(fieldOf(kind, name, "lists"))} = ?`)
        .all(value).map((row) => versioned<RecordKinds[K]>(row))
    );
  }

  /**
   * Applies `commit` when every check holds and no put takes a unique
   * value another record holds; otherwise writes nothing. Returns whether
   * it applied.
   */
  commit(commit: Commit): Promise<boolean> {
    return Promise.try(() => {
      try {
        return this.#c.write(() => this.#apply(commit));
      } catch (err) {
        // The whole transaction is rolled back: nothing was written.
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    });
  }

  /** A page of accounts in the query's order, with the number matching. */
  accounts(query: AccountQuery): Promise<AccountPage> {
    return Promise.try(() => accountPage(this.#c, query));
  }

  /** Whether any account exists. */
  hasAccounts(): Promise<boolean> {
    return Promise.try(() =>
      this.#c.statement(
        `SELECT 1 AS one FROM ${RECORDS} WHERE kind = 'account' LIMIT 1`,
      ).get() !== undefined
    );
  }

  /** A page of audit events, newest first. */
  events(query: EventQuery): Promise<AuditEvent[]> {
    return Promise.try(() => eventPage(this.#c, query));
  }

  /**
   * Deletes up to `limit` records of `kind` whose expiry field is at or
   * before `before`, oldest first; returns how many.
   */
  deleteExpired(
    kind: ExpiringKind,
    before: number,
    limit: number,
  ): Promise<number> {
    return Promise.try(() => {
      const expiry: string | null = KINDS[kindOf(kind)].expiry;
      if (expiry === null) {
        throw new TypeError(`${kind} records do not expire`);
      }
      return this.#c.write(() =>
        Number(
          this.#c.statement(`
            DELETE FROM ${RECORDS} WHERE kind = '${kind}' AND key IN (
              SELECT key FROM ${RECORDS}
              WHERE kind = '${kind}' AND ${field(expiry)} <= ?
              ORDER BY ${field(expiry)} LIMIT ?)`).run(before, limit).changes,
        )
      );
    });
  }

  /** Reserves one attempt unless the open window already counts `limit`. */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation> {
    return Promise.try(() => counters.reserveAttempt(this.#c, key, window));
  }

  /** Gives one attempt back to the window ending at `resetAt`. */
  releaseAttempt(key: string, resetAt: number): Promise<void> {
    return Promise.try(() => counters.releaseAttempt(this.#c, key, resetAt));
  }

  /** The counter `key` if its window is still open at `now`. */
  readCounter(key: string, now: number): Promise<Counter | null> {
    return Promise.try(() => counters.readCounter(this.#c, key, now));
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number> {
    return Promise.try(() =>
      counters.deleteExpiredCounters(this.#c, now, limit)
    );
  }

  /** Closes the database. The store answers nothing afterwards. */
  close(): void {
    this.#c.close();
  }

  #byKey(kind: Kind, key: string): Row | undefined {
    return this.#c.statement(
      `SELECT version, value FROM ${RECORDS} WHERE kind = ? AND key = ?`,
    ).get(kindOf(kind), key);
  }

  // Inside the write transaction: the checks, then every write under one
  // new version.
  #apply(commit: Commit): boolean {
    for (const check of commit.checks ?? []) {
      const row = this.#byKey(check.kind, check.key);
      const version = row === undefined ? null : String(row.version);
      if (version !== check.version) return false;
    }
    const version = Number(
      this.#c.statement(
        "UPDATE gatehouse_clock SET n = n + 1 RETURNING n",
      ).get()!.n,
    );
    const { deletes = [], puts = [] } = commit;
    const remove = this.#c.statement(
      `DELETE FROM ${RECORDS} WHERE kind = ? AND key = ?`,
    );
    // Every record replaced goes too, so a unique value is checked against
    // what the commit leaves, whatever the order of its puts.
    for (const { kind, value } of [...deletes, ...puts]) {
      remove.run(kindOf(kind), keyOf(kind, value));
    }
    const upsert = this.#c.statement(`
      INSERT INTO ${RECORDS} (kind, key, version, value) VALUES (?, ?, ?, ?)
      ON CONFLICT (kind, key) DO UPDATE
      SET version = excluded.version, value = excluded.value`);
    // Records hold only JSON values, so they come back exactly as put.
    const put = <K extends Kind>(kind: K, value: RecordKinds[K]) =>
      upsert.run(
        kindOf(kind),
        keyOf(kind, value),
        version,
        JSON.stringify(value),
      );
    for (const { kind, value } of puts) put(kind, value);
    for (const { key, by } of commit.tallies ?? []) {
      const row = this.#byKey("tally", key);
      const count = row === undefined
        ? 0
        : (JSON.parse(row.value as string) as RecordKinds["tally"]).count;
      put("tally", { key, count: count + by });
    }
    for (const event of commit.events ?? []) put("event", event);
    return true;
  }
}

function versioned<T>(row: Row): Versioned<T> {
  return {
    value: JSON.parse(row.value as string) as T,
    version: String(row.version),
  };
}

// Kinds and field names are written into SQL (for the partial indexes to
// apply), so only those KINDS names pass.
function kindOf(kind: string): Kind {
  if (!Object.hasOwn(KINDS, kind)) {
    throw new TypeError(`Unknown record kind: ${kind}`);
  }
  return kind as Kind;
}

function fieldOf(
  kind: Kind,
  name: string,
  role: "unique" | "lists",
): string {
  if (!(KINDS[kindOf(kind)][role] as readonly string[]).includes(name)) {
    throw new TypeError(`${kind} records have no ${role} field ${name}`);
  }
  return name;
}

function keyOf<K extends Kind>(kind: K, value: RecordKinds[K]): string {
  return String((value as unknown as Record<string, unknown>)[KINDS[kind].key]);
}
