// KvStore: the rules (core/rules) over KvRecords. Everything KV-specific
// is in kv_records.ts and its modules; nothing here decides anything.

import { RuleStore } from "../../core/rules/mod.ts";
import { KvRecords, type KvRecordsOptions } from "./kv_records.ts";

/** Options of {@linkcode KvStore}. */
export type KvStoreOptions = KvRecordsOptions;

/**
 * The Deno KV store: every operation of `Store`, decided by the rules in
 * core over {@linkcode KvRecords} (reads and versionstamp-checked atomic
 * commits), so several instances sharing one KV database keep the same
 * rules as one.
 *
 * @example Two app instances sharing one KV file
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const path = await Deno.makeTempFile();
 * const a = await Deno.openKv(path);
 * const b = await Deno.openKv(path);
 * const storeA = new KvStore(a);
 * const storeB = new KvStore(b);
 * await storeA.migrate();
 * console.assert(await storeB.hasUsers() === false);
 * a.close();
 * b.close();
 * await Deno.remove(path);
 * ```
 *
 * @example Reads on a handle of their own
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * // A second handle on the same file: session checks are read beside
 * // the commits (the Reaper's, sign-ins') instead of behind them.
 * const path = await Deno.makeTempFile();
 * const kv = await Deno.openKv(path);
 * const readKv = await Deno.openKv(path);
 * const store = new KvStore(kv, { readKv });
 * await store.migrate();
 * console.assert(await store.hasUsers() === false);
 * kv.close();
 * readKv.close();
 * await Deno.remove(path);
 * ```
 */
export class KvStore extends RuleStore {
  /**
   * Wraps an open `Deno.Kv`; the caller opens and closes it.
   *
   * @param kv The database.
   * @param options The key prefix, the session reads in flight and the
   *   reads' own handle (`readKv`).
   */
  constructor(kv: Deno.Kv, options: KvStoreOptions = {}) {
    super(new KvRecords(kv, options));
  }
}
