// The store conformance suite against Deno KV, in memory and in a file, and
// what the rules over KV must bound: the privileged roles one commit can
// check, and the early session reads a flood of sign-ins leaves behind.

import { EarlyReads } from "../../server/core/rules/_session_creation.ts";
import { storeConformance } from "../../server/stores/conformance/mod.ts";
import { KvRecords, KvStore } from "../../server/stores/kv/mod.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { kvFileTwice } from "../fixtures/kv_file.ts";

storeConformance("KvStore", async () => {
  const kv = await Deno.openKv(":memory:");
  return { store: new KvStore(kv), close: () => kv.close() };
});

storeConformance(
  "KvStore (file, custom prefix, reads on their own handle)",
  async () => {
    const file = await kvFileTwice();
    return {
      store: new KvStore(file.kv, {
        prefix: ["app", "auth"],
        readKv: file.other,
      }),
      close: file.close,
    };
  },
);

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
    const eight = Array.from({ length: 8 }, (_, i) => `r${i}`);
    await store.updateUser(user.id, { role: "r1", keepPrivileged: eight });
    let message = "";
    try {
      await store.updateUser(user.id, {
        role: "r2",
        keepPrivileged: [...eight, "r8"],
      });
    } catch (err) {
      message = String(err);
    }
    assertEquals(message.includes("at most 8 privileged roles"), true);
    assertEquals((await store.userById(user.id))?.role, "r1");
  } finally {
    kv.close();
  }
});

Deno.test("The rules keep at most 256 early session reads over KV, the latest, each taken once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const records = new KvRecords(kv);
    await records.migrate();
    const early = new EarlyReads(records);
    // A flood of sign-ins with wrong passwords: hints no session follows.
    const ids = Array.from({ length: 1000 }, () => crypto.randomUUID());
    for (const id of ids) early.begin(id);
    assertEquals(early.size, 256);
    assertEquals(early.take(ids[0]!), null, "the oldest were let go");
    const latest = early.take(ids[999]!);
    assertEquals(latest === null, false);
    const reads = await latest!;
    assertEquals(reads?.account, null, "an unknown account");
    assertEquals(reads?.sessions, null, "an unknown account's sessions");
    assertEquals(early.take(ids[999]!), null, "taken once");
    // Hinting one account again replaces its reads, keeping the bound.
    early.begin(ids[500]!);
    early.begin(ids[500]!);
    assertEquals(early.size, 255);
    // Every read begun settles before the database closes.
    await Promise.all(ids.slice(700).map((id) => early.take(id)));
  } finally {
    kv.close();
  }
});
