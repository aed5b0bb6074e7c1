// Postgres going away under a running app. The app's pool reaches Postgres
// through a TCP proxy on 127.0.0.1 that the test cuts and restores; a second,
// direct pool sets up the schema and holds a row lock so that a request is
// caught with its query in flight when the cut comes.

import assert from "node:assert/strict";
import postgres from "postgres";
import { createAuth, type Handler } from "../../mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { addUser, hasher, memoryLogger, PASSWORD } from "../fixtures/kv.ts";
import { gate } from "../fixtures/instrument.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  pool,
  POOL_OPTIONS,
  TcpProxy,
  uniqueSchema,
} from "../fixtures/postgres.ts";

const DRIVER_DETAIL =
  /CONNECTION|ECONN|EPIPE|socket|write|127\.0\.0\.1|5432|postgres/i;

function login(handler: Handler): Promise<Response> {
  return Promise.resolve(handler(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
    }),
  ));
}

async function assertInternal(res: Response): Promise<void> {
  const text = await res.text();
  assert.equal(res.status, 500);
  assert.deepEqual(JSON.parse(text), {
    error: "Internal server error",
    code: "internal",
  });
  assert.doesNotMatch(text, DRIVER_DETAIL);
}

// Polls until `check` holds; the test's own timeout bounds it.
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 10));
}

Deno.test({
  name:
    "A Postgres outage answers 500 internal, and requests work again once it is back",
  ignore: ignorePostgres,
  async fn() {
    const direct = pool();
    const target = new URL(DATABASE_URL);
    const proxy = new TcpProxy({
      hostname: target.hostname,
      port: Number(target.port || 5432),
    });
    const app = postgres(proxy.urlFor(DATABASE_URL), {
      ...POOL_OPTIONS,
      max: 2,
    });
    const schema = uniqueSchema();
    const release = gate();
    try {
      await new PostgresStore(direct, { schema }).migrate();
      const store = new PostgresStore(app, { schema });
      const logger = memoryLogger();
      const auth = createAuth({ store, hasher, logger });
      const ada = await addUser(store, { email: "ada@example.com" });
      const first = await login(auth.login);
      assert.equal(first.status, 200);
      await first.body?.cancel();
      const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
      const session = () =>
        auth.session(
          new Request("http://localhost/api/auth/session", {
            headers: { cookie },
          }),
        );

      // Mid-request: the login's session insert waits for a row lock held
      // on the direct pool, and the connection is cut under it.
      const locked = gate();
      const holding = direct.begin(async (tx) => {
        await tx.unsafe(
          `SELECT 1 FROM "${schema}".users WHERE id = $1 FOR UPDATE`,
          [ada.id],
        );
        locked.open();
        await release.opened;
      });
      await locked.opened;
      const inFlight = login(auth.login);
      await until(async () => {
        const [row] = await direct`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE wait_event_type = 'Lock' AND position(${schema} IN query) > 0`;
        return row!.n > 0;
      });
      proxy.down();
      await assertInternal(await inFlight);
      release.open();
      await holding;

      // Down: nothing reaches Postgres.
      await assertInternal(await session());
      await assertInternal(await login(auth.login));
      const failures = logger.lines.filter((l) =>
        l.message === "request failed"
      );
      assert.equal(failures.length, 3);
      // The cause is in the log, not on the wire.
      assert.ok(failures.every((l) => l.fields?.error instanceof Error));

      proxy.up();
      const back = await session();
      assert.equal(back.status, 200);
      assert.equal((await back.json()).id, ada.id);
      const again = await login(auth.login);
      assert.equal(again.status, 200);
      await again.body?.cancel();
    } finally {
      release.open();
      proxy.down();
      await app.end({ timeout: 0 });
      await direct.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await direct.end();
      await proxy.close();
    }
  },
});
