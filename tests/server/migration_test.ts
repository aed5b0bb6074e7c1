// Existing data moves to the hardened schema (issue 12): a KV database of
// schema 1 and a Postgres schema at migration 1, written in their old
// layouts, are migrated (twice at once) and then keep their accounts and
// sessions, fold emails by the one rule, drop reset links that recorded no
// generation, and treat invitations without inviter as first-run links.

import { fold } from "../../server/core/_fold.ts";
import { MIGRATIONS } from "../../server/stores/postgres/_migrations.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { nextId } from "../../server/stores/conformance/_helpers.ts";
import type { Store } from "../../mod.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { ignorePostgres, pool, uniqueSchema } from "../fixtures/postgres.ts";

const HOUR = 60 * 60 * 1000;
const NOW = Date.now();
// Composed and decomposed: one address by the new rule, two by the old.
const COMPOSED = "J\u00d6RG@example.com";
const DECOMPOSED = "jo\u0308rg@example.com";

const OLD = {
  ada: { id: nextId(), email: "Ada@Example.com", createdAt: NOW - 3 * HOUR },
  first: { id: nextId(), email: COMPOSED, createdAt: NOW - 2 * HOUR },
  second: { id: nextId(), email: DECOMPOSED, createdAt: NOW - HOUR },
};
const SESSION = "s".repeat(43);
const RESET = "r".repeat(43);
const INVITATION = "i".repeat(43);

// What every migrated store must show, through the Store interface only.
async function assertMigrated(store: Store): Promise<void> {
  const ada = await store.credentialsByEmail("ada@example.com");
  assertEquals(ada?.user.email, OLD.ada.email);
  assertEquals((await store.findSession(SESSION, NOW))?.user.id, OLD.ada.id);
  // The older of the two look-alike accounts keeps the address; the other
  // is kept, under a key no sign-in can type.
  const key = fold(COMPOSED);
  assertEquals((await store.credentialsByEmail(key))?.user.id, OLD.first.id);
  assertEquals(
    (await store.credentialsByEmail("\u0001" + OLD.second.id))?.user.email,
    DECOMPOSED,
  );
  assertEquals((await store.listUsers({ limit: 10 })).users.length, 3);
  assertEquals(await store.hasUsers(), true);
  // Reset links without a generation are gone.
  assertEquals(await store.findLink(RESET, "reset", NOW), null);
  // The invitation is pending, with an id, and no inviter: like a first-run
  // link, it cannot create an account in a store that has some.
  const [pending] = await store.listInvitations(NOW);
  assertEquals(pending?.tokenHash, INVITATION);
  assertEquals(pending?.emailKey, "new@example.com");
  assertEquals(pending?.invitedBy, "");
  assertEquals(typeof pending?.id, "string");
  const accepted = await store.acceptInvitation(INVITATION, {
    userId: nextId(),
    passwordHash: "h",
    now: NOW,
    session: { tokenHash: "t".repeat(43), expiresAt: NOW + HOUR },
  });
  assertEquals(accepted, null);
}

Deno.test("KvStore.migrate() moves a schema-1 database to schema 4", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const p = ["gatehouse"];
    const op = kv.atomic().set([...p, "schema"], 1);
    for (const user of Object.values(OLD)) {
      op.set([...p, "user", user.id], {
        ...user,
        name: "Old",
        role: "admin",
        disabled: false,
        passwordHash: "h",
        generation: 0,
      }).set([...p, "user_email", user.email.toLowerCase()], user.id);
    }
    const expiresAt = NOW + HOUR;
    op.set([...p, "session", SESSION], {
      userId: OLD.ada.id,
      generation: 0,
      createdAt: NOW,
      expiresAt,
    })
      .set([...p, "session_user", OLD.ada.id, SESSION], expiresAt)
      .set([...p, "session_expiry", expiresAt, SESSION], OLD.ada.id);
    for (const [hash, kind] of [[RESET, "reset"], [INVITATION, "invitation"]]) {
      op.set([...p, "link", hash!], {
        tokenHash: hash,
        kind,
        email: kind === "reset" ? OLD.ada.email : "New@Example.com",
        name: "",
        role: "",
        userId: kind === "reset" ? OLD.ada.id : "",
        createdAt: NOW,
        expiresAt,
      }).set([...p, "link_expiry", expiresAt, hash!], null);
    }
    assertEquals((await op.commit()).ok, true);
    const store = new KvStore(kv);
    await Promise.all([store.migrate(), new KvStore(kv).migrate()]);
    assertEquals((await kv.get([...p, "schema"])).value, 4);
    // Schema 3: the old session has a public id and its times.
    const old =
      (await kv.get<Record<string, unknown>>([...p, "session", SESSION!]))
        .value;
    assertEquals(typeof old?.id, "string");
    assertEquals(old?.lastSeenAt, NOW);
    assertEquals(old?.authenticatedAt, NOW);
    await assertMigrated(store);
    // The old lower-cased index entry of the decomposed address is gone.
    assertEquals(
      (await kv.get([...p, "user_email", DECOMPOSED.toLowerCase()])).value,
      null,
    );
  } finally {
    kv.close();
  }
});

Deno.test({
  name: "PostgresStore.migrate() moves a schema at migration 1 to the latest",
  ignore: ignorePostgres,
  async fn() {
    const sql = pool();
    const second = pool();
    const schema = uniqueSchema();
    const quoted = `"${schema}"`;
    try {
      await sql.begin(async (tx) => {
        await tx.unsafe(`CREATE SCHEMA ${quoted}`);
        await tx.unsafe(`CREATE TABLE ${quoted}.schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now())`);
        for (const statement of MIGRATIONS[0]!.statements) {
          await tx.unsafe((statement as string).replaceAll("{schema}", quoted));
        }
        await tx.unsafe(
          `INSERT INTO ${quoted}.schema_migrations VALUES (1, 'accounts')`,
        );
      });
      for (const user of Object.values(OLD)) {
        await sql.unsafe(
          `INSERT INTO ${quoted}.users (id, email, name, role, password_hash, created_at)
           VALUES ($1, $2, 'Old', 'admin', 'h', $3)`,
          [user.id, user.email, user.createdAt],
        );
      }
      await sql.unsafe(
        `INSERT INTO ${quoted}.sessions VALUES ($1, $2, 0, $3, $4)`,
        [SESSION, OLD.ada.id, NOW, NOW + HOUR],
      );
      await sql.unsafe(
        `INSERT INTO ${quoted}.links VALUES
          ($1, 'reset', $2, '', '', $3, $4, $5),
          ($6, 'invitation', 'New@Example.com', '', '', NULL, $4, $5)`,
        [RESET, OLD.ada.email, OLD.ada.id, NOW, NOW + HOUR, INVITATION],
      );
      // Two instances starting together: the migration runs once.
      const store = new PostgresStore(sql, { schema });
      await Promise.all([
        store.migrate(),
        new PostgresStore(second, { schema }).migrate(),
      ]);
      await assertMigrated(store);
    } finally {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
      await Promise.all([sql.end(), second.end()]);
    }
  },
});

Deno.test("KvStore.migrate() moves a schema-3 database to schema 4: unknown addresses read the decoy's id beside it", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const p = ["gatehouse"];
    const store = new KvStore(kv);
    await store.migrate();
    // What schema 3 had: no decoy_email.
    await kv.delete([...p, "decoy_email"]);
    await kv.set([...p, "schema"], 3);
    const ada = await store.createUser({
      id: nextId(),
      email: "ada@example.com",
      emailKey: "ada@example.com",
      name: "Ada",
      role: "",
      passwordHash: "h",
      createdAt: NOW,
    });
    await Promise.all([store.migrate(), new KvStore(kv).migrate()]);
    assertEquals((await kv.get([...p, "schema"])).value, 4);
    const decoy = await kv.get<{ id: string }>([...p, "decoy_account"]);
    assertEquals(
      (await kv.get([...p, "decoy_email"])).value,
      decoy.value?.id,
    );
    assertEquals(await store.credentialsByEmail("nobody@example.com"), null);
    assertEquals(
      (await store.credentialsByEmail("ada@example.com"))?.user.id,
      ada.id,
    );
  } finally {
    kv.close();
  }
});
