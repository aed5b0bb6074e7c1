// Reset requests are no enumeration oracle (DESIGN.md §5): a known, an
// unknown and a disabled address make the same store operations before the
// 202, observed below the Store interface (each Deno KV call, each Postgres
// query) on both stores.

import postgres from "postgres";
import { createAuth, type Store } from "../../mod.ts";
import { createAccountLinks } from "../../server/features/account_links.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { addUser, hasher, memoryLogger } from "../fixtures/kv.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  POOL_OPTIONS,
  uniqueSchema,
} from "../fixtures/postgres.ts";

const ADDRESSES = {
  known: "ada@example.com",
  unknown: "nobody@example.com",
  disabled: "bob@example.com",
};

// A Deno.Kv that records every read and commit it is asked for.
function recordingKv(kv: Deno.Kv, log: string[]): Deno.Kv {
  return new Proxy(kv, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "atomic") {
        return () => {
          const op = value.call(target) as Deno.AtomicOperation;
          const commit = op.commit.bind(op);
          op.commit = () => {
            log.push("commit");
            return commit();
          };
          return op;
        };
      }
      if (["get", "getMany", "list"].includes(String(property))) {
        return (...args: unknown[]) => {
          log.push(String(property));
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

async function operationsPerAddress(
  store: Store,
  log: string[],
): Promise<Record<string, string[]>> {
  await addUser(store, { email: ADDRESSES.known });
  const bob = await addUser(store, { email: ADDRESSES.disabled });
  await store.updateUser(bob.id, { disabled: true });
  const logger = memoryLogger();
  const auth = createAuth({ store, hasher, logger });
  const links = createAccountLinks({
    auth,
    store,
    hasher,
    logger,
    publicUrl: "https://app.example",
    mailer: { send: () => Promise.resolve() },
  });
  const seen: Record<string, string[]> = {};
  for (const [kind, email] of Object.entries(ADDRESSES)) {
    log.length = 0;
    const res = await links.requestPasswordReset(
      new Request("http://localhost/api/auth/password-reset", {
        method: "POST",
        body: JSON.stringify({ email }),
      }),
    );
    assertEquals(res.status, 202);
    seen[kind] = [...log];
  }
  return seen;
}

Deno.test("reset requests make the same KV reads and commits for every address", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const log: string[] = [];
    const store = new KvStore(recordingKv(kv, log));
    await store.migrate();
    const seen = await operationsPerAddress(store, log);
    assertEquals(seen.unknown, seen.known);
    assertEquals(seen.disabled, seen.known);
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "reset requests make the same Postgres queries for every address",
  ignore: ignorePostgres,
  async fn() {
    const log: string[] = [];
    const sql = postgres(DATABASE_URL, {
      ...POOL_OPTIONS,
      debug: (_connection, query) => log.push(query.replace(/\s+/g, " ")),
    });
    const schema = uniqueSchema();
    try {
      const store = new PostgresStore(sql, { schema });
      await store.migrate();
      const seen = await operationsPerAddress(store, log);
      assertEquals(seen.unknown, seen.known);
      assertEquals(seen.disabled, seen.known);
    } finally {
      await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await sql.end();
    }
  },
});
