/**
 * The store conformance suite: one set of tests every `Store` must pass,
 * run unchanged against `KvStore`, `PostgresStore` and any store you write.
 * {@linkcode storeConformance} registers the cases with `Deno.test`; call it
 * from a test file with a function that opens a fresh, empty store.
 *
 * @example A test file for your store
 * ```ts
 * import { storeConformance } from "@gatehouse/server/conformance";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * // Every case gets a fresh, empty store and closes it afterwards.
 * storeConformance("KvStore", async () => {
 *   const kv = await Deno.openKv(":memory:");
 *   return { store: new KvStore(kv), close: () => kv.close() };
 * });
 *
 * // Tests of what only your store does sit beside the suite.
 * Deno.test("KvStore keeps its records under its prefix", async () => {
 *   const kv = await Deno.openKv(":memory:");
 *   await new KvStore(kv, { prefix: ["auth"] }).migrate();
 *   const records = await Array.fromAsync(kv.list({ prefix: ["auth"] }));
 *   console.assert(records.length > 0);
 *   kv.close();
 * });
 * ```
 *
 * @module
 */

export {
  type OpenStore,
  storeConformance,
  type StoreConformanceOptions,
  type StoreUnderTest,
} from "./store_conformance.ts";
export {
  type OpenRecordStore,
  recordStoreConformance,
  type RecordStoreUnderTest,
} from "./records.ts";
