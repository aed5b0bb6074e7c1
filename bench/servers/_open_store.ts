// Opens the store a bench server was told to use. The harness seeds it
// before the server starts (bench/_seed.ts); servers only read and write
// through it like an application would.

// Each store's modules (and postgres.js) are imported for the run that
// uses them only, so a server's cold start on KV (the cold-start scenario)
// does not pay for the Postgres driver, and the other way round.

import type postgres from "postgres";
import type { Store } from "../../server/core/store.ts";

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

/**
 * Opens the store named by `config`; with `readHandle`, a KV store reads
 * through a second handle of its file, as `openStoreFromEnv` (the demo)
 * opens it.
 */
export async function openStore(
  config: StoreConfig,
  { readHandle = false } = {},
): Promise<OpenedBenchStore> {
  if (config.store === "kv") {
    const [{ KvStore }, kv, readKv] = await Promise.all([
      import("../../server/stores/kv/mod.ts"),
      Deno.openKv(config.kvPath),
      readHandle ? Deno.openKv(config.kvPath) : undefined,
    ]);
    return {
      store: new KvStore(kv, readKv === undefined ? {} : { readKv }),
      kv,
    };
  }
  const [{ default: postgres }, { PostgresStore }] = await Promise.all([
    import("postgres"),
    import("../../server/stores/postgres/mod.ts"),
  ]);
  // Ten connections, postgres.js's default, for ours and lean alike.
  const sql = postgres(config.url, { max: 10, onnotice: () => {} });
  return { store: new PostgresStore(sql, { schema: config.schema }), sql };
}
