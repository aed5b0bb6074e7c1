/**
 * The embedded store: Deno KV, on a local file (`Deno.openKv(path)`), in
 * memory (`:memory:`), or Deno Deploy's managed KV. Pass the `Deno.Kv` you
 * opened; the store never opens or closes it.
 *
 * Every multi-record decision is one atomic commit guarded by versionstamp
 * checks and retried on conflict, so several instances sharing one KV
 * database keep the same rules as one.
 *
 * @example Opening the store
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * kv.close();
 * ```
 *
 * @module
 */

export { KvStore, type KvStoreOptions } from "./kv_store.ts";
export { KvRecords, type KvRecordsOptions } from "./kv_records.ts";
