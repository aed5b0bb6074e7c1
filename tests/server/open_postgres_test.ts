// openStoreFromEnv() with DATABASE_URL: the Postgres branch the demo,
// create-admin and the tests share.

import assert from "node:assert/strict";
import { openStoreFromEnv } from "../../server/stores/open.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  pool,
  uniqueSchema,
} from "../fixtures/postgres.ts";

Deno.test({
  name:
    "openStoreFromEnv() opens and migrates Postgres when DATABASE_URL is set",
  ignore: ignorePostgres,
  async fn() {
    // openStoreFromEnv() uses the default schema, which other checkouts on
    // the shared server may hold at another version: this test gets a
    // database of its own, so it sees only what it did.
    const admin = pool();
    const database = uniqueSchema();
    await admin.unsafe(`CREATE DATABASE "${database}"`);
    const url = new URL(DATABASE_URL);
    url.pathname = `/${database}`;
    // Local trust auth never asks for it; it must not show in `location`.
    if (url.password === "") url.password = "never-shown";
    const password = url.password;
    try {
      const opened = await openStoreFromEnv({
        DATABASE_URL: ` ${url.href} `,
        GATEHOUSE_KV_PATH: "/nonexistent/never-opened.kv",
      });
      try {
        assert.equal(opened.kind, "postgres");
        assert.ok(opened.store instanceof PostgresStore);
        assert.equal(opened.location.includes(password), false);
        assert.equal(new URL(opened.location).hostname, url.hostname);
        assert.equal(await opened.store.hasUsers(), false);
      } finally {
        await opened.close();
      }
      // Migrated into the default schema of that database.
      const own = pool(url.href);
      try {
        const [row] = await own`SELECT to_regclass('gatehouse.users') AS users`;
        assert.equal(row?.users, "gatehouse.users");
      } finally {
        await own.end();
      }
    } finally {
      await admin.unsafe(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    }
  },
});

Deno.test("openStoreFromEnv() reports an unreachable DATABASE_URL", async () => {
  // Port 1 on 127.0.0.1 refuses at once; nothing leaves the machine.
  await assert.rejects(
    openStoreFromEnv({ DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" }),
    (err: unknown) => {
      assert.match(String((err as Error).message), /ECONNREFUSED/);
      return true;
    },
  );
});
