// One SQLite connection (`node:sqlite`, synchronous) with what every query
// of the store needs: its statements prepared once, and transactions that
// begin, commit and roll back in one synchronous stretch. Nothing awaits
// inside a transaction, so a connection never holds a lock across the event
// loop. A statement that finds the file locked by another connection
// (another instance, `create-admin`, the application's own transaction in
// the same file) waits for it between turns of the event loop, not on the
// thread: the process answers what needs no lock meanwhile.

import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { Versioned } from "../../core/records.ts";

// SQLite's primary result code for a lock held by another connection; the
// extended codes (BUSY_RECOVERY, BUSY_SNAPSHOT, …) share its low byte.
const SQLITE_BUSY = 5;
// SQLite's primary result code for a write to a database opened read-only.
const SQLITE_READONLY = 8;
// How long a statement waits for another connection's lock in all, ms: a
// long import in another process gets that long before the store says
// plainly what happened.
const LOCK_WAIT = 15_000;
// How long a statement waits for the lock on the thread (SQLite's busy
// wait, which holds up the whole process), ms: another connection's usual
// transaction ends sooner. Past it, it waits between turns of the loop.
const WAIT_ON_THREAD = 10;
// The longest pause between two tries for the lock, ms.
const MAX_PAUSE = 50;

/** A statement's row, as `node:sqlite` answers it. */
type Row = Record<string, unknown>;

/** The store's connection to one SQLite database. */
export class Connection {
  /** The file (or `:memory:`), for messages. */
  readonly path: string;
  #db: DatabaseSync;
  #statements = new Map<string, StatementSync>();
  // The statements waiting for a lock, and when the last of them settles.
  #lines = {
    read: { waiting: 0, last: Promise.resolve() },
    write: { waiting: 0, last: Promise.resolve() },
  };

  constructor(path: string) {
    this.path = path;
    this.#db = new DatabaseSync(path);
    this.#db.exec(`PRAGMA busy_timeout = ${WAIT_ON_THREAD}`);
  }

  /** The statement for `sql`, prepared on first use. */
  statement(sql: string): StatementSync {
    const statement = this.#statements.get(sql) ?? this.#db.prepare(sql);
    this.#statements.set(sql, statement);
    return statement;
  }

  /** Runs `sql` (one or more statements, no parameters). */
  exec(sql: string): void {
    this.#db.exec(sql);
  }

  /**
   * Runs `fn` once no other connection's lock is in its way. A statement
   * waits a moment on the thread; then `fn` runs again from the start after
   * pauses that let the process go on (and let this thread's own holder, if
   * any, finish), until LOCK_WAIT has passed. Statements that find the lock
   * taken wait in line, and only the first tries for it: each try may hold
   * the thread WAIT_ON_THREAD, so hundreds trying each would hold up the
   * process as long as the lock is held. Reads and writes have lines of
   * their own: in WAL mode a read never waits for a writer's lock.
   */
  async whenFree<T>(fn: () => T, kind: "read" | "write"): Promise<T> {
    const deadline = Date.now() + LOCK_WAIT;
    const line = this.#lines[kind];
    if (line.waiting === 0) {
      const done = this.#attempt(fn);
      if (done) return done.value;
    }
    const ahead = line.last;
    let leave!: () => void;
    line.last = new Promise<void>((resolve) => leave = resolve);
    line.waiting++;
    try {
      await ahead;
      for (let pause = 1;; pause = Math.min(2 * pause, MAX_PAUSE)) {
        // Past its time (behind one that gave up), it gives up untried.
        if (Date.now() >= deadline) {
          throw new Error(
            `The SQLite database at ${this.path} stayed locked by another ` +
              `connection for ${LOCK_WAIT} ms`,
          );
        }
        const done = this.#attempt(fn);
        if (done) return done.value;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    } finally {
      line.waiting--;
      leave();
    }
  }

  // `fn`'s value, or null when another connection's lock was in its way.
  #attempt<T>(fn: () => T): { value: T } | null {
    try {
      return { value: fn() };
    } catch (err) {
      // SQLite opens a file it cannot write read-only, without a word,
      // and its refusal of each write names no file.
      if (isReadOnly(err)) {
        throw new Error(
          `The SQLite database at ${this.path} is read-only for this ` +
            "process (the file, its directory or its mount): Gatehouse " +
            "writes to it on every sign-in",
          { cause: err },
        );
      }
      if (!isBusy(err)) throw err;
      return null;
    }
  }

  /**
   * Runs `fn` in a write transaction (`BEGIN IMMEDIATE`: the write lock
   * first, so what `fn` reads cannot change before it writes). Commits what
   * it did, or rolls everything back when it throws.
   */
  write<T>(fn: () => T): Promise<T> {
    return this.whenFree(
      () => this.#transaction("BEGIN IMMEDIATE", fn),
      "write",
    );
  }

  /** Runs `fn` on one snapshot of the database. */
  read<T>(fn: () => T): Promise<T> {
    return this.whenFree(() => this.#transaction("BEGIN", fn), "read");
  }

  /**
   * Deletes, in one write, the first `limit` rows of `table` that `where`
   * (`?` for `cut`, then an `ORDER BY`) picks; returns how many.
   */
  sweep(
    table: string,
    where: string,
    cut: number,
    limit: number,
  ): Promise<number> {
    const sql = `DELETE FROM ${table} WHERE rowid IN (
      SELECT rowid FROM ${table} WHERE ${where} LIMIT ?)`;
    return this.write(() =>
      Number(this.statement(sql).run(cut, limit).changes)
    );
  }

  /** Closes the database; the statements die with it. */
  close(): void {
    this.#statements.clear();
    if (this.#db.isOpen) this.#db.close();
  }

  #transaction<T>(begin: string, fn: () => T): T {
    // Prepared, not exec()uted: only a statement's error carries errcode.
    this.statement(begin).run();
    try {
      const result = fn();
      this.statement("COMMIT").run();
      return result;
    } catch (err) {
      if (this.#db.isTransaction) this.statement("ROLLBACK").run();
      throw err;
    }
  }
}

const errcode = (err: unknown) =>
  Number((err as { errcode?: unknown } | null)?.errcode);
const isBusy = (err: unknown) => (errcode(err) & 0xff) === SQLITE_BUSY;
const isReadOnly = (err: unknown) => (errcode(err) & 0xff) === SQLITE_READONLY;

/** Whether `err` is a duplicate in a UNIQUE index (…_UNIQUE, …_PRIMARYKEY). */
export const isUniqueViolation = (err: unknown): boolean =>
  [2067, 1555].includes(errcode(err));

/** The record a row holds (records hold only JSON values). */
export const parse = <T>(row: Row): T => JSON.parse(row.value as string) as T;

/** The record a row holds, with its version. */
export const versioned = <T>(row: Row): Versioned<T> => ({
  value: parse<T>(row),
  version: String(row.version),
});
