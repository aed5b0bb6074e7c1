// PostgresStore: the rules (core/rules) over PostgresRecords. Everything
// Postgres-specific is in postgres_records.ts and its modules; nothing
// here decides anything.

import type postgres from "postgres";
import { RuleStore } from "../../core/rules/mod.ts";
import {
  PostgresRecords,
  type PostgresRecordsOptions,
} from "./postgres_records.ts";

/** Options of {@linkcode PostgresStore}. */
export type PostgresStoreOptions = PostgresRecordsOptions;

/**
 * The PostgreSQL store: every operation of `Store`, decided by the rules in
 * core over {@linkcode PostgresRecords} (relational tables; one query a
 * read, one function call a commit), so several app instances on one
 * database keep the same rules as one. Your own tables can reference
 * `users(id)`, and the audit trail is the `audit_events` table.
 *
 * @example Two app instances sharing one database
 * ```ts
 * import postgres from "postgres";
 * import { createAuth } from "@gatehouse/server";
 * import { PostgresStore } from "@gatehouse/server/postgres";
 *
 * const url = "postgres://app@127.0.0.1:5432/app";
 * const a = postgres(url);
 * const b = postgres(url);
 * const authA = createAuth({ store: new PostgresStore(a) });
 * const authB = createAuth({ store: new PostgresStore(b) });
 * // A cookie issued by authA is accepted by authB, and a logout on either
 * // ends it on both.
 * await Promise.all([a.end(), b.end()]);
 * ```
 */
export class PostgresStore extends RuleStore {
  /**
   * Wraps a postgres.js client.
   *
   * @param sql The client; the caller creates and ends it. It must not use
   *   postgres.js `transform` options: the store reads columns by name.
   * @param options The schema and the session reads in flight.
   */
  constructor(sql: postgres.Sql, options: PostgresStoreOptions = {}) {
    super(new PostgresRecords(sql, options));
  }
}
