// The store conformance suite against SQLite: the rules over SqliteRecords,
// in memory and on a file.

import { storeConformance } from "../../server/stores/conformance/mod.ts";
import { sqliteStore } from "../../server/stores/sqlite/mod.ts";

storeConformance("SqliteStore", () => {
  const store = sqliteStore({ path: ":memory:" });
  return { store, close: () => store.close() };
});

storeConformance("SqliteStore (file)", async () => {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  const store = sqliteStore({ path });
  return {
    store,
    async close() {
      store.close();
      // The database and the write-ahead log beside it.
      for (const suffix of ["", "-wal", "-shm"]) {
        await Deno.remove(path + suffix).catch(() => {});
      }
    },
  };
});
