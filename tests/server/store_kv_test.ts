// The store conformance suite against Deno KV, in memory and in a file.

import { storeConformance } from "../../server/stores/conformance/mod.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { assertEquals } from "../fixtures/assert.ts";

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

Deno.test("KvStore refuses more privileged roles than one commit can check", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KvStore(kv);
    await store.migrate();
    const user = await store.createUser({
      id: crypto.randomUUID(),
      email: "a@example.com",
      emailKey: "a@example.com",
      name: "A",
      role: "r0",
      passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
      createdAt: 0,
    });
    const nine = Array.from({ length: 9 }, (_, i) => `r${i}`);
    await store.updateUser(user.id, { role: "r1", keepPrivileged: nine });
    let message = "";
    try {
      await store.updateUser(user.id, {
        role: "r2",
        keepPrivileged: [...nine, "r9"],
      });
    } catch (err) {
      message = String(err);
    }
    assertEquals(message.includes("at most 9 privileged roles"), true);
    assertEquals((await store.userById(user.id))?.role, "r1");
  } finally {
    kv.close();
  }
});
