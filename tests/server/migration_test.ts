// migrate() on each store: a fresh database gets the current schema, one at
// the current version is left alone, one of an unknown version (newer, or
// from the unreleased history before the first version) is refused, and
// instances starting together are safe. On Postgres the schema built is
// compared, catalog line by catalog line, with the recorded one, which is
// what the unreleased history of migrations 1 to 8 built (less two functions
// nothing calls; see tests/fixtures/postgres_catalog.ts).

import assert from "node:assert/strict";
import {
  LATEST_VERSION,
  MIGRATIONS,
} from "../../server/stores/postgres/_migrations.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { addUser } from "../fixtures/kv.ts";
import { catalog, RECORDED } from "../fixtures/postgres_catalog.ts";
import {
  ignorePostgres,
  pool,
  schemaStore,
  uniqueSchema,
} from "../fixtures/postgres.ts";

const P = ["gatehouse"];

Deno.test("KvStore.migrate() writes schema 4 and the decoy account once, however many instances start together", async () => {
  const path = await Deno.makeTempFile();
  const handles = await Promise.all([Deno.openKv(path), Deno.openKv(path)]);
  try {
    const [kv] = handles;
    await Promise.all([
      ...handles.map((handle) => new KvStore(handle).migrate()),
      new KvStore(kv!).migrate(),
    ]);
    assert.equal((await kv!.get([...P, "schema"])).value, 4);
    const decoy = await kv!.get<{ id: string }>([...P, "decoy_account"]);
    assert.equal((await kv!.get([...P, "decoy_email"])).value, decoy.value?.id);
    const store = new KvStore(kv!);
    const ada = await addUser(store, { email: "ada@example.com" });
    // At the current version nothing is written again.
    await new KvStore(handles[1]!).migrate();
    const after = await kv!.get([...P, "decoy_account"]);
    assert.equal(after.versionstamp, decoy.versionstamp);
    assert.equal(
      (await store.credentialsByEmail("ada@example.com"))?.user.id,
      ada.id,
    );
    assert.equal(await store.credentialsByEmail("nobody@example.com"), null);
  } finally {
    for (const handle of handles) handle.close();
    await Deno.remove(path);
  }
});

Deno.test("KvStore.migrate() refuses a database of a newer or an unreleased older schema, and writes nothing", async () => {
  for (
    const [version, message] of [
      [5, /schema version 5 is newer than this Gatehouse \(4\)/],
      [3, /schema version 3 predates the first release of Gatehouse \(4\)/],
    ] as const
  ) {
    const kv = await Deno.openKv(":memory:");
    try {
      await kv.set([...P, "schema"], version);
      await assert.rejects(new KvStore(kv).migrate(), message);
      assert.equal((await kv.get([...P, "schema"])).value, version);
      assert.equal((await kv.get([...P, "decoy_account"])).value, null);
    } finally {
      kv.close();
    }
  }
});

Deno.test({
  name:
    "PostgresStore.migrate() builds, in a fresh schema, the recorded catalog at the latest version",
  ignore: ignorePostgres,
  async fn() {
    const { sql, schema, close } = await schemaStore();
    try {
      const rows = await sql.unsafe(
        `SELECT version, name FROM "${schema}".schema_migrations`,
      );
      assert.deepEqual(
        rows.map((row) => ({ ...row })),
        [{ version: LATEST_VERSION, name: MIGRATIONS.at(-1)!.name }],
      );
      assert.equal(LATEST_VERSION, 8);
      assert.equal(
        await catalog(sql, schema),
        await Deno.readTextFile(RECORDED),
      );
    } finally {
      await close();
    }
  },
});

Deno.test({
  name:
    "PostgresStore.migrate() leaves alone a schema at the latest version, also one the unreleased history built",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    const quoted = `"${schema}"`;
    try {
      // What the unreleased history recorded besides its last version.
      for (let version = 1; version < LATEST_VERSION; version++) {
        await sql.unsafe(
          `INSERT INTO ${quoted}.schema_migrations (version, name)
           VALUES ($1, 'unreleased')`,
          [version],
        );
      }
      const ada = await addUser(store, { email: "ada@example.com" });
      const before = await sql.unsafe(
        `SELECT * FROM ${quoted}.schema_migrations ORDER BY version`,
      );
      const recorded = await catalog(sql, schema);
      await Promise.all([
        store.migrate(),
        new PostgresStore(sql, { schema }).migrate(),
      ]);
      assert.deepEqual(
        await sql.unsafe(
          `SELECT * FROM ${quoted}.schema_migrations ORDER BY version`,
        ),
        before,
      );
      assert.equal(await catalog(sql, schema), recorded);
      assert.equal((await store.userById(ada.id))?.email, "ada@example.com");
    } finally {
      await close();
    }
  },
});

Deno.test({
  name:
    "PostgresStore.migrate() refuses a schema part-way through the unreleased history, and changes nothing",
  ignore: ignorePostgres,
  async fn() {
    const sql = pool();
    const schema = uniqueSchema();
    const quoted = `"${schema}"`;
    try {
      await sql.unsafe(`CREATE SCHEMA ${quoted}`);
      await sql.unsafe(`CREATE TABLE ${quoted}.schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now())`);
      await sql.unsafe(
        `INSERT INTO ${quoted}.schema_migrations (version, name)
         SELECT v, 'unreleased' FROM generate_series(1, 5) v`,
      );
      await assert.rejects(
        new PostgresStore(sql, { schema }).migrate(),
        /schema version 5 predates the first release of Gatehouse \(8\)/,
      );
      const [tables] = await sql`
        SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = ${schema}`;
      assert.equal(tables?.n, 1);
    } finally {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
      await sql.end();
    }
  },
});
