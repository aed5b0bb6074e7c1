// Opens the store a bench server was told to use. The harness seeds it
// before the server starts (bench/_seed.ts); servers only read and write
// through it like an application would.

import postgres from "postgres";
import type { Store } from "../../server/core/store.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";

/** Where a bench server finds its store. */
export type StoreConfig =
  | { store: "kv"; kvPath: string }
  | { store: "postgres"; url: string; schema: string };

/** The store, and the raw handles lean baselines use. */
export interface OpenedBenchStore {
  store: Store;
  kv?: Deno.Kv;
  sql?: postgres.Sql;
}

/** Opens the store named by `config`. */
export async function openStore(
  config: StoreConfig,
): Promise<OpenedBenchStore> {
  if (config.store === "kv") {
    const kv = await Deno.openKv(config.kvPath);
    return { store: new KvStore(kv), kv };
  }
  // Ten connections, postgres.js's default, for ours and lean alike.
  const sql = postgres(config.url, { max: 10, onnotice: () => {} });
  return { store: new PostgresStore(sql, { schema: config.schema }), sql };
}
