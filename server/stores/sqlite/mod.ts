/**
 * The SQLite store: Gatehouse on one file through `node:sqlite`, which is
 * built into Deno, so it needs no unstable API, no service and no
 * dependency. It is the store for a single server that wants no unstable
 * APIs: one process serves, and others (`deno task create-admin`, a second
 * instance on the same machine) may open the same file; every write is one
 * short transaction, and a writer waits for another's lock.
 *
 * {@linkcode sqliteStore} gives the whole `Store` (every rule, over
 * {@linkcode SqliteRecords}); `SqliteRecords` alone is the narrow
 * `RecordStore`.
 *
 * @example Opening the store on a file
 * ```ts
 * import { sqliteStore } from "@gatehouse/server/sqlite";
 *
 * const path = await Deno.makeTempFile({ suffix: ".db" });
 * const store = sqliteStore({ path });
 * await store.migrate();
 * console.assert(!(await store.hasUsers()));
 * store.close();
 * await Deno.remove(path);
 * ```
 *
 * @module
 */

import { RuleStore } from "../../core/rules/mod.ts";
import { SqliteRecords, type SqliteRecordsOptions } from "./sqlite_records.ts";

export { SqliteRecords, type SqliteRecordsOptions };

/**
 * Every `Store` operation over a SQLite database: the rules of
 * {@linkcode RuleStore} on {@linkcode SqliteRecords}.
 *
 * @example An in-memory store for a test
 * ```ts
 * import { SqliteStore } from "@gatehouse/server/sqlite";
 *
 * const store = new SqliteStore({ path: ":memory:" });
 * await store.migrate();
 * console.assert((await store.listUsers({ limit: 10 })).users.length === 0);
 * store.close();
 * ```
 */
export class SqliteStore extends RuleStore {
  #sqlite: SqliteRecords;

  /** Opens (or creates) the database; `migrate()` before use. */
  constructor(options: SqliteRecordsOptions) {
    const records = new SqliteRecords(options);
    super(records);
    this.#sqlite = records;
  }

  /** The database file, or `":memory:"`. */
  get path(): string {
    return this.#sqlite.path;
  }

  /** Closes the database. */
  close(): void {
    this.#sqlite.close();
  }
}

/**
 * The SQLite store on `path` (a file, created if missing, or
 * `":memory:"`; an empty path, which SQLite takes for a temporary database
 * deleted at exit, is refused with a `TypeError`). Call `migrate()` before
 * use and `close()` when done.
 *
 * @example Serving from a file
 * ```ts
 * import { sqliteStore } from "@gatehouse/server/sqlite";
 *
 * const store = sqliteStore({ path: ":memory:" });
 * await store.migrate();
 * store.close();
 * ```
 */
export function sqliteStore(options: { path: string }): SqliteStore {
  return new SqliteStore(options);
}
