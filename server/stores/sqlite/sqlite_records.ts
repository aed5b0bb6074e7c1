// The narrow store over SQLite (`node:sqlite`, built into Deno), on the
// tables of _schema.ts. A commit, like a counter's reservation, is one
// `BEGIN IMMEDIATE` transaction, so writes from every connection run one at
// a time. A version is the value of a clock every commit moves: a record
// deleted and written again never gets an old version back.

import {
  type AccountPage,
  type AccountQuery,
  type AttemptWindow,
  type AuditEvent,
  type Commit,
  type Counter,
  type EventQuery,
  type ExpiringKind,
  keyOf,
  type Kind,
  KINDS,
  type ListField,
  type RecordKinds,
  type RecordRef,
  type RecordStore,
  type Reservation,
  type StoredTally,
  type Versioned,
} from "../../core/records.ts";
import { Connection, isUniqueViolation, versioned } from "./_connection.ts";
import { accountPage, eventPage } from "./_pages.ts";
import { COUNTERS, field, migrate, RECORDS } from "./_schema.ts";

/** Where {@linkcode SqliteRecords} keeps its data. */
export interface SqliteRecordsOptions {
  /** The database file (created if missing), or `":memory:"`; not empty. */
  path: string;
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
  /** The database file, or `":memory:"`. */
  readonly path: string;
  #c: Connection;

  /** Opens (or creates) the database; {@linkcode migrate} before use. */
  constructor(options: SqliteRecordsOptions) {
    // SQLite takes an empty name for a temporary database, deleted at exit:
    // an unset variable would make a store that forgets every account.
    if (!options.path?.trim()) {
      throw new TypeError(
        'The SQLite store\'s option "path" is empty: name the database file',
      );
    }
    this.path = options.path;
    this.#c = new Connection(options.path);
  }

  /** Creates or upgrades the schema; refuses one from a newer version. */
  migrate(): Promise<void> {
    return migrate(this.#c);
  }

  /** The records behind `refs`, in order, read from one snapshot. */
  read(refs: readonly RecordRef[]): Promise<(Versioned<unknown> | null)[]> {
    const one = (ref: RecordRef) => {
      if ("key" in ref) return this.#byKey(ref.kind, ref.key);
      const row = this.#c.statement(byField(ref.kind, ref.unique, "unique"))
        .get(ref.value);
      return row === undefined ? null : versioned(row);
    };
    return this.#c.read(() => refs.map(one));
  }

  /** Every record of `kind` whose `field` is `value`. */
  list<K extends Kind>(
    kind: K,
    name: ListField<K>,
    value: string,
  ): Promise<Versioned<RecordKinds[K]>[]> {
    return this.#c.read(() =>
      this.#c.statement(byField(kind, name, "lists")).all(value)
        .map(versioned<RecordKinds[K]>)
    );
  }

  /**
   * Applies `commit` when every check holds and no put takes a unique
   * value another record holds; otherwise writes nothing. Returns whether
   * it applied.
   */
  async commit(commit: Commit): Promise<boolean> {
    try {
      return await this.#c.write(() => this.#apply(commit));
    } catch (err) {
      // The whole transaction is rolled back: nothing was written.
      if (isUniqueViolation(err)) return false;
      throw err;
    }
  }

  /** A page of accounts in the query's order, and the number matching. */
  accounts(query: AccountQuery): Promise<AccountPage> {
    return this.#c.read(() => accountPage(this.#c, query));
  }

  /** Whether any account exists. */
  hasAccounts(): Promise<boolean> {
    const any = `SELECT 1 FROM ${RECORDS} WHERE kind = 'account' LIMIT 1`;
    return this.#c.read(() => this.#c.statement(any).get() !== undefined);
  }

  /** A page of audit events, newest first. */
  events(query: EventQuery): Promise<AuditEvent[]> {
    return this.#c.read(() => eventPage(this.#c, query));
  }

  /** Deletes up to `limit` records of `kind` expired by `before`, oldest first. */
  deleteExpired(
    kind: ExpiringKind,
    before: number,
    limit: number,
  ): Promise<number> {
    return Promise.try(() => {
      const expiry: string | null = KINDS[kindOf(kind)].expiry;
      if (expiry === null) throw new TypeError(`${kind} records do not expire`);
      const at = field(expiry);
      const oldest = `kind = '${kind}' AND ${at} <= ? ORDER BY ${at}`;
      return this.#c.sweep(RECORDS, oldest, before, limit);
    });
  }

  /** Reserves one attempt unless the open window already counts `limit`. */
  reserveAttempt(
    key: string,
    { now, windowMs, limit }: AttemptWindow,
  ): Promise<Reservation> {
    return this.#c.write(() => {
      const row = this.#c.statement(`
        INSERT INTO ${COUNTERS} AS c (key, count, reset_at)
        VALUES (:key, 1, :end)
        ON CONFLICT (key) DO UPDATE SET
          count = iif(c.reset_at > :now, c.count + 1, 1),
          reset_at = iif(c.reset_at > :now, c.reset_at, excluded.reset_at)
        WHERE c.reset_at <= :now OR c.count < :limit
        RETURNING count, reset_at AS resetAt`)
        .get({ key, end: now + windowMs, now, limit }) as Counter | undefined;
      // None: refused, the window open at `now` is full (nothing written).
      return row === undefined
        ? { admitted: false, ...this.#counter(key, now)! }
        : { admitted: true, ...row };
    });
  }

  /** Gives one attempt back to the window ending at `resetAt`, if still there. */
  async releaseAttempt(key: string, resetAt: number): Promise<void> {
    await this.#c.write(() =>
      this.#c.statement(`UPDATE ${COUNTERS} SET count = count - 1
        WHERE key = ? AND reset_at = ? AND count > 0`).run(key, resetAt)
    );
  }

  /** The counter `key` if its window is still open at `now`. */
  readCounter(key: string, now: number): Promise<Counter | null> {
    return this.#c.read(() => this.#counter(key, now));
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number> {
    const ended = "reset_at <= ? ORDER BY reset_at";
    return this.#c.sweep(COUNTERS, ended, now, limit);
  }

  /** Closes the database. The store answers nothing afterwards. */
  close(): void {
    this.#c.close();
  }

  #byKey(kind: Kind, key: string): Versioned<unknown> | null {
    const row = this.#c.statement(
      `SELECT version, value FROM ${RECORDS} WHERE kind = ? AND key = ?`,
    ).get(kindOf(kind), key);
    return row === undefined ? null : versioned(row);
  }

  #counter(key: string, now: number): Counter | null {
    const row = this.#c.statement(`SELECT count, reset_at AS resetAt
      FROM ${COUNTERS} WHERE key = ? AND reset_at > ?`).get(key, now);
    return row === undefined ? null : { ...row as unknown as Counter };
  }

  // Inside the write transaction: the checks, then every write under one
  // new version.
  #apply(commit: Commit): boolean {
    for (const { kind, key, version: expected } of commit.checks ?? []) {
      if ((this.#byKey(kind, key)?.version ?? null) !== expected) return false;
    }
    const tick = "UPDATE gatehouse_clock SET n = n + 1 RETURNING n";
    const version = Number(this.#c.statement(tick).get()!.n);
    const { deletes = [], puts = [] } = commit;
    // Every record replaced goes too, so a unique value is checked against
    // what the commit leaves, whatever the order of its puts.
    const remove = this.#c.statement(
      `DELETE FROM ${RECORDS} WHERE kind = ? AND key = ?`,
    );
    for (const { kind, value } of [...deletes, ...puts]) {
      remove.run(kindOf(kind), keyOf(kind, value));
    }
    // Records hold only JSON values, so they come back exactly as put.
    const upsert = this.#c.statement(`
      INSERT INTO ${RECORDS} (kind, key, version, value) VALUES (?, ?, ?, ?)
      ON CONFLICT (kind, key) DO UPDATE
      SET version = excluded.version, value = excluded.value`);
    const put = (kind: Kind, value: object) =>
      upsert.run(kind, keyOf(kind, value), version, JSON.stringify(value));
    for (const { kind, value } of puts) put(kind, value);
    for (const { key, by } of commit.tallies ?? []) {
      const tally = this.#byKey("tally", key)?.value as StoredTally | undefined;
      put("tally", { key, count: (tally?.count ?? 0) + by });
    }
    for (const event of commit.events ?? []) put("event", event);
    return true;
  }
}

// Kinds and field names are written into SQL (for the partial indexes to
// apply), so only those KINDS names pass.
function kindOf(kind: string): Kind {
  if (!Object.hasOwn(KINDS, kind)) {
    throw new TypeError(`Unknown record kind: ${kind}`);
  }
  return kind as Kind;
}

// The records of `kind` whose unique or list field `name` is the one
// parameter: the kind is a literal, so SQLite uses its partial index.
function byField(kind: Kind, name: string, role: "unique" | "lists"): string {
  if (!(KINDS[kindOf(kind)][role] as readonly string[]).includes(name)) {
    throw new TypeError(`${kind} records have no ${role} field ${name}`);
  }
  return `SELECT version, value FROM ${RECORDS}
    WHERE kind = '${kind}' AND ${field(name)} = ?`;
}
