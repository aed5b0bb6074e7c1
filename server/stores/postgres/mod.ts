/**
 * The shared store: PostgreSQL through postgres.js (npm:postgres). Several
 * app instances on one database share accounts, sessions, links and limiter
 * counts. Pass the `sql` client you created; the store never opens or ends
 * connections, and importing it connects to nothing.
 *
 * @example Creating the store
 * ```ts
 * import postgres from "postgres";
 * import { PostgresStore } from "@gatehouse/server/postgres";
 *
 * // postgres.js connects lazily: nothing happens until the first query.
 * const sql = postgres("postgres://app@127.0.0.1:5432/app");
 * const store = new PostgresStore(sql, { schema: "gatehouse" });
 * // At startup: `await store.migrate();`
 * await sql.end();
 * ```
 *
 * @module
 */

export { PostgresStore, type PostgresStoreOptions } from "./postgres_store.ts";
export {
  PostgresRecords,
  type PostgresRecordsOptions,
} from "./postgres_records.ts";
