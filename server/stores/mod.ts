/**
 * Writing a store for Gatehouse. A store is a {@linkcode RecordStore}: it
 * keeps records of a few kinds ({@linkcode KINDS} says how each is keyed
 * and indexed), answers reads of them with their versions, and applies one
 * atomic commit of checked writes. It decides nothing: every rule (the last
 * administrator, the session cap, single-use links, the passkey cap, role
 * reach, the generation binding) is written once, in {@linkcode RuleStore},
 * which turns any record store into the {@linkcode Store} that
 * `createGatehouse({store})` takes. `KvStore`, `PostgresStore` and
 * `SqliteStore` are exactly that over theirs; `./conformance` holds a new
 * one to the same behaviour (`recordStoreConformance`, then
 * `storeConformance` over `new RuleStore(yours)`).
 *
 * @example A store of your own
 * ```ts
 * import { RuleStore } from "@gatehouse/server/store";
 * import { SqliteRecords } from "@gatehouse/server/sqlite";
 *
 * // Any RecordStore: here the SQLite one, in memory.
 * const records = new SqliteRecords({ path: ":memory:" });
 * const store = new RuleStore(records);
 * await store.migrate();
 * console.assert(await store.hasUsers() === false);
 * records.close();
 * ```
 *
 * @module
 */

export type * from "../core/store.ts";
export { KINDS } from "../core/records.ts";
export { RuleStore } from "../core/rules/mod.ts";
