// migrate() on each store: a fresh database gets the current schema, one at
// the current version is left alone, one of an unknown version (newer, or
// from the unreleased history before the first version) is refused without
// a write, and instances starting together are safe. On Postgres the schema
// built is compared, catalog line by catalog line, with the recorded one
// (tests/fixtures/postgres_catalog.ts), and a database left at version 8 by
// the unreleased history (its rules in PL/pgSQL) is upgraded to 9 with its
// data, after which the rules hold on it.

import assert from "node:assert/strict";
import type postgres from "postgres";
import { subjectKeyOf } from "../../server/core/sso/claims.ts";
import { AuthError } from "../../server/http/errors.ts";
import { RECORDS_SCHEMA_VERSION } from "../../server/stores/kv/_record_schema.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import {
  LATEST_VERSION,
  MIGRATIONS,
} from "../../server/stores/postgres/_migrations.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { addUser } from "../fixtures/kv.ts";
import { catalog, RECORDED } from "../fixtures/postgres_catalog.ts";
import {
  ignorePostgres,
  pool,
  schemaStore,
  uniqueSchema,
} from "../fixtures/postgres.ts";
import { buildVersion8 } from "../fixtures/postgres_version_8.ts";

const P = ["gatehouse"];

// Every key under `prefix`, as JSON, with its versionstamp.
async function keysUnder(
  kv: Deno.Kv,
  prefix: Deno.KvKey,
): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of kv.list({ prefix })) {
    keys.push(`${JSON.stringify(entry.key)}@${entry.versionstamp}`);
  }
  return keys;
}

Deno.test("KvStore.migrate() writes schema 6, and only it, once however many instances start together", async () => {
  const path = await Deno.makeTempFile();
  const handles = await Promise.all([Deno.openKv(path), Deno.openKv(path)]);
  try {
    const [kv] = handles;
    await Promise.all([
      ...handles.map((handle) => new KvStore(handle).migrate()),
      new KvStore(kv!).migrate(),
      new KvStore(handles[1]!).migrate(),
    ]);
    assert.equal(RECORDS_SCHEMA_VERSION, 6);
    const schema = await kv!.get([...P, "schema"]);
    assert.equal(schema.value, 6);
    assert.deepEqual(await keysUnder(kv!, P), [
      `${JSON.stringify([...P, "schema"])}@${schema.versionstamp}`,
    ]);
    const store = new KvStore(kv!);
    const ada = await addUser(store, { email: "ada@example.com" });
    // At the current version nothing is written again.
    const before = await keysUnder(kv!, P);
    await Promise.all(handles.map((handle) => new KvStore(handle).migrate()));
    assert.deepEqual(await keysUnder(kv!, P), before);
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
      [
        7,
        /schema version 7 is newer than this Gatehouse's \(6\); upgrade Gatehouse/,
      ],
      [
        4,
        /unreleased earlier version of Gatehouse \(schema version 4\), whose key layout is not upgraded to version 6/,
      ],
      [
        1,
        /unreleased earlier version of Gatehouse \(schema version 1\), whose key layout is not upgraded to version 6/,
      ],
    ] as const
  ) {
    const kv = await Deno.openKv(":memory:");
    try {
      await kv.set([...P, "schema"], version);
      // A record of that layout, which must stay as it is.
      await kv.set([...P, "users", "u1"], { email: "ada@example.com" });
      const before = await keysUnder(kv, P);
      await assert.rejects(new KvStore(kv).migrate(), message);
      assert.deepEqual(await keysUnder(kv, P), before);
    } finally {
      kv.close();
    }
  }
});

// Schema 6 lists sessions by the single sign-on identity that made them. A
// store of schema 5 holds such sessions without that entry (the identity
// unlinked since): migrate() gives them it, so a logout naming only that
// person ends exactly them, and their sweep notes name it.
Deno.test("KvStore.migrate() takes a schema-5 store to 6: its single sign-on sessions listed by identity", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const store = new KvStore(kv);
    await store.migrate();
    const issuer = "https://login.acme.example";
    const ada = await addUser(store, { email: "ada@example.com" });
    const now = Date.now();
    const made = async (sub?: string) => {
      const tokenHash = crypto.randomUUID();
      assert.equal(
        await store.createSession({
          tokenHash,
          userId: ada.id,
          createdAt: now,
          expiresAt: now + DAY,
          ...(sub === undefined ? {} : {
            sso: {
              provider: "acme",
              sid: null,
              subjectKey: subjectKeyOf(issuer, sub),
            },
          }),
        }),
        true,
      );
      return tokenHash;
    };
    const [ours, another, password] = [
      await made("ada"),
      await made("ada-2"),
      await made(),
    ];
    // As schema 5 left them: no entry by identity, notes without it.
    const byIdentity = [...P, "session_of_ssoSubjectKey"];
    for await (const entry of kv.list({ prefix: byIdentity })) {
      await kv.delete(entry.key);
    }
    for await (
      const entry of kv.list<Record<string, unknown>>({
        prefix: [...P, "session_expiry"],
      })
    ) {
      const { ssoSubjectKey: _, ...note } = entry.value;
      await kv.set(entry.key, note);
    }
    await kv.set([...P, "schema"], 5);

    await Promise.all([store.migrate(), new KvStore(kv).migrate()]);
    assert.equal((await kv.get([...P, "schema"])).value, 6);
    assert.equal(
      (await Array.fromAsync(kv.list({ prefix: byIdentity }))).length,
      2,
    );
    const ended = await store.endSsoSessions({
      providerId: "acme",
      issuer,
      subject: "ada",
      sid: null,
      jti: crypto.randomUUID(),
      replayUntil: now + DAY,
    });
    assert.equal(ended?.sessions, 1);
    const live = await Promise.all(
      [ours, another, password].map(async (t) =>
        await store.findSession(t, Date.now()) !== null
      ),
    );
    assert.deepEqual(live, [false, true, true]);
    // The sweep note of the one left names its entry.
    const notes = await Array.fromAsync(
      kv.list<Record<string, unknown>>({ prefix: [...P, "session_expiry"] }),
    );
    assert.deepEqual(
      notes.map((n) => n.value.ssoSubjectKey).filter((v) => v !== undefined),
      [subjectKeyOf(issuer, "ada-2")],
    );
  } finally {
    kv.close();
  }
});

Deno.test("KvStore.migrate() names the prefix of the store it refuses; another prefix of the database is free", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(["app", "auth", "schema"], 4);
    await assert.rejects(
      new KvStore(kv, { prefix: ["app", "auth"] }).migrate(),
      /under the prefix \["app","auth"\].*pass another `prefix`/s,
    );
    const fresh = new KvStore(kv, { prefix: ["app", "auth2"] });
    await fresh.migrate();
    assert.equal((await kv.get(["app", "auth2", "schema"])).value, 6);
    assert.equal((await kv.get(["app", "auth", "schema"])).value, 4);
  } finally {
    kv.close();
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
        MIGRATIONS.map(({ version, name }) => ({ version, name })),
      );
      assert.equal(LATEST_VERSION, 13);
      assert.equal(
        await catalog(sql, schema),
        await Deno.readTextFile(RECORDED),
      );
    } finally {
      await close();
    }
  },
});

// Version 13 records the session a re-authentication's flow was started
// by. A flow saved at 12, in flight across the upgrade, names none: its
// callback renews nothing (features/_sso_callback.ts).
Deno.test({
  name:
    "PostgresStore.migrate() takes a schema at version 12 with a single sign-on flow in flight to 13: the flow names no session",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    const quoted = `"${schema}"`;
    try {
      // Back to version 12: 13 added the column and nothing else.
      await sql.unsafe(
        `ALTER TABLE ${quoted}.sso_flows DROP COLUMN session_id`,
      );
      await sql.unsafe(
        `DELETE FROM ${quoted}.schema_migrations WHERE version = 13`,
      );
      const ada = await addUser(store, { email: "ada@example.com" });
      const now = Date.now();
      await sql.unsafe(
        `INSERT INTO ${quoted}.sso_flows (token_hash, provider_id, state,
          nonce, code_verifier, return_to, purpose, user_id, created_at,
          expires_at)
        VALUES ('in-flight', 'acme', 's', 'n', 'v', '/', 'reauthenticate',
          $1, $2, $3)`,
        [ada.id, now, now + 600_000],
      );

      await store.migrate();
      assert.deepEqual(
        (await sql.unsafe(
          `SELECT version FROM ${quoted}.schema_migrations ORDER BY version`,
        )).map((row) => row.version),
        [9, 10, 11, 12, 13],
      );
      assert.equal(
        await catalog(sql, schema),
        await Deno.readTextFile(RECORDED),
      );
      const flow = await store.spendSsoFlow("in-flight");
      assert.equal(flow?.userId, ada.id);
      assert.equal(flow?.sessionId, null);
    } finally {
      await close();
    }
  },
});

Deno.test({
  name: "PostgresStore.migrate() leaves alone a schema at the latest version",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    const quoted = `"${schema}"`;
    try {
      const ada = await addUser(store, { email: "ada@example.com" });
      const before = await sql.unsafe(
        `SELECT * FROM ${quoted}.schema_migrations ORDER BY version`,
      );
      const recorded = await catalog(sql, schema);
      const tallies = await sql.unsafe(
        `SELECT key, count FROM ${quoted}.tallies ORDER BY key`,
      );
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
      assert.deepEqual(
        await sql.unsafe(
          `SELECT key, count FROM ${quoted}.tallies ORDER BY key`,
        ),
        tallies,
      );
      assert.equal((await store.userById(ada.id))?.email, "ada@example.com");
    } finally {
      await close();
    }
  },
});

// Version 12 indexes sessions by the identity whose single sign-on made
// them. A schema at 11 holding such sessions (the identity unlinked since)
// is brought to 12, to the recorded catalog, and a logout naming only that
// person ends exactly the session the identity made.
Deno.test({
  name:
    "PostgresStore.migrate() takes a schema at version 11 with single sign-on sessions to 12: a logout naming only sub ends its identity's",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    const quoted = `"${schema}"`;
    try {
      // Back to version 11: 12 added the index and nothing else.
      await sql.unsafe(`DROP INDEX ${quoted}.sessions_sso_subject_key`);
      await sql.unsafe(
        `DELETE FROM ${quoted}.schema_migrations WHERE version = 12`,
      );
      const issuer = "https://login.acme.example";
      const ada = await addUser(store, { email: "ada@example.com" });
      const now = Date.now();
      const made = async (sso?: { sub: string }) => {
        const tokenHash = crypto.randomUUID();
        assert.equal(
          await store.createSession({
            tokenHash,
            userId: ada.id,
            createdAt: now,
            expiresAt: now + DAY,
            ...(sso === undefined ? {} : {
              sso: {
                provider: "acme",
                sid: null,
                subjectKey: subjectKeyOf(issuer, sso.sub),
              },
            }),
          }),
          true,
        );
        return tokenHash;
      };
      const [ours, another, password] = [
        await made({ sub: "ada" }),
        await made({ sub: "ada-2" }),
        await made(),
      ];

      await Promise.all([
        store.migrate(),
        new PostgresStore(sql, { schema }).migrate(),
      ]);
      assert.deepEqual(
        (await sql.unsafe(
          `SELECT version FROM ${quoted}.schema_migrations ORDER BY version`,
        )).map((row) => row.version),
        [9, 10, 11, 12, 13],
      );
      assert.equal(
        await catalog(sql, schema),
        await Deno.readTextFile(RECORDED),
      );

      const ended = await store.endSsoSessions({
        providerId: "acme",
        issuer,
        subject: "ada",
        sid: null,
        jti: crypto.randomUUID(),
        replayUntil: now + DAY,
      });
      assert.equal(ended?.sessions, 1);
      const live = await Promise.all(
        [ours, another, password].map(async (t) =>
          await store.findSession(t, Date.now()) !== null
        ),
      );
      assert.deepEqual(live, [false, true, true]);
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
    for (const newest of [5, 7]) {
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
           SELECT v, 'unreleased' FROM generate_series(1, $1::int) v`,
          [newest],
        );
        await assert.rejects(
          new PostgresStore(sql, { schema }).migrate(),
          new RegExp(
            `schema version ${newest} predates the first release of Gatehouse \\(9\\)`,
          ),
        );
        const [tables] = await sql`
          SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = ${schema}`;
        assert.equal(tables?.n, 1);
        const [versions] = await sql.unsafe(
          `SELECT max(version) AS v FROM ${quoted}.schema_migrations`,
        );
        assert.equal(versions?.v, newest);
      } finally {
        await sql.unsafe(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
        await sql.end();
      }
    }
  },
});

// The accounts of the version-8 database: [email, role, disabled, generation].
const ACCOUNTS = [
  ["ada@example.com", "admin", false, 2],
  ["grace@example.com", "admin", false, 0],
  ["alan@example.com", "admin", true, 1],
  ["edsger@example.com", "", false, 0],
  ["barbara@example.com", "user", true, 0],
] as const;

const T0 = Date.now();
const DAY = 86_400_000;

// Fills a version-8 schema as its own functions and triggers would have
// left it: the triggers keep totp_enabled and passkey_count, as they did.
async function fillVersion8(
  sql: postgres.Sql,
  quoted: string,
): Promise<[string, string, string, string, string]> {
  const ids: string[] = [];
  for (const [email, role, disabled, generation] of ACCOUNTS) {
    const [row] = await sql.unsafe(
      `INSERT INTO ${quoted}.users (id, email, email_key, name, name_key,
         role, disabled, password_hash, generation, created_at)
       VALUES (gen_random_uuid(), $1, $1, $2, lower($2), $3, $4, $5, $6, $7)
       RETURNING id`,
      [
        email,
        email.split("@")[0]!,
        role,
        disabled,
        `hash-of-${email}`,
        generation,
        T0 - DAY,
      ],
    );
    ids.push(row!.id as string);
  }
  const [ada, grace, alan, edsger, barbara] = ids as [
    string,
    string,
    string,
    string,
    string,
  ];
  await sql.unsafe(
    `INSERT INTO ${quoted}.sessions (token_hash, id, user_id, generation,
       created_at, expires_at, last_seen_at, authenticated_at, ip, user_agent)
     VALUES ('ada-session', gen_random_uuid(), $1, 2, $3, $4, $3, $3,
               '203.0.113.1', 'Firefox'),
            ('edsger-session', gen_random_uuid(), $2, 0, $3, $4, $3, $3,
               '203.0.113.2', 'Safari')`,
    [ada, edsger, T0 - 1000, T0 + DAY],
  );
  await sql.unsafe(
    `INSERT INTO ${quoted}.totp (user_id, secret, last_step, recovery_codes)
     VALUES ($1, 'sealed:v1:secret', 56000000, ARRAY['code-1', 'code-2'])`,
    [ada],
  );
  await sql.unsafe(
    `INSERT INTO ${quoted}.passkeys (id, user_id, credential_id, public_key,
       counter, transports, name, created_at, last_used_at)
     VALUES (gen_random_uuid(), $1, 'credential-1', 'public-key', 7,
       ARRAY['usb', 'nfc'], 'Key', $2, NULL)`,
    [ada, T0 - DAY],
  );
  return [ada, grace, alan, edsger, barbara];
}

Deno.test({
  name:
    "PostgresStore.migrate() takes a schema at version 8 with data to 9 and on: the data kept, the tallies counted, the rules hold",
  ignore: ignorePostgres,
  async fn() {
    const sql = pool();
    const schema = uniqueSchema();
    const quoted = `"${schema}"`;
    try {
      await buildVersion8(sql, schema);
      const [ada, grace, alan, edsger] = await fillVersion8(sql, quoted);
      // The version 8 triggers counted the factors.
      const [counted] = await sql.unsafe(
        `SELECT totp_enabled, passkey_count FROM ${quoted}.users
         WHERE id = $1`,
        [ada],
      );
      assert.deepEqual({ ...counted }, {
        totp_enabled: true,
        passkey_count: 1,
      });

      const store = new PostgresStore(sql, { schema });
      await Promise.all([
        store.migrate(),
        new PostgresStore(sql, { schema }).migrate(),
      ]);
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
      // What a fresh schema is, to the line: the rules' functions and
      // triggers gone, the tallies and the commit function there.
      const upgraded = await catalog(sql, schema);
      assert.equal(upgraded, await Deno.readTextFile(RECORDED));
      const tallies = async () =>
        (await sql.unsafe(
          `SELECT key, count FROM ${quoted}.tallies ORDER BY key`,
        )).map((row) => [row.key, Number(row.count)]);
      // Each account's sessions counted too (a sign-in at the cap lists
      // them only when its count says so).
      assert.deepEqual(await tallies(), [
        ["enabled", 3],
        ["role:", 1],
        ["role:admin", 2],
        ...[[`sessions:${ada}`, 1], [`sessions:${edsger}`, 1]].sort((a, b) =>
          a[0]! < b[0]! ? -1 : 1
        ),
      ]);

      // The data, as the rules read it.
      const now = Date.now();
      const credentials = await store.credentialsByEmail("ada@example.com");
      assert.deepEqual(credentials, {
        user: {
          id: ada,
          email: "ada@example.com",
          name: "ada",
          role: "admin",
          disabled: false,
          createdAt: T0 - DAY,
          locale: "",
          localeChosen: false,
        },
        passwordHash: "hash-of-ada@example.com",
        generation: 2,
        factors: {
          totpEnabled: true,
          passkeyCount: 1,
          factorVersion: 0,
          hasPassword: true,
        },
      });
      assert.equal((await store.userById(alan))?.disabled, true);
      const found = await store.findSession("ada-session", now, ada);
      assert.equal(found?.user.id, ada);
      assert.deepEqual(found?.factors, {
        totpEnabled: true,
        passkeyCount: 1,
        factorVersion: 0,
        hasPassword: true,
      });
      assert.equal(
        (await store.findSession("edsger-session", now, edsger))?.user.id,
        edsger,
      );
      assert.deepEqual(
        (await store.listSessions(ada, now)).map((s) => s.ip),
        ["203.0.113.1"],
      );
      assert.deepEqual(await store.totp(ada), {
        secret: "sealed:v1:secret",
        lastStep: 56000000,
        recoveryCodesLeft: 2,
      });
      const [passkey] = await store.listPasskeys(ada);
      assert.equal(passkey?.credentialId, "credential-1");
      assert.deepEqual(passkey?.transports, ["usb", "nfc"]);
      assert.equal(passkey?.counter, 7);
      assert.equal(
        (await store.passkeyByCredentialId("credential-1"))?.userId,
        ada,
      );

      // A sign-in: bound to the account's generation, within its cap (the
      // session from version 8 ends to make room).
      assert.equal(
        await store.createSession({
          tokenHash: "ada-new-session",
          userId: ada,
          createdAt: now,
          expiresAt: now + DAY,
          expectedGeneration: 2,
          maxSessions: 1,
        }),
        true,
      );
      assert.equal(
        await store.createSession({
          tokenHash: "ada-stale-session",
          userId: ada,
          createdAt: now,
          expiresAt: now + DAY,
          expectedGeneration: 1,
        }),
        false,
      );
      assert.equal(await store.findSession("ada-session", now, ada), null);
      assert.equal(
        (await store.findSession("ada-new-session", now, ada))?.user.id,
        ada,
      );

      // The last administrator: the tallies of version 8's accounts count.
      await store.updateUser(ada, {
        disabled: true,
        keepPrivileged: ["admin"],
      });
      await assert.rejects(
        store.updateUser(grace, { disabled: true, keepPrivileged: ["admin"] }),
        (err: unknown) =>
          err instanceof AuthError && err.code === "last_privileged_refused",
      );
      // With no privileged role named, every enabled account counts.
      await store.updateUser(edsger, { disabled: true, keepPrivileged: [] });
      await assert.rejects(
        store.updateUser(grace, { disabled: true, keepPrivileged: [] }),
        (err: unknown) =>
          err instanceof AuthError && err.code === "last_privileged_refused",
      );
      assert.equal((await store.userById(grace))?.disabled, false);
      assert.equal(await store.findSession("ada-new-session", now, ada), null);
      const counts = (await tallies()).filter(([key, count]) =>
        count !== 0 && !String(key).startsWith("sessions:")
      );
      assert.deepEqual(counts, [["enabled", 1], ["role:admin", 1]]);

      // Migrating again changes nothing.
      await store.migrate();
      assert.deepEqual(
        (await sql.unsafe(
          `SELECT version FROM ${quoted}.schema_migrations ORDER BY version`,
        )).map((row) => row.version),
        [8, 9, 10, 11, 12, 13],
      );
      assert.equal(await catalog(sql, schema), upgraded);
    } finally {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${quoted} CASCADE`);
      await sql.end();
    }
  },
});
