// openStoreFromEnv() with DATABASE_URL: the Postgres branch the demo,
// create-admin and the tests share.

import assert from "node:assert/strict";
import { openStoreFromEnv } from "../../server/stores/open.ts";
import { PostgresStore } from "../../server/stores/postgres.ts";
import { DATABASE_URL, ignorePostgres } from "../fixtures/postgres.ts";

Deno.test({
  name:
    "openStoreFromEnv() opens and migrates Postgres when DATABASE_URL is set",
  ignore: ignorePostgres,
  async fn() {
    const url = new URL(DATABASE_URL);
    // Local trust auth never asks for it; it must not show in `location`.
    if (url.password === "") url.password = "never-shown";
    const password = url.password;
    const opened = await openStoreFromEnv({
      DATABASE_URL: ` ${url.href} `,
      GATEHOUSE_KV_PATH: "/nonexistent/never-opened.kv",
    });
    try {
      assert.equal(opened.kind, "postgres");
      assert.ok(opened.store instanceof PostgresStore);
      assert.equal(opened.location.includes(password), false);
      assert.equal(new URL(opened.location).hostname, url.hostname);
      assert.equal(typeof await opened.store.hasUsers(), "boolean");
    } finally {
      await opened.close();
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
