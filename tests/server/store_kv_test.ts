// The store conformance suite against Deno KV, in memory and in a file.

import { storeConformance } from "../../server/stores/conformance.ts";
import { KvStore } from "../../server/stores/kv.ts";

storeConformance("KvStore", async () => {
  const kv = await Deno.openKv(":memory:");
  return { store: new KvStore(kv), close: () => kv.close() };
});

storeConformance("KvStore (file, custom prefix)", async () => {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const kv = await Deno.openKv(path);
  return {
    store: new KvStore(kv, { prefix: ["app", "auth"] }),
    async close() {
      kv.close();
      await Deno.remove(path);
    },
  };
});
