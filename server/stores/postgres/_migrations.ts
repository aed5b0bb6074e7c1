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
// The first version is 8, not 1: before the first release the schema grew
// through versions 1 to 8, and that unreleased history was collapsed into
// this one version, which builds the same tables, columns, constraints,
// indexes, functions and triggers directly. A database built by that history
// records version 8 too, so it is up to date as it stands (it also keeps two
// functions nothing calls any more, create_session and create_session_v3).
// The function names keep their history (create_session_v5) for the same
// reason. tests/server/migration_test.ts compares the catalog this builds
// with tests/fixtures/postgres_schema.txt.

import type postgres from "postgres";

/**
 * One step of the schema: SQL statements, where `{schema}` stands for the
 * quoted schema name, run in order in the migration's transaction.
 */
export interface Migration {
  version: number;
  name: string;
  statements: readonly string[];
}

/** Every migration, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 8,
    name: "accounts, sessions, links, counters, audit trail, second factors",
    statements: [
      // email_key and name_key are the folded email and name (NFC, then
      // lower case), computed in JavaScript like on every store, never by
      // the database's locale. factor_version moves with every factor
      // removal: pending sign-ins bound to an older one are dead.
      // totp_enabled and passkey_count are the account's second factors,
      // kept by the triggers below, so the session check, which reads the
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
        passkey_count integer NOT NULL DEFAULT 0
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
        authenticated_at bigint NOT NULL
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
      // The functions below are how every change that must hold a rule is
      // one statement, not a client-side transaction (see _tables.ts); they
      // are VOLATILE, so each statement in them reads afresh, after the
      // locks taken before it were granted.
      //
      // Events arrive as one JSON array, written by the statement or
      // function of the change they record.
      `CREATE FUNCTION {schema}.insert_events(p_events jsonb) RETURNS void
      LANGUAGE sql VOLATILE AS $$
        INSERT INTO {schema}.audit_events (id, type, at, actor_id, actor_email,
          target_id, target_email, ip, user_agent, detail)
        SELECT e.id, e.type, e.at, e.actor_id, e.actor_email, e.target_id,
          e.target_email, e.ip, e.user_agent, e.detail
        FROM jsonb_to_recordset(coalesce(p_events, '[]'::jsonb)) AS e(
          id uuid, type text, at bigint, actor_id uuid, actor_email text,
          target_id uuid, target_email text, ip text, user_agent text,
          detail jsonb)
      $$`,
      // Recording a session, bound to the credential it was verified against
      // (the account's generation and, after a second factor, the factor
      // version it was verified under: a factor removed while the sign-in
      // was in flight yields no session) and within the account's cap
      // (server/stores/postgres/_sessions.ts).
      `CREATE FUNCTION {schema}.create_session_v5(p_token text, p_id uuid,
        p_user uuid, p_created bigint, p_expires bigint, p_expected integer,
        p_max integer, p_ip text, p_user_agent text, p_events jsonb,
        p_factor_version integer)
      RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        g integer;
        f integer;
      BEGIN
        SELECT generation, factor_version INTO g, f FROM {schema}.users
        WHERE id = p_user AND NOT disabled FOR NO KEY UPDATE;
        IF NOT FOUND OR (p_expected IS NOT NULL AND g <> p_expected)
          OR (p_factor_version IS NOT NULL AND f <> p_factor_version) THEN
          RETURN false;
        END IF;
        IF p_max IS NOT NULL THEN
          DELETE FROM {schema}.sessions WHERE token_hash = ANY(ARRAY(
            SELECT token_hash FROM {schema}.sessions
            WHERE user_id = p_user AND expires_at > p_created
              AND generation = g
            ORDER BY expires_at DESC, token_hash COLLATE "C" DESC
            OFFSET p_max - 1));
        END IF;
        INSERT INTO {schema}.sessions (token_hash, id, user_id, generation,
          created_at, expires_at, last_seen_at, authenticated_at, ip,
          user_agent)
        VALUES (p_token, p_id, p_user, g, p_created, p_expires, p_created,
          p_created, p_ip, p_user_agent);
        PERFORM {schema}.insert_events(p_events);
        RETURN true;
      END $$`,
      // A password change: the new hash and generation (every session and
      // reset link dies), the fresh session and the events, in one call,
      // only while the account is enabled and at the expected generation.
      `CREATE FUNCTION {schema}.change_password(p_user uuid,
        p_expected integer, p_hash text, p_token text, p_id uuid,
        p_created bigint, p_expires bigint, p_ip text, p_user_agent text,
        p_events jsonb)
      RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        g integer;
      BEGIN
        UPDATE {schema}.users SET password_hash = p_hash,
          generation = generation + 1
        WHERE id = p_user AND NOT disabled AND generation = p_expected
        RETURNING generation INTO g;
        IF NOT FOUND THEN
          RETURN false;
        END IF;
        DELETE FROM {schema}.sessions WHERE user_id = p_user;
        DELETE FROM {schema}.links WHERE kind = 'reset' AND user_id = p_user;
        INSERT INTO {schema}.sessions (token_hash, id, user_id, generation,
          created_at, expires_at, last_seen_at, authenticated_at, ip,
          user_agent)
        VALUES (p_token, p_id, p_user, g, p_created, p_expires, p_created,
          p_created, p_ip, p_user_agent);
        PERFORM {schema}.insert_events(p_events);
        RETURN true;
      END $$`,
      // Registering a passkey within the account's cap (see _passkeys.ts):
      // the account's row is locked first, so registrations of one account
      // run one after another, each counting the ones before it. Answers
      // 'added', 'full' or 'no_user'; a reused credential id raises 23505.
      `CREATE FUNCTION {schema}.add_passkey(p_id uuid, p_user uuid,
        p_credential text, p_key text, p_counter bigint, p_transports text[],
        p_name text, p_created bigint, p_max integer)
        RETURNS text LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM 1 FROM {schema}.users
        WHERE id = p_user AND NOT disabled FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RETURN 'no_user';
        END IF;
        IF (SELECT count(*) FROM {schema}.passkeys WHERE user_id = p_user)
          >= p_max THEN
          RETURN 'full';
        END IF;
        INSERT INTO {schema}.passkeys (id, user_id, credential_id,
          public_key, counter, transports, name, created_at)
        VALUES (p_id, p_user, p_credential, p_key, p_counter, p_transports,
          p_name, p_created);
        RETURN 'added';
      END $$`,
      // An administrator's removal of every second factor, under the reach
      // rule, with the account's row locked first so a registration in
      // flight is waited for and then removed too. Answers the account's
      // role (NULL without the account); removes only within reach.
      `CREATE FUNCTION {schema}.remove_second_factors(p_user uuid,
        p_reach text[]) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        r text;
      BEGIN
        SELECT role INTO r FROM {schema}.users
        WHERE id = p_user FOR NO KEY UPDATE;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        IF p_reach IS NOT NULL AND r <> '' AND NOT (r = ANY(p_reach)) THEN
          RETURN r;
        END IF;
        DELETE FROM {schema}.totp WHERE user_id = p_user;
        DELETE FROM {schema}.totp_enrolments WHERE user_id = p_user;
        DELETE FROM {schema}.passkeys WHERE user_id = p_user;
        UPDATE {schema}.users SET factor_version = factor_version + 1
        WHERE id = p_user;
        RETURN r;
      END $$`,
      // The triggers that keep users.totp_enabled and users.passkey_count
      // exact whatever statement changes a factor. Every statement that
      // changes a factor locks the account's row first (as add_passkey and
      // remove_second_factors do), so the triggers' update of that row never
      // waits on a lock taken in the other order.
      `CREATE FUNCTION {schema}.count_totp() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE {schema}.users SET totp_enabled = true WHERE id = NEW.user_id;
        ELSE
          UPDATE {schema}.users SET totp_enabled = false
          WHERE id = OLD.user_id;
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER totp_counted AFTER INSERT OR DELETE ON {schema}.totp
        FOR EACH ROW EXECUTE FUNCTION {schema}.count_totp()`,
      `CREATE FUNCTION {schema}.count_passkeys() RETURNS trigger
        LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          UPDATE {schema}.users SET passkey_count = passkey_count + 1
          WHERE id = NEW.user_id;
        ELSE
          UPDATE {schema}.users SET passkey_count = passkey_count - 1
          WHERE id = OLD.user_id;
        END IF;
        RETURN NULL;
      END $$`,
      `CREATE TRIGGER passkeys_counted AFTER INSERT OR DELETE
        ON {schema}.passkeys
        FOR EACH ROW EXECUTE FUNCTION {schema}.count_passkeys()`,
      // The enabled accounts whose role is in p_keep (an empty list counts
      // every enabled account): the count the last-privileged rule asks for.
      // NULL without a list, without reading the table (STRICT).
      `CREATE FUNCTION {schema}.count_privileged(p_keep text[])
      RETURNS bigint LANGUAGE sql STABLE STRICT AS $$
        SELECT count(*) FROM {schema}.users
        WHERE NOT disabled AND (cardinality(p_keep) = 0 OR role = ANY(p_keep))
      $$`,
      // An account change decided in JavaScript (userUpdateDecision, on what
      // the caller read: the account's role and disabled state and, with
      // p_keep, count_privileged) and applied only if all of it still reads
      // the same; false otherwise, and the caller reads and decides again
      // (server/stores/postgres/_user_update.ts). Under the advisory lock of
      // account changes, taken before the row lock, changes to accounts
      // count one after another.
      `CREATE FUNCTION {schema}.update_user(p_user uuid, p_lock text,
        p_role_before text, p_disabled_before boolean, p_keep text[],
        p_privileged_before bigint, p_role text, p_disabled boolean,
        p_revoke boolean, p_events jsonb)
      RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        r text;
        d boolean;
      BEGIN
        PERFORM pg_advisory_xact_lock(hashtext(p_lock));
        SELECT role, disabled INTO r, d FROM {schema}.users
        WHERE id = p_user FOR UPDATE;
        IF NOT FOUND OR r <> p_role_before OR d <> p_disabled_before THEN
          RETURN false;
        END IF;
        IF {schema}.count_privileged(p_keep)
          IS DISTINCT FROM p_privileged_before THEN
          RETURN false;
        END IF;
        IF r <> p_role OR d <> p_disabled OR p_revoke THEN
          UPDATE {schema}.users SET role = p_role, disabled = p_disabled,
            generation = generation + CASE WHEN p_revoke THEN 1 ELSE 0 END
          WHERE id = p_user;
        END IF;
        IF p_revoke THEN
          DELETE FROM {schema}.sessions WHERE user_id = p_user;
        END IF;
        PERFORM {schema}.insert_events(p_events);
        RETURN true;
      END $$`,
      // Spending an invitation: the link, then its authority (the inviter's
      // row FOR SHARE, so a disable or demotion in flight is waited for and
      // then seen; without inviter, the accounts table locked against
      // writers and found empty), then the account, its first session and
      // the events. A link spent without authority, or for an address that
      // has an account (or got one since: how decoy invitations die), stays
      // spent. The name's folded key comes from the caller (folding is
      // JavaScript's, never the database's locale), for the name it read: a
      // link is never updated, and the condition on the name makes the key
      // provably the fold of the name stored. Answers the new account, or
      // NULL.
      `CREATE FUNCTION {schema}.accept_invitation(p_token text, p_now bigint,
        p_name text, p_name_key text, p_granters text[], p_user uuid,
        p_hash text, p_session text, p_session_id uuid, p_expires bigint,
        p_ip text, p_user_agent text, p_events jsonb)
      RETURNS {schema}.users LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        l {schema}.links%ROWTYPE;
        inviter_role text;
        inviter_disabled boolean;
        u {schema}.users%ROWTYPE;
      BEGIN
        DELETE FROM {schema}.links
        WHERE token_hash = p_token AND kind = 'invitation'
          AND expires_at > p_now AND name = p_name
        RETURNING * INTO l;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        IF l.invited_by IS NULL THEN
          LOCK TABLE {schema}.users IN SHARE ROW EXCLUSIVE MODE;
          IF EXISTS (SELECT 1 FROM {schema}.users) THEN
            RETURN NULL;
          END IF;
        ELSE
          SELECT role, disabled INTO inviter_role, inviter_disabled
          FROM {schema}.users WHERE id = l.invited_by FOR SHARE;
          IF NOT FOUND OR inviter_disabled OR (p_granters IS NOT NULL
            AND NOT (inviter_role = ANY(p_granters))) THEN
            RETURN NULL;
          END IF;
        END IF;
        INSERT INTO {schema}.users (id, email, email_key, name, name_key,
          role, password_hash, created_at)
        VALUES (p_user, l.email, l.email_key, l.name, p_name_key, l.role,
          p_hash, p_now)
        ON CONFLICT (email_key) DO NOTHING
        RETURNING * INTO u;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        INSERT INTO {schema}.sessions (token_hash, id, user_id, generation,
          created_at, expires_at, last_seen_at, authenticated_at, ip,
          user_agent)
        VALUES (p_session, p_session_id, p_user, 0, p_now, p_expires, p_now,
          p_now, p_ip, p_user_agent);
        PERFORM {schema}.insert_events(p_events);
        RETURN u;
      END $$`,
      // Spending a reset link: the account's row is locked first (as
      // change_password does before it deletes reset links, so the two
      // cannot deadlock), then the link is spent, and the password is set
      // and the generation moved only while the account is enabled and at
      // the generation the link was issued for; every session goes with the
      // events. A link whose account is gone, disabled or moved on stays
      // spent. Answers the account, or NULL.
      `CREATE FUNCTION {schema}.confirm_reset(p_token text, p_now bigint,
        p_hash text, p_events jsonb)
      RETURNS {schema}.users LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        account uuid;
        issued integer;
        u {schema}.users%ROWTYPE;
      BEGIN
        PERFORM 1 FROM {schema}.users WHERE id = (
          SELECT user_id FROM {schema}.links
          WHERE token_hash = p_token AND kind = 'reset'
            AND expires_at > p_now)
        FOR NO KEY UPDATE;
        DELETE FROM {schema}.links
        WHERE token_hash = p_token AND kind = 'reset' AND expires_at > p_now
        RETURNING user_id, generation INTO account, issued;
        IF NOT FOUND OR account IS NULL THEN
          RETURN NULL;
        END IF;
        UPDATE {schema}.users SET password_hash = p_hash,
          generation = generation + 1
        WHERE id = account AND NOT disabled AND generation = issued
        RETURNING * INTO u;
        IF NOT FOUND THEN
          RETURN NULL;
        END IF;
        DELETE FROM {schema}.sessions WHERE user_id = account;
        PERFORM {schema}.insert_events(p_events);
        RETURN u;
      END $$`,
    ],
  },
];

/** The first schema version this code knows: older ones were never released. */
const FIRST_VERSION: number = MIGRATIONS[0]!.version;

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
    // A schema part-way through the unreleased history: the first version
    // would collide with its tables, so say what it is instead.
    if (newest > 0 && newest < FIRST_VERSION) {
      throw new Error(
        `Cannot use store: schema version ${newest} predates the first release of Gatehouse (${FIRST_VERSION}); create the schema afresh`,
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
