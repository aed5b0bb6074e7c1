// The store conformance suite against the real Postgres, one schema per
// case, plus what only Postgres has: versioned migrations, the schema
// option, and driver errors that must stay internal.

import assert from "node:assert/strict";
import postgres from "postgres";
import { uuidv7 } from "../../server/core/_crypto.ts";
import { AuthError } from "../../server/http/errors.ts";
import { storeConformance } from "../../server/stores/conformance/mod.ts";
import {
  LATEST_VERSION,
  MIGRATIONS,
} from "../../server/stores/postgres/_migrations.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  pool,
  schemaStore,
  uniqueSchema,
} from "../fixtures/postgres.ts";

storeConformance("PostgresStore", schemaStore, { ignore: ignorePostgres });

Deno.test({
  name: "PostgresStore.migrate() applies each version once when instances race",
  ignore: ignorePostgres,
  async fn() {
    const schema = uniqueSchema();
    const pools = [pool(), pool(), pool()];
    try {
      const stores = pools.map((sql) => new PostgresStore(sql, { schema }));
      await Promise.all(stores.map((store) => store.migrate()));
      await stores[0]!.migrate();
      const rows = await pools[0]!.unsafe(
        `SELECT version FROM "${schema}".schema_migrations ORDER BY version`,
      );
      assert.deepEqual(
        rows.map((row) => row.version),
        MIGRATIONS.map((migration) => migration.version),
      );
      assert.equal(await stores[1]!.hasUsers(), false);
    } finally {
      await pools[0]!.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all(pools.map((sql) => sql.end()));
    }
  },
});

Deno.test({
  name: "PostgresStore.migrate() refuses a schema from a newer Gatehouse",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    try {
      await sql.unsafe(
        `INSERT INTO "${schema}".schema_migrations (version, name)
         VALUES ($1, 'from the future')`,
        [LATEST_VERSION + 1],
      );
      await assert.rejects(store.migrate(), /schema version \d+ is newer/);
    } finally {
      await close();
    }
  },
});

Deno.test({
  name: "PostgresStore keeps its tables in its own schema",
  ignore: ignorePostgres,
  async fn() {
    const a = await schemaStore();
    const b = await schemaStore();
    try {
      await a.store.createUser({
        id: uuidv7(),
        email: "ada@example.com",
        emailKey: "ada@example.com",
        name: "Ada",
        role: "",
        passwordHash: "h",
        createdAt: Date.now(),
      });
      assert.equal(await a.store.hasUsers(), true);
      assert.equal(await b.store.hasUsers(), false);
    } finally {
      await a.close();
      await b.close();
    }
  },
});

Deno.test("PostgresStore refuses a bad schema name or a transforming client", () => {
  // postgres.js connects lazily: these clients never open a socket.
  const plain = postgres(DATABASE_URL);
  const camel = postgres(DATABASE_URL, { transform: postgres.camel });
  try {
    for (const schema of ["Gatehouse", "a.b", 'x"y', "", "1abc"]) {
      assert.throws(() => new PostgresStore(plain, { schema }), TypeError);
    }
    assert.throws(() => new PostgresStore(camel), /without transform/);
    new PostgresStore(plain, { schema: "auth_2" });
  } finally {
    plain.end();
    camel.end();
  }
});

Deno.test({
  name: "PostgresStore lets driver errors through as they are",
  ignore: ignorePostgres,
  async fn() {
    const { store, close } = await schemaStore();
    try {
      const user = {
        id: uuidv7(),
        email: "ada@example.com",
        emailKey: "ada@example.com",
        name: "Ada",
        role: "",
        passwordHash: "h",
        createdAt: Date.now(),
      };
      await store.createUser(user);
      // A reused id is not an address conflict: it is an internal failure
      // (the rules say so before any write), never an AuthError.
      await assert.rejects(
        store.createUser({
          ...user,
          email: "other@example.com",
          emailKey: "other@example.com",
        }),
        (err: unknown) => {
          assert.equal(err instanceof AuthError, false);
          assert.match(String(err), new RegExp(`${user.id}.*in use`));
          return true;
        },
      );
      // What the database refuses reaches the caller as the driver's error.
      await assert.rejects(
        store.createUser({
          ...user,
          id: "not-a-uuid",
          email: "third@example.com",
          emailKey: "third@example.com",
        }),
        (err: unknown) => {
          assert.equal(err instanceof postgres.PostgresError, true);
          assert.equal((err as { code?: string }).code, "22P02");
          return true;
        },
      );
      assert.equal(await store.credentialsByEmail("other@example.com"), null);
      assert.equal(await store.credentialsByEmail("third@example.com"), null);
    } finally {
      await close();
    }
  },
});
