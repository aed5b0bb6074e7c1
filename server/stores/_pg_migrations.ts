// The schema of PostgresStore as numbered migrations, and the runner that
// applies them. Applied versions are recorded in `schema_migrations`; the
// runner holds a transaction-level advisory lock (one per schema) while it
// reads that table and applies what is missing, so two instances starting at
// once apply each migration exactly once, and a failed migration leaves
// nothing behind (Postgres DDL is transactional).
//
// Times are bigint milliseconds since the epoch: the Store interface speaks
// milliseconds, and comparing integers needs no conversion on the hot path.
// Never edit a released migration; add the next version.

import type postgres from "postgres";

/** One step of the schema. `{schema}` stands for the quoted schema name. */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "accounts, sessions, links and counters",
    statements: [
      `CREATE TABLE {schema}.users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        password_hash text NOT NULL,
        generation integer NOT NULL DEFAULT 0,
        created_at bigint NOT NULL
      )`,
      // The email_taken rule: one account per address, whatever its case.
      `CREATE UNIQUE INDEX users_email_key ON {schema}.users (lower(email))`,
      // Counting enabled accounts per role (the last-privileged rule).
      `CREATE INDEX users_enabled_role ON {schema}.users (role)
        WHERE NOT disabled`,
      `CREATE TABLE {schema}.sessions (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES {schema}.users (id) ON DELETE CASCADE,
        generation integer NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX sessions_user_id ON {schema}.sessions (user_id)`,
      `CREATE INDEX sessions_expires_at ON {schema}.sessions (expires_at)`,
      // user_id has no foreign key: a reset link outlives nothing, and
      // confirming one whose account is gone simply finds no account.
      `CREATE TABLE {schema}.links (
        token_hash text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('invitation', 'reset')),
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        user_id uuid,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX links_expires_at ON {schema}.links (expires_at)`,
      `CREATE TABLE {schema}.counters (
        key text PRIMARY KEY,
        count integer NOT NULL,
        reset_at bigint NOT NULL
      )`,
      `CREATE INDEX counters_reset_at ON {schema}.counters (reset_at)`,
    ],
  },
];

/** The newest schema version this code knows. */
export const LATEST_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!
  .version;

/**
 * Brings `schema` up to {@linkcode LATEST_VERSION} in one transaction.
 * `schema` must already be validated as a plain lower-case identifier.
 */
export async function runMigrations(
  sql: postgres.Sql,
  schema: string,
): Promise<void> {
  const quoted = `"${schema}"`;
  await sql.begin(async (tx) => {
    // Serialises concurrent migrate() calls on this schema until commit.
    await tx`SELECT pg_advisory_xact_lock(hashtext(${`gatehouse.migrate:${schema}`}))`;
    // Existence is checked rather than `IF NOT EXISTS`, which needs the
    // CREATE privilege even when the schema is there and sends notices.
    const [found] = await tx`
      SELECT to_regclass(${`${quoted}.schema_migrations`}) IS NOT NULL AS ready,
             EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = ${schema}) AS schema`;
    if (!found?.schema) await tx.unsafe(`CREATE SCHEMA ${quoted}`);
    if (!found?.ready) {
      await tx.unsafe(`CREATE TABLE ${quoted}.schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    }
    const rows = await tx.unsafe(
      `SELECT version FROM ${quoted}.schema_migrations`,
    );
    const applied = new Set(rows.map((row) => Number(row.version)));
    const newest = Math.max(0, ...applied);
    if (newest > LATEST_VERSION) {
      throw new Error(
        `Cannot use store: schema version ${newest} is newer than this Gatehouse (${LATEST_VERSION})`,
      );
    }
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.version)) continue;
      for (const statement of migration.statements) {
        await tx.unsafe(statement.replaceAll("{schema}", quoted));
      }
      await tx.unsafe(
        `INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`,
        [migration.version, migration.name],
      );
    }
  });
}
