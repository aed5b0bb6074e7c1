// openStoreFromEnv() on Deno KV, the default the demo and create-admin
// share: a file in a folder made for it, opened twice so that reads go
// through a handle of their own, both closed by `close()` (Deno's resource
// sanitizer does not see a KV handle, so the test counts the process's
// open descriptors of the file); `:memory:` opened once; the first handle
// closed when the second cannot be opened.

import assert from "node:assert/strict";
import { Reaper } from "../../server/features/reaper.ts";
import { openStoreFromEnv } from "../../server/stores/open.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";

// How many times this process has `path` open (Linux: the links of
// /proc/self/fd); SQLite opens the database file once per connection.
async function timesOpen(path: string): Promise<number> {
  let count = 0;
  for await (const fd of Deno.readDir("/proc/self/fd")) {
    const target = await Deno.readLink(`/proc/self/fd/${fd.name}`)
      .catch(() => "");
    if (target === path) count++;
  }
  return count;
}

Deno.test("openStoreFromEnv() opens a KV file twice, works and sweeps on it, and closes both", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_kv_" });
  const path = `${dir}/data/gatehouse.kv`;
  try {
    const opened = await openStoreFromEnv({ GATEHOUSE_KV_PATH: ` ${path} ` });
    try {
      assert.equal(opened.kind, "kv");
      assert.equal(opened.location, path);
      assert.ok(opened.store instanceof KvStore);
      assert.equal(await timesOpen(path), 2, "the file is open twice");
      const user = await opened.store.createUser({
        id: crypto.randomUUID(),
        email: "ada@example.com",
        emailKey: "ada@example.com",
        name: "Ada",
        role: "admin",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
        createdAt: 0,
      });
      for (const expiresAt of [1_000, Date.now() + 3_600_000]) {
        assert.ok(
          await opened.store.createSession({
            tokenHash: crypto.randomUUID(),
            userId: user.id,
            createdAt: 0,
            expiresAt,
          }),
        );
      }
      const swept = await new Reaper(opened.store).sweep();
      assert.equal(swept.sessions, 1, "the expired session only");
      assert.equal(
        (await opened.store.listSessions(user.id, Date.now())).length,
        1,
      );
    } finally {
      await opened.close();
    }
    assert.equal(await timesOpen(path), 0, "both handles closed");
    // On the file, and there when opened again.
    const again = await openStoreFromEnv({ GATEHOUSE_KV_PATH: path });
    try {
      assert.equal(await again.store.hasUsers(), true);
    } finally {
      await again.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openStoreFromEnv() opens `:memory:` once: a second open would be another database", async () => {
  const opened = await openStoreFromEnv({ GATEHOUSE_KV_PATH: ":memory:" });
  try {
    assert.equal(opened.kind, "kv");
    assert.equal(await opened.store.hasUsers(), false);
    // A second `:memory:` handle would have made migrate() refuse it.
    assert.equal((await new Reaper(opened.store).sweep()).sessions, 0);
  } finally {
    await opened.close();
  }
});

Deno.test("openStoreFromEnv() closes the first KV handle when the second cannot be opened", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_kv_" });
  const path = `${dir}/gatehouse.kv`;
  const openKv = Object.getOwnPropertyDescriptor(Deno, "openKv")!;
  const realOpen = Deno.openKv;
  let opens = 0;
  // The second open fails as one would on a file it may no longer reach.
  Object.defineProperty(Deno, "openKv", {
    ...openKv,
    get: () => (p?: string) => {
      if (++opens === 2) {
        return Promise.reject(new Deno.errors.PermissionDenied("refused"));
      }
      return realOpen(p);
    },
  });
  try {
    await assert.rejects(
      openStoreFromEnv({ GATEHOUSE_KV_PATH: path }),
      Deno.errors.PermissionDenied,
    );
    assert.equal(opens, 2);
    assert.equal(await timesOpen(path), 0, "the first handle is closed");
  } finally {
    Object.defineProperty(Deno, "openKv", openKv);
    await Deno.remove(dir, { recursive: true });
  }
});
