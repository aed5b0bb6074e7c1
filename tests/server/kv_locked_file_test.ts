// Two instances on one KV file: a commit that meets the other's write lock
// past Deno KV's own five-second wait is tried again rather than lost (a
// 500 for a write that would land), and gives up once its time is spent.
// The lock is a real one: a second SQLite connection to the file holding
// `BEGIN IMMEDIATE`, as another instance's write would.

import { DatabaseSync } from "node:sqlite";
import { commit } from "../../server/stores/kv/_atomic.ts";
import { assertEquals, assertRejects } from "../fixtures/assert.ts";

async function lockedFile(holdMs: number) {
  const path = await Deno.makeTempFile({ suffix: ".kv" });
  const kv = await Deno.openKv(path);
  await kv.set(["before"], 1);
  const other = new DatabaseSync(path);
  other.exec("BEGIN IMMEDIATE");
  const released = new Promise<void>((resolve) =>
    setTimeout(() => {
      other.exec("COMMIT");
      resolve();
    }, holdMs)
  );
  return {
    kv,
    released,
    async close() {
      await released;
      other.close();
      kv.close();
      await Deno.remove(path);
      for (const suffix of ["-wal", "-shm"]) {
        await Deno.remove(path + suffix).catch(() => {});
      }
    },
  };
}

Deno.test("a KV commit held past one lock wait lands once the other handle lets go", async () => {
  const file = await lockedFile(5_600);
  try {
    const started = Date.now();
    const result = await commit(file.kv.atomic().set(["after"], 2));
    assertEquals(result.ok, true);
    // It outlived Deno KV's own wait: the first try was refused.
    assertEquals(Date.now() - started >= 5_000, true);
    assertEquals((await file.kv.get(["after"])).value, 2);
  } finally {
    await file.close();
  }
});

Deno.test("a KV commit gives up with the lock's error once its time is spent, and writes nothing", async () => {
  const file = await lockedFile(6_000);
  try {
    await assertRejects(
      () => commit(file.kv.atomic().set(["after"], 2), 100),
      TypeError,
      "database is locked",
    );
    await file.released;
    assertEquals((await file.kv.get(["after"])).value, null);
    assertEquals((await file.kv.get(["before"])).value, 1);
  } finally {
    await file.close();
  }
});
