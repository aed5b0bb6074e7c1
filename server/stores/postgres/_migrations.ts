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
//
// The first version is 9, not 1: before the first release the schema grew
// through versions 1 to 9, and that unreleased history was collapsed into
// this one version, which builds the tables, columns, constraints, indexes
// and the one commit function directly. No rule lives in SQL: every rule is
// TypeScript in server/core/rules/, written once for every store, and
// reaches the database through the generic `commit` function. A database
// left at version 8 (the unreleased history's last step, whose rules were
// PL/pgSQL functions and triggers) is brought to 9 by FROM_VERSION_8.
// Version 10 adds the sign-in's own commit function (_session_commit.ts),
// the generic one's steps for the one shape every sign-in commits. Version
// 11 gives a session the identity whose single sign-on made it
// (`sso_subject_key`), so a back-channel logout naming a person ends only
// that person's sessions, and replaces the sign-in's function to write it.
// Version 12 indexes sessions by that identity, so such a logout finds
// them after the identity was unlinked or linked to another account.
// tests/server/migration_test.ts compares the catalog this builds with
// tests/fixtures/postgres_schema.txt.

import type postgres from "postgres";
import { COMMIT_FUNCTION } from "./_commit_function.ts";
import {
  SESSION_COMMIT_FUNCTION,
  SESSION_COMMIT_FUNCTION_11,
} from "./_session_commit.ts";

/**
 * One step of the schema: SQL statements, where `{schema}` stands for the
 * quoted schema name, run in order in the migration's transaction.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/**
 * Single sign-on (DESIGN.md §13): the provider and `sid` of the session a
 * sign-in made (a back-channel logout finds them by `sid`), the linked
 * identities, the attempts between start and callback, and the logout
 * tokens acted on. Part of version 9 (never released without them), and of
 * the way from version 8.
 */
const SINGLE_SIGN_ON: readonly string[] = [
  `CREATE INDEX sessions_sso_sid ON {schema}.sessions (sso_sid)
    WHERE sso_sid IS NOT NULL`,
  // subject_key is the digest of the exact (issuer, subject): an identity
  // links once, to one account.
  `CREATE TABLE {schema}.sso_identities (
    id uuid PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES {schema}.users (id) ON DELETE CASCADE,
    provider_id text NOT NULL,
    issuer text NOT NULL,
    subject text NOT NULL,
    subject_key text NOT NULL,
    email text NOT NULL,
    name text NOT NULL,
    linked_at bigint NOT NULL
  )`,
  `CREATE UNIQUE INDEX sso_identities_subject_key
    ON {schema}.sso_identities (subject_key)`,
  `CREATE INDEX sso_identities_user_id ON {schema}.sso_identities (user_id)`,
  `CREATE TABLE {schema}.sso_flows (
    token_hash text PRIMARY KEY,
    provider_id text NOT NULL,
    state text NOT NULL,
    nonce text NOT NULL,
    code_verifier text NOT NULL,
    return_to text NOT NULL,
    purpose text NOT NULL CHECK (purpose IN ('sign_in', 'reauthenticate')),
    user_id uuid REFERENCES {schema}.users (id) ON DELETE CASCADE,
    created_at bigint NOT NULL,
    expires_at bigint NOT NULL
  )`,
  `CREATE INDEX sso_flows_expires_at ON {schema}.sso_flows (expires_at)`,
  `CREATE TABLE {schema}.sso_logout_tokens (
    key text PRIMARY KEY,
    expires_at bigint NOT NULL
  )`,
  `CREATE INDEX sso_logout_tokens_expires_at
    ON {schema}.sso_logout_tokens (expires_at)`,
];

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 9,
    name:
      "accounts, sessions, links, counters, audit trail, second factors, tallies, one commit function",
    statements: [
      // email_key and name_key are the folded email and name (NFC, then
      // lower case), computed in JavaScript like on every store, never by
      // the database's locale. factor_version moves with every factor
      // removal: pending sign-ins bound to an older one are dead.
      // totp_enabled and passkey_count are the account's second factors,
      // kept by the rules with the factor they count, so the session check, which reads the
      // account's row anyway, needs no lookup in `totp` and `passkeys` (two
      // index probes per check, about as much database work as the check
      // itself).
      `CREATE TABLE {schema}.users (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        disabled boolean NOT NULL DEFAULT false,
        password_hash text NOT NULL,
        generation integer NOT NULL DEFAULT 0,
        created_at bigint NOT NULL,
        email_key text NOT NULL,
        name_key text NOT NULL,
        factor_version integer NOT NULL DEFAULT 0,
        totp_enabled boolean NOT NULL DEFAULT false,
        passkey_count integer NOT NULL DEFAULT 0,
        locale text NOT NULL DEFAULT '',
        locale_chosen boolean NOT NULL DEFAULT false
      )`,
      // The email_taken rule: one account per folded address.
      `CREATE UNIQUE INDEX users_email_key ON {schema}.users (email_key)`,
      // Counting enabled accounts per role (the last-privileged rule).
      `CREATE INDEX users_enabled_role ON {schema}.users (role)
        WHERE NOT disabled`,
      `CREATE TABLE {schema}.sessions (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES {schema}.users (id) ON DELETE CASCADE,
        generation integer NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        id uuid NOT NULL,
        ip text NOT NULL DEFAULT '',
        user_agent text NOT NULL DEFAULT '',
        last_seen_at bigint NOT NULL,
        authenticated_at bigint NOT NULL,
        sso_provider text,
        sso_sid text
      )`,
      `CREATE INDEX sessions_expires_at ON {schema}.sessions (expires_at)`,
      `CREATE UNIQUE INDEX sessions_id ON {schema}.sessions (id)`,
      // The list of an account's sessions, newest first.
      `CREATE INDEX sessions_user_created
        ON {schema}.sessions (user_id, created_at DESC)`,
      // user_id has no foreign key: a reset link outlives nothing, and
      // confirming one whose account is gone simply finds no account.
      // invited_by is NULL for the first-run link, which works only while
      // the store has no account.
      `CREATE TABLE {schema}.links (
        token_hash text PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('invitation', 'reset')),
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        user_id uuid,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL,
        id uuid NOT NULL,
        email_key text NOT NULL,
        invited_by uuid,
        generation integer NOT NULL DEFAULT 0
      )`,
      `CREATE INDEX links_expires_at ON {schema}.links (expires_at)`,
      `CREATE UNIQUE INDEX links_id ON {schema}.links (id)`,
      // One invitation per address: what createLink's INSERT ... ON
      // CONFLICT replaces an address's invitation on, in one statement.
      `CREATE UNIQUE INDEX links_invitation_email
        ON {schema}.links (email_key) WHERE kind = 'invitation'`,
      `CREATE TABLE {schema}.counters (
        key text PRIMARY KEY,
        count integer NOT NULL,
        reset_at bigint NOT NULL
      )`,
      `CREATE INDEX counters_reset_at ON {schema}.counters (reset_at)`,
      // Ids are UUIDv7, so id order is time order: every page is an index
      // range read, newest first, under any of the three filters.
      `CREATE TABLE {schema}.audit_events (
        id uuid PRIMARY KEY,
        type text NOT NULL,
        at bigint NOT NULL,
        actor_id uuid,
        actor_email text,
        target_id uuid,
        target_email text,
        ip text NOT NULL,
        user_agent text NOT NULL,
        detail jsonb NOT NULL
      )`,
      `CREATE INDEX audit_events_actor ON {schema}.audit_events (actor_id, id)
        WHERE actor_id IS NOT NULL`,
      `CREATE INDEX audit_events_target
        ON {schema}.audit_events (target_id, id) WHERE target_id IS NOT NULL`,
      `CREATE INDEX audit_events_type ON {schema}.audit_events (type, id)`,
      `CREATE INDEX audit_events_at ON {schema}.audit_events (at)`,
      // A row exists while TOTP is enabled; recovery codes are SHA-256
      // digests, spent by removing them from the array (the row lock makes
      // concurrent spends queue, each seeing the array the one before left).
      `CREATE TABLE {schema}.totp (
        user_id uuid PRIMARY KEY
          REFERENCES {schema}.users (id) ON DELETE CASCADE,
        secret text NOT NULL,
        last_step bigint NOT NULL,
        recovery_codes text[] NOT NULL
      )`,
      `CREATE TABLE {schema}.totp_enrolments (
        user_id uuid PRIMARY KEY
          REFERENCES {schema}.users (id) ON DELETE CASCADE,
        secret text NOT NULL,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX totp_enrolments_expires_at
        ON {schema}.totp_enrolments (expires_at)`,
      `CREATE TABLE {schema}.pending_sign_ins (
        token_hash text PRIMARY KEY,
        user_id uuid NOT NULL
          REFERENCES {schema}.users (id) ON DELETE CASCADE,
        generation integer NOT NULL,
        factor_version integer NOT NULL,
        failures integer NOT NULL DEFAULT 0,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX pending_sign_ins_expires_at
        ON {schema}.pending_sign_ins (expires_at)`,
      `CREATE TABLE {schema}.webauthn_challenges (
        token_hash text PRIMARY KEY,
        challenge text NOT NULL,
        use text NOT NULL CHECK (use IN
          ('register', 'login', 'second_factor', 'reauthenticate')),
        user_id uuid REFERENCES {schema}.users (id) ON DELETE CASCADE,
        created_at bigint NOT NULL,
        expires_at bigint NOT NULL
      )`,
      `CREATE INDEX webauthn_challenges_expires_at
        ON {schema}.webauthn_challenges (expires_at)`,
      `CREATE TABLE {schema}.passkeys (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL
          REFERENCES {schema}.users (id) ON DELETE CASCADE,
        credential_id text NOT NULL,
        public_key text NOT NULL,
        counter bigint NOT NULL,
        transports text[] NOT NULL,
        name text NOT NULL,
        created_at bigint NOT NULL,
        last_used_at bigint
      )`,
      `CREATE UNIQUE INDEX passkeys_credential_id
        ON {schema}.passkeys (credential_id)`,
      `CREATE INDEX passkeys_user_id ON {schema}.passkeys (user_id)`,
      // The counts the rules keep with every account change (enabled
      // accounts per role, all enabled accounts) and the sequences whose
      // version serialises a rule (sessions:{user}, invitation:{email}).
      `CREATE TABLE {schema}.tallies (
        key text PRIMARY KEY,
        count bigint NOT NULL
      )`,
      ...SINGLE_SIGN_ON,
      // The one write path: every rule (server/core/rules/) commits
      // through it (_commit_function.ts).
      COMMIT_FUNCTION,
    ],
  },
  {
    version: 10,
    name: "the sign-in's own commit function",
    // The commit of a new session, written for its one shape
    // (_session_commit.ts); every other commit stays with `commit`.
    statements: [SESSION_COMMIT_FUNCTION],
  },
  {
    version: 11,
    name: "the identity a single sign-on session was made by",
    // Null for every session made before it, and for every other sign-in:
    // a logout naming a person then ends the provider's sessions of the
    // account, as it did.
    statements: [
      `ALTER TABLE {schema}.sessions ADD COLUMN sso_subject_key text`,
      SESSION_COMMIT_FUNCTION_11,
    ],
  },
  {
    version: 12,
    name: "sessions by the identity a single sign-on session was made by",
    // KINDS lists sessions by `ssoSubjectKey`: a logout naming a person
    // finds that person's sessions after an unlink or a relink. Rows of
    // version 11 that hold it are indexed as they are.
    statements: [
      `CREATE INDEX sessions_sso_subject_key
        ON {schema}.sessions (sso_subject_key)
        WHERE sso_subject_key IS NOT NULL`,
    ],
  },
  {
    version: 13,
    name: "the session a single sign-on re-authentication was started by",
    // Null for every sign-in, and for a flow saved before it: such a
    // re-authentication then renews nothing (ten minutes at most).
    statements: [
      `ALTER TABLE {schema}.sso_flows ADD COLUMN session_id uuid`,
    ],
  },
];

/**
 * How a database at version 8 reaches version 9: the rules it kept as
 * PL/pgSQL functions and triggers go (they are TypeScript now), and the
 * tallies and the commit function arrive. Its tables stay as they are.
 */
const FROM_VERSION_8: readonly string[] = [
  `CREATE TABLE {schema}.tallies (
    key text PRIMARY KEY,
    count bigint NOT NULL
  )`,
  // Started from the accounts and sessions there are (a sign-in at the cap
  // lists an account's sessions only when its count says so); a count of
  // none is no row, as on a fresh store.
  `INSERT INTO {schema}.tallies (key, count)
    SELECT 'role:' || role, count(*) FROM {schema}.users
    WHERE NOT disabled GROUP BY role
    UNION ALL
    SELECT 'enabled', count(*) FROM {schema}.users
    WHERE NOT disabled HAVING count(*) > 0
    UNION ALL
    SELECT 'sessions:' || user_id, count(*) FROM {schema}.sessions
    GROUP BY user_id`,
  `DROP TRIGGER totp_counted ON {schema}.totp`,
  `DROP TRIGGER passkeys_counted ON {schema}.passkeys`,
  ...[
    "count_totp",
    "count_passkeys",
    "create_session",
    "create_session_v3",
    "create_session_v5",
    "change_password",
    "add_passkey",
    "remove_second_factors",
    "update_user",
    "count_privileged",
    "accept_invitation",
    "confirm_reset",
    "insert_events",
  ].map((name) => `DROP FUNCTION IF EXISTS {schema}.${name}`),
  `ALTER TABLE {schema}.sessions ADD COLUMN sso_provider text,
    ADD COLUMN sso_sid text`,
  // The language of an account's mail (DESIGN.md §14): none known yet.
  `ALTER TABLE {schema}.users ADD COLUMN locale text NOT NULL DEFAULT '',
    ADD COLUMN locale_chosen boolean NOT NULL DEFAULT false`,
  ...SINGLE_SIGN_ON,
  COMMIT_FUNCTION,
];

/** The first schema version this code knows: older ones were never released. */
const FIRST_VERSION: number = MIGRATIONS[0]!.version;

/** The newest schema version this code knows. */
export const LATEST_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]!
  .version;

/**
 * Brings `schema` up to {@linkcode LATEST_VERSION} in one transaction. `schema` must already be validated as a
 * plain lower-case identifier.
 */
export async function runMigrations(
  sql: postgres.Sql,
  schema: string,
): Promise<void> {
  const migrations = MIGRATIONS;
  const latest = LATEST_VERSION;
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
    if (newest > latest) {
      throw new Error(
        `Cannot use store: schema version ${newest} is newer than this Gatehouse (${latest})`,
      );
    }
    if (newest === 8 && FIRST_VERSION === 9) {
      for (const statement of FROM_VERSION_8) {
        await tx.unsafe(statement.replaceAll("{schema}", quoted));
      }
      await tx.unsafe(
        `INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`,
        [9, "from version 8: the rules leave SQL"],
      );
      applied.add(9);
    }
    // A schema part-way through the unreleased history: the first version
    // would collide with its tables, so say what it is instead.
    if (newest > 0 && newest < 8) {
      throw new Error(
        `Cannot use store: schema version ${newest} predates the first release of Gatehouse (${FIRST_VERSION}); create the schema afresh`,
      );
    }
    for (const migration of migrations) {
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
