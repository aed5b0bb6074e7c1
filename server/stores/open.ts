/**
 * Opens the store the environment names: Postgres when `DATABASE_URL` is
 * set, otherwise SQLite when `GATEHOUSE_SQLITE_PATH` is, otherwise Deno KV
 * in a file (`GATEHOUSE_KV_PATH`, default `./data/gatehouse.kv`; opened
 * twice, so that reads go through a handle of their own). Used by
 * the demo, `deno task create-admin` and the tests, so all three pick the
 * same store the same way.
 *
 * @module
 */

import type { Store } from "../core/store.ts";
import { KvStore } from "./kv/mod.ts";

/** A store opened from the environment, with what is needed to close it. */
export interface OpenedStore {
  /** The store, migrated. */
  store: Store;
  /** Which backend was chosen. */
  kind: "kv" | "postgres" | "sqlite";
  /**
   * Where it lives: the KV or SQLite path, or the database URL without its
   * password.
   */
  location: string;
  /** Releases the connection or file. */
  close(): Promise<void>;
}

/** The variables {@linkcode openStoreFromEnv} reads. */
export interface StoreEnv {
  /** `postgres://…` selects the Postgres store. */
  DATABASE_URL?: string | undefined;
  /** A SQLite file (or `:memory:`): SQLite, unless `DATABASE_URL` is set. */
  GATEHOUSE_SQLITE_PATH?: string | undefined;
  /** KV file path when neither of the others is set. */
  GATEHOUSE_KV_PATH?: string | undefined;
}

/** Default KV file of the demo and `create-admin`. */
export const DEFAULT_KV_PATH = "./data/gatehouse.kv";

/**
 * Opens and migrates the store the environment names.
 *
 * @param env The variables; `Deno.env` by default.
 * @returns The opened store.
 *
 * @example Opening an in-memory KV store
 * ```ts
 * import { openStoreFromEnv } from "@gatehouse/server/open";
 *
 * const opened = await openStoreFromEnv({ GATEHOUSE_KV_PATH: ":memory:" });
 * console.assert(opened.kind === "kv");
 * await opened.close();
 * ```
 */
export async function openStoreFromEnv(
  env: StoreEnv = Deno.env.toObject(),
): Promise<OpenedStore> {
  const url = env.DATABASE_URL?.trim();
  if (url) return await openPostgres(url);
  const sqlitePath = env.GATEHOUSE_SQLITE_PATH?.trim();
  if (sqlitePath) return await openSqlite(sqlitePath);
  return await openKv(env.GATEHOUSE_KV_PATH?.trim() || DEFAULT_KV_PATH);
}

async function openKv(path: string): Promise<OpenedStore> {
  await makeParent(path);
  const kv = await Deno.openKv(path);
  let readKv: Deno.Kv | undefined;
  const close = () => {
    kv.close();
    readKv?.close();
  };
  try {
    // The reads' own handle (KvRecordsOptions.readKv); `:memory:` opened
    // again would be another database. Opened inside the try, so that the
    // first handle is not left open when the second cannot be.
    readKv = path === ":memory:" ? undefined : await Deno.openKv(path);
    const store = new KvStore(kv, readKv === undefined ? {} : { readKv });
    await store.migrate();
    return {
      store,
      kind: "kv",
      location: path,
      close: () => Promise.resolve(close()),
    };
  } catch (err) {
    close();
    throw err;
  }
}

// The directory of a database file, made if missing.
async function makeParent(path: string): Promise<void> {
  if (path === ":memory:") return;
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  if (dir !== "") await Deno.mkdir(dir, { recursive: true });
}

async function openSqlite(path: string): Promise<OpenedStore> {
  // Loaded only here, like Postgres.
  const { SqliteStore } = await import("./sqlite/mod.ts");
  await makeParent(path);
  const store = new SqliteStore({ path });
  try {
    await store.migrate();
  } catch (err) {
    store.close();
    throw err;
  }
  return {
    store,
    kind: "sqlite",
    location: path,
    close: () => Promise.resolve(store.close()),
  };
}

async function openPostgres(url: string): Promise<OpenedStore> {
  // Loaded only here, so KV users never load postgres.js.
  const [{ default: postgres }, { PostgresStore }] = await Promise.all([
    import("postgres"),
    import("./postgres/mod.ts"),
  ]);
  // Notices (e.g. from an operator's own DDL) are not worth a console line.
  const sql = postgres(url, { onnotice: () => {} });
  const store = new PostgresStore(sql);
  try {
    await store.migrate();
  } catch (err) {
    await sql.end({ timeout: 0 });
    throw err;
  }
  return {
    store,
    kind: "postgres",
    location: withoutPassword(url),
    close: () => sql.end(),
  };
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.href;
  } catch {
    // postgres.js accepts forms URL does not (several hosts); show no part.
    return "postgres://(unparsable URL)";
  }
}
