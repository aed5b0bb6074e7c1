// PostgresRecords against the real Postgres, one schema per test: the
// record-and-commit conformance tables, and what only this store has to get
// right: its tables and JS types, keys that are no uuid, the migration from
// the unreleased version 8, one round trip per read and commit, and the
// sweeps' bounds. Racing commits: postgres_records_concurrency_test.ts.

import assert from "node:assert/strict";
import postgres from "postgres";
import { uuidv7 } from "../../server/core/_crypto.ts";
import { fold } from "../../server/core/_fold.ts";
import type {
  AccountRecord,
  StoredChallenge,
  StoredEnrolment,
  StoredLink,
  StoredPasskey,
  StoredPendingSignIn,
  StoredTotp,
} from "../../server/core/records.ts";
import { recordStoreConformance } from "../../server/stores/conformance/mod.ts";
import { PostgresRecords } from "../../server/stores/postgres/postgres_records.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import {
  DATABASE_URL,
  ignorePostgres,
  pool,
  POOL_OPTIONS,
  schemaStore,
  uniqueSchema,
} from "../fixtures/postgres.ts";
import { buildVersion8 } from "../fixtures/postgres_version_8.ts";
import {
  account,
  event,
  schemaRecords,
  session,
} from "../fixtures/postgres_records.ts";
import { MemoryRecords } from "../fixtures/memory_records.ts";
import { USER_SORTS } from "@gatehouse/contract";

recordStoreConformance("PostgresRecords", async () => {
  const { records, close } = await schemaRecords();
  return { records, close };
}, { ignore: ignorePostgres });

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: ignorePostgres, fn });
}

test("PostgresRecords round-trips every kind with its optional fields set", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account({ role: "admin", totpEnabled: true, passkeyCount: 1 });
    const inviter = account();
    const link: StoredLink = {
      tokenHash: "invitation-hash",
      id: uuidv7(),
      kind: "invitation",
      email: "Grace@Example.com",
      emailKey: "grace@example.com",
      name: "Grace",
      role: "admin",
      userId: "",
      invitedBy: inviter.id,
      generation: 2,
      createdAt: 1_700_000_000_001,
      expiresAt: 1_700_000_600_001,
    };
    const totp: StoredTotp = {
      userId: a.id,
      secret: "sealed:v1:abc",
      lastStep: 56_666_666,
      recoveryCodes: [],
    };
    const enrolment: StoredEnrolment = {
      userId: inviter.id,
      secret: "s",
      createdAt: 1,
      expiresAt: 2,
    };
    const pending: StoredPendingSignIn = {
      tokenHash: "pending",
      userId: a.id,
      generation: 3,
      factorVersion: 4,
      failures: 2,
      createdAt: 5,
      expiresAt: 6,
    };
    const challenge: StoredChallenge = {
      tokenHash: "challenge",
      challenge: "c",
      use: "second_factor",
      userId: a.id,
      createdAt: 1,
      expiresAt: 2,
    };
    const passkey: StoredPasskey = {
      id: uuidv7(),
      userId: a.id,
      credentialId: "cred",
      publicKey: "pk",
      counter: 4_294_967_295,
      transports: ["internal", "hybrid"],
      name: "Phone",
      createdAt: 1_700_000_000_000,
      lastUsedAt: 1_700_000_000_500,
    };
    const e = event({
      actorId: a.id,
      actorEmail: a.email,
      targetId: inviter.id,
      targetEmail: inviter.email,
      type: "user.role_changed",
      detail: { from: "user", to: "admin", count: 2, ok: false, none: null },
    });
    assert.equal(
      await records.commit({
        puts: [
          { kind: "link", value: link },
          { kind: "totp", value: totp },
          { kind: "enrolment", value: enrolment },
          { kind: "pending", value: pending },
          { kind: "challenge", value: challenge },
          { kind: "passkey", value: passkey },
          { kind: "account", value: a },
          { kind: "account", value: inviter },
        ],
        tallies: [{ key: "role:admin", by: 1 }],
        events: [e],
      }),
      true,
    );
    const found = await records.read([
      { kind: "account", key: a.id },
      { kind: "link", key: link.tokenHash },
      { kind: "totp", key: a.id },
      { kind: "enrolment", key: inviter.id },
      { kind: "pending", key: "pending" },
      { kind: "challenge", key: "challenge" },
      { kind: "passkey", key: passkey.id },
      { kind: "event", key: e.id },
      { kind: "tally", key: "role:admin" },
    ]);
    assert.deepEqual(found.map((f) => f?.value), [
      a,
      link,
      totp,
      enrolment,
      pending,
      challenge,
      passkey,
      e,
      { key: "role:admin", count: 1 },
    ]);
    for (const f of found) assert.match(f!.version, /^\d+$/);
    const [byId, byCredential] = await records.read([
      { kind: "link", unique: "id", value: link.id },
      { kind: "passkey", unique: "credentialId", value: "cred" },
    ]);
    assert.equal(byId?.version, found[1]?.version);
    assert.equal(byCredential?.version, found[6]?.version);
    assert.deepEqual(
      (await records.list("link", "emailKey", "grace@example.com"))
        .map((v) => v.value),
      [link],
    );
    assert.deepEqual(
      (await records.list("link", "kind", "invitation")).map((v) => v.value),
      [link],
    );
    assert.deepEqual(
      (await records.list("passkey", "userId", a.id)).map((v) => v.value),
      [passkey],
    );
  } finally {
    await close();
  }
});

test("PostgresRecords moves a version on every write, a put of the same value and a tally move of 0 too", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    const version = async () =>
      (await records.read([{ kind: "account", key: a.id }]))[0]!.version;
    const first = await version();
    await records.commit({ puts: [{ kind: "account", value: a, before: a }] });
    const second = await version();
    assert.notEqual(second, first);
    assert.equal(await version(), second, "a read leaves it");
    await records.commit({ tallies: [{ key: "sessions:x", by: 0 }] });
    const [t1] = await records.read([{ kind: "tally", key: "sessions:x" }]);
    assert.deepEqual(t1?.value, { key: "sessions:x", count: 0 });
    await records.commit({ tallies: [{ key: "sessions:x", by: 0 }] });
    const [t2] = await records.read([{ kind: "tally", key: "sessions:x" }]);
    assert.notEqual(t2?.version, t1?.version);
    // Several moves of one tally in one commit add up.
    await records.commit({
      tallies: [{ key: "sessions:x", by: 2 }, { key: "sessions:x", by: 3 }],
    });
    const [t3] = await records.read([{ kind: "tally", key: "sessions:x" }]);
    assert.equal((t3?.value as { count: number }).count, 5);
  } finally {
    await close();
  }
});

test("PostgresRecords refuses a commit whose unique value another record holds, writing nothing", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account();
    const link = (over: Partial<StoredLink>): StoredLink => ({
      tokenHash: crypto.randomUUID(),
      id: uuidv7(),
      kind: "invitation",
      email: "grace@example.com",
      emailKey: "grace@example.com",
      name: "Grace",
      role: "",
      userId: "",
      invitedBy: a.id,
      generation: 0,
      createdAt: 1,
      expiresAt: 2,
      ...over,
    });
    const first = link({});
    const passkey = (credentialId: string): StoredPasskey => ({
      id: uuidv7(),
      userId: a.id,
      credentialId,
      publicKey: "pk",
      counter: 0,
      transports: [],
      name: "Key",
      createdAt: 1,
      lastUsedAt: null,
    });
    assert.equal(
      await records.commit({
        puts: [{ kind: "account", value: a }, { kind: "link", value: first }, {
          kind: "passkey",
          value: passkey("cred"),
        }],
      }),
      true,
    );
    const other = account();
    const taken = passkey("cred");
    const sameId = link({ id: first.id, kind: "reset" });
    const sameAddress = link({});
    const refused = [
      {
        put: { kind: "passkey", value: taken },
        ref: { kind: "passkey", key: taken.id },
      },
      {
        put: { kind: "link", value: sameId },
        ref: { kind: "link", key: sameId.tokenHash },
      },
      // One invitation per address: the table's partial unique index.
      {
        put: { kind: "link", value: sameAddress },
        ref: { kind: "link", key: sameAddress.tokenHash },
      },
    ] as const;
    for (const { put, ref } of refused) {
      const e = event();
      assert.equal(
        await records.commit({
          puts: [{ kind: "account", value: other }, put],
          tallies: [{ key: "enabled", by: 1 }],
          events: [e],
        }),
        false,
      );
      assert.deepEqual(
        await records.read([
          { kind: "account", key: other.id },
          { kind: "tally", key: "enabled" },
          { kind: "event", key: e.id },
          ref,
        ]),
        [null, null, null, null],
      );
    }
    // The address's invitation replaced in one commit: the delete goes first.
    const next = link({});
    assert.equal(
      await records.commit({
        deletes: [{ kind: "link", value: first }],
        puts: [{ kind: "link", value: next }],
      }),
      true,
    );
    assert.deepEqual(
      (await records.list("link", "emailKey", "grace@example.com"))
        .map((v) => v.value),
      [next],
    );
    // A unique value freed by a record the commit replaces may be taken by
    // a new one, whichever order the commit lists them in.
    const moved = { ...a, emailKey: "moved@example.com" };
    const taker = account({ emailKey: a.emailKey });
    assert.equal(
      await records.commit({
        puts: [{ kind: "account", value: taker }, {
          kind: "account",
          value: moved,
          before: a,
        }],
      }),
      true,
    );
  } finally {
    await close();
  }
});

test("PostgresRecords answers keys that are no uuid as absent, in uuid-keyed tables", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    assert.deepEqual(
      (await records.read([
        { kind: "account", key: "not-a-uuid" },
        { kind: "account", key: a.id.toUpperCase() },
        { kind: "link", unique: "id", value: "" },
        { kind: "session", key: "not-a-uuid" },
      ])).map((f) => f?.value ?? null),
      [null, a, null, null],
    );
    assert.deepEqual(await records.read([{ kind: "totp", key: "x" }]), [null]);
    assert.deepEqual(await records.list("session", "userId", "x"), []);
    assert.equal(
      await records.commit({
        checks: [{ kind: "account", key: "x", version: "1" }],
      }),
      false,
    );
    const b = account();
    assert.equal(
      await records.commit({
        checks: [{ kind: "account", key: "x", version: null }],
        deletes: [{ kind: "account", value: { ...a, id: "x" } }],
        puts: [{ kind: "account", value: b }],
      }),
      true,
    );
    assert.equal(await records.commit({}), true);
    assert.deepEqual(await records.events({ limit: 5, userId: "x" }), []);
    await assert.rejects(
      records.events({ limit: 5, cursor: "x" }),
      TypeError,
    );
    await assert.rejects(
      records.accounts({ limit: 5, cursor: "x" }),
      TypeError,
    );
  } finally {
    await close();
  }
});

test("PostgresRecords keeps the foreign keys: a record of an unknown account is refused with an error, writing nothing", async () => {
  const { records, close } = await schemaRecords();
  try {
    const e = event();
    await assert.rejects(
      records.commit({
        puts: [{ kind: "session", value: session(uuidv7()) }],
        events: [e],
      }),
      /foreign key/,
    );
    assert.deepEqual(await records.read([{ kind: "event", key: e.id }]), [
      null,
    ]);
  } finally {
    await close();
  }
});

test("PostgresRecords reads any refs in one query and commits in one call", async () => {
  const queries: string[] = [];
  const { close, instance } = await schemaRecords();
  try {
    const records = instance({ onQuery: (text) => queries.push(text) });
    const a = account();
    const s = session(a.id);
    await records.commit({
      puts: [{ kind: "account", value: a }, { kind: "session", value: s }],
    });
    queries.length = 0;
    const [readS, readA] = await records.read([
      { kind: "session", key: s.tokenHash },
      { kind: "account", key: a.id },
      { kind: "account", unique: "emailKey", value: a.emailKey },
      { kind: "tally", key: "enabled" },
      { kind: "session", key: "missing" },
    ]);
    assert.equal(queries.length, 1);
    queries.length = 0;
    assert.equal(
      await records.commit({
        checks: [
          { kind: "account", key: a.id, version: readA!.version },
          { kind: "session", key: s.tokenHash, version: readS!.version },
        ],
        deletes: [{ kind: "session", value: s }],
        puts: [{
          kind: "account",
          value: { ...a, generation: 1 },
          before: a,
        }],
        tallies: [{ key: `sessions:${a.id}`, by: 1 }],
        events: [event({ targetId: a.id })],
      }),
      true,
    );
    assert.equal(queries.length, 1);
    assert.match(queries[0]!, /\.commit\(\$1::text::jsonb\)/);
  } finally {
    await close();
  }
});

test("PostgresRecords coalesces concurrent reads: every one answered, far fewer queries", async () => {
  const queries: string[] = [];
  const { close, instance } = await schemaRecords();
  try {
    const records = instance({
      sessionReadsInFlight: 1,
      onQuery: (text) => queries.push(text),
    });
    const a = account();
    const sessions = Array.from({ length: 60 }, () => session(a.id));
    await records.commit({
      puts: [
        { kind: "account", value: a },
        ...sessions.map((value) => ({ kind: "session" as const, value })),
      ],
    });
    queries.length = 0;
    const answers = await Promise.all(sessions.map((s) =>
      records.read([
        { kind: "session", key: s.tokenHash },
        { kind: "account", key: a.id },
      ])
    ));
    for (const [i, [s, found]] of answers.entries()) {
      assert.deepEqual(s?.value, sessions[i]);
      assert.deepEqual(found?.value, a);
    }
    assert.ok(queries.length <= 3, `${queries.length} queries`);
    // One account read for many callers: each has its own copy.
    (answers[1]![1]!.value as { name: string }).name = "changed";
    for (const [, found] of answers.slice(2)) {
      assert.deepEqual(found?.value, a);
    }
  } finally {
    await close();
  }
});

test("PostgresRecords.deleteExpired() sweeps each kind at most limit, expiry at the cut included", async () => {
  const { records, close } = await schemaRecords();
  try {
    const a = account();
    const b = account();
    const at = 1_000;
    await records.commit({
      puts: [
        { kind: "account", value: a },
        { kind: "account", value: b },
        { kind: "session", value: session(a.id, { expiresAt: at }) },
        { kind: "session", value: session(a.id, { expiresAt: at - 1 }) },
        { kind: "session", value: session(a.id, { expiresAt: at + 1 }) },
        {
          kind: "enrolment",
          value: { userId: a.id, secret: "s", createdAt: 0, expiresAt: at },
        },
        {
          kind: "enrolment",
          value: { userId: b.id, secret: "s", createdAt: 0, expiresAt: at + 1 },
        },
        {
          kind: "pending",
          value: {
            tokenHash: "p",
            userId: a.id,
            generation: 0,
            factorVersion: 0,
            failures: 0,
            createdAt: 0,
            expiresAt: at,
          },
        },
        {
          kind: "challenge",
          value: {
            tokenHash: "c",
            challenge: "c",
            use: "login",
            userId: "",
            createdAt: 0,
            expiresAt: at,
          },
        },
        {
          kind: "link",
          value: {
            tokenHash: "l",
            id: uuidv7(),
            kind: "reset",
            email: a.email,
            emailKey: a.emailKey,
            name: "",
            role: "",
            userId: a.id,
            invitedBy: "",
            generation: 0,
            createdAt: 0,
            expiresAt: at,
          },
        },
      ],
      events: [event({ at: at - 1 }), event({ at }), event({ at: at + 1 })],
    });
    assert.equal(await records.deleteExpired("session", at, 1), 1);
    assert.equal(await records.deleteExpired("session", at, 5), 1);
    assert.equal(await records.deleteExpired("session", at, 5), 0);
    assert.equal((await records.list("session", "userId", a.id)).length, 1);
    assert.equal(await records.deleteExpired("enrolment", at, 5), 1);
    assert.equal(await records.deleteExpired("pending", at, 5), 1);
    assert.equal(await records.deleteExpired("challenge", at, 5), 1);
    assert.equal(await records.deleteExpired("link", at, 5), 1);
    assert.equal(await records.deleteExpired("event", at, 5), 2);
    assert.deepEqual(
      (await records.events({ limit: 5 })).map((e) => e.at),
      [at + 1],
    );
  } finally {
    await close();
  }
});

test("PostgresRecords.accounts() pages like the in-memory reference in every order, with search", async () => {
  const { records, close } = await schemaRecords();
  try {
    const memory = new MemoryRecords();
    const people = [
      ["Émile", "emile@example.com"],
      ["ada", "Ada@example.com"],
      ["Ada", "ada.l@example.com"],
      ["Zoë", "zoe@example.org"],
      ["bob", "bob_1@example.com"],
      ["Bob", "bob%2@example.com"],
      ["Carol", "carol@example.net"],
    ];
    for (const [name, email] of people) {
      const value = account({
        name,
        nameKey: fold(name!),
        email,
        emailKey: fold(email!),
      });
      for (const store of [records, memory]) {
        await store.commit({ puts: [{ kind: "account", value }] });
      }
    }
    for (const sort of USER_SORTS) {
      for (const q of ["", "a", "bob_", "%", "example.com"]) {
        const walk = async (store: typeof memory | typeof records) => {
          const pages: string[][] = [];
          const totals: (number | undefined)[] = [];
          let cursor: string | null | undefined;
          while (cursor !== null) {
            const page = await store.accounts({
              limit: 2,
              sort,
              q,
              ...(cursor === undefined ? {} : { cursor }),
            });
            pages.push(page.accounts.map((a) => a.id));
            totals.push(page.total);
            cursor = page.nextCursor;
          }
          return { pages, totals };
        };
        assert.deepEqual(
          await walk(records),
          await walk(memory),
          `sort ${sort}, q "${q}"`,
        );
      }
    }
  } finally {
    await close();
  }
});

test("PostgresRecords.migrate() takes a version-8 schema to 9 and on: tallies from its accounts, no triggers, the commit functions", async () => {
  const sql = pool();
  const schema = uniqueSchema();
  const quoted = `"${schema}"`;
  try {
    await buildVersion8(sql, schema);
    const ids: string[] = [];
    for (
      const [role, disabled] of [
        ["admin", false],
        ["admin", false],
        ["admin", true],
        ["", false],
        ["user", true],
      ] as const
    ) {
      const id = uuidv7();
      ids.push(id);
      await sql.unsafe(
        `INSERT INTO ${quoted}.users (id, email, email_key, name, name_key,
           role, disabled, password_hash, created_at)
         VALUES ($1, $2, $2, 'Ada', 'ada', $3, $4, 'h', 1)`,
        [id, `${id}@example.com`, role, disabled],
      );
    }
    // Two functions only the unreleased history built (stand-ins).
    for (const name of ["create_session", "create_session_v3"]) {
      await sql.unsafe(`CREATE FUNCTION ${quoted}.${name}(p uuid)
        RETURNS boolean LANGUAGE sql AS 'SELECT true'`);
    }
    const records = new PostgresRecords(sql, { schema });
    await Promise.all([records.migrate(), records.migrate()]);
    await records.migrate();
    const versions = await sql.unsafe(
      `SELECT version FROM ${quoted}.schema_migrations ORDER BY version`,
    );
    assert.deepEqual(versions.map((row) => row.version), [
      8,
      9,
      10,
      11,
      12,
      13,
    ]);
    const tallies = await sql.unsafe(
      `SELECT key, count FROM ${quoted}.tallies ORDER BY key`,
    );
    assert.deepEqual(tallies.map((row) => [row.key, Number(row.count)]), [
      ["enabled", 3],
      ["role:", 1],
      ["role:admin", 2],
    ]);
    const functions = await sql`
      SELECT p.proname FROM pg_proc p JOIN pg_namespace n
        ON n.oid = p.pronamespace WHERE n.nspname = ${schema}
      ORDER BY p.proname`;
    assert.deepEqual(functions.map((row) => row.proname), [
      "commit",
      "commit_session",
    ]);
    const [triggers] = await sql`
      SELECT count(*)::int AS n FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ${schema} AND NOT t.tgisinternal`;
    assert.equal(triggers?.n, 0);
    // The accounts written by version 8 read as records.
    const [first] = await records.read([{ kind: "account", key: ids[0]! }]);
    assert.deepEqual(first?.value, {
      id: ids[0],
      email: `${ids[0]}@example.com`,
      emailKey: `${ids[0]}@example.com`,
      name: "Ada",
      nameKey: "ada",
      role: "admin",
      disabled: false,
      passwordHash: "h",
      generation: 0,
      createdAt: 1,
      factorVersion: 0,
      totpEnabled: false,
      passkeyCount: 0,
      // Added on the way from version 8: no language known yet.
      locale: "",
      localeChosen: false,
    });
    // And commit through the function version 9 added.
    assert.equal(
      await records.commit({
        checks: [{ kind: "account", key: ids[0]!, version: first!.version }],
        puts: [{
          kind: "account",
          value: { ...first!.value as AccountRecord, name: "Ada L" },
          before: first!.value as AccountRecord,
        }],
        tallies: [{ key: "enabled", by: -1 }],
      }),
      true,
    );
    const [renamed, enabled] = await records.read([
      { kind: "account", key: ids[0]! },
      { kind: "tally", key: "enabled" },
    ]);
    assert.equal((renamed?.value as AccountRecord).name, "Ada L");
    assert.deepEqual(enabled?.value, { key: "enabled", count: 2 });
  } finally {
    await sql.unsafe(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
    await sql.end();
  }
});

test("PostgresRecords refuses a bad schema name and a client with transforms", async () => {
  const sql = pool();
  const camel = postgres(DATABASE_URL, {
    ...POOL_OPTIONS,
    transform: postgres.camel,
  });
  try {
    assert.throws(
      () => new PostgresRecords(sql, { schema: "Bad-Name" }),
      TypeError,
    );
    assert.throws(() => new PostgresRecords(camel), /transform/);
  } finally {
    await Promise.all([sql.end(), camel.end()]);
  }
});

test("PostgresStore and PostgresRecords on one database keep to their schemas", async () => {
  const { records, close } = await schemaRecords();
  const old = await schemaStore();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    assert.equal(await records.hasAccounts(), true);
    assert.equal(await old.store.hasUsers(), false);
    assert.ok(old.store instanceof PostgresStore);
  } finally {
    await old.close();
    await close();
  }
});
