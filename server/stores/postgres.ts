/**
 * The shared store: PostgreSQL through postgres.js (npm:postgres). Several
 * app instances on one database share accounts, sessions, links and limiter
 * counts. Pass the `sql` client you created; the store never opens or ends
 * connections, and importing it connects to nothing.
 *
 * @example Creating the store
 * ```ts
 * import postgres from "postgres";
 * import { PostgresStore } from "@gatehouse/server/postgres";
 *
 * // postgres.js connects lazily: nothing happens until the first query.
 * const sql = postgres("postgres://app@127.0.0.1:5432/app");
 * const store = new PostgresStore(sql, { schema: "gatehouse" });
 * // At startup: `await store.migrate();`
 * await sql.end();
 * ```
 *
 * @module
 */

import type postgres from "postgres";
import { isUuid } from "../_crypto.ts";
import { AuthError } from "../errors.ts";
import type {
  Counter,
  InvitationAcceptance,
  LinkKind,
  LinkRecord,
  NewSession,
  NewUser,
  ResetConfirmation,
  SessionLookup,
  Store,
  UserCredentials,
  UserPage,
  UserQuery,
  UserRecord,
  UserUpdate,
} from "../store.ts";
import { runMigrations } from "./_pg_migrations.ts";
import { listUsersPage } from "./_pg_user_listing.ts";
import { countsAsPrivileged, userUpdateDecision } from "./_user_rules.ts";

/** Options of {@linkcode PostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * The schema holding Gatehouse's tables, created by `migrate()`:
   * lower-case letters, digits and `_`. `gatehouse` by default.
   */
  schema?: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// Serialization failures and deadlocks are safe to retry: nothing committed.
const RETRYABLE = new Set(["40001", "40P01"]);
const MAX_ATTEMPTS = 5;

type Sql = postgres.Sql;
type Tx = postgres.TransactionSql;
type Row = postgres.Row;

/**
 * The PostgreSQL implementation of `Store`.
 *
 * Every multi-record decision is one transaction: disabling an account bumps
 * its session generation and deletes its sessions together; a single-use
 * link is deleted and applied together; the session check is one prepared
 * query joining the session to its account.
 *
 * @example Two app instances sharing one database
 * ```ts
 * import postgres from "postgres";
 * import { createAuth } from "@gatehouse/server";
 * import { PostgresStore } from "@gatehouse/server/postgres";
 *
 * const url = "postgres://app@127.0.0.1:5432/app";
 * const a = postgres(url);
 * const b = postgres(url);
 * const authA = createAuth({ store: new PostgresStore(a) });
 * const authB = createAuth({ store: new PostgresStore(b) });
 * // A cookie issued by authA is accepted by authB, and a logout on either
 * // ends it on both.
 * await Promise.all([a.end(), b.end()]);
 * ```
 */
export class PostgresStore implements Store {
  readonly #sql: Sql;
  readonly #schema: string;
  readonly #users: postgres.Helper<string, []>;
  readonly #sessions: postgres.Helper<string, []>;
  readonly #links: postgres.Helper<string, []>;
  readonly #counters: postgres.Helper<string, []>;
  readonly #rulesLock: string;

  /**
   * Wraps a postgres.js client.
   *
   * @param sql The client; the caller creates and ends it. It must not use
   *   postgres.js `transform` options: the store reads columns by name.
   * @param options The schema.
   */
  constructor(sql: Sql, options: PostgresStoreOptions = {}) {
    const schema = options.schema ?? "gatehouse";
    if (!SCHEMA_NAME.test(schema)) {
      throw new TypeError(
        `Invalid schema name: "${schema}" (use lower-case letters, digits and "_")`,
      );
    }
    const transform = sql.options?.transform;
    if (
      transform?.column.from || transform?.column.to || transform?.value.from ||
      transform?.row.from
    ) {
      throw new TypeError(
        "Invalid sql client: PostgresStore needs one without transform options",
      );
    }
    this.#sql = sql;
    this.#schema = schema;
    this.#users = sql(`${schema}.users`);
    this.#sessions = sql(`${schema}.sessions`);
    this.#links = sql(`${schema}.links`);
    this.#counters = sql(`${schema}.counters`);
    this.#rulesLock = `gatehouse.account_rules:${schema}`;
  }

  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  async migrate(): Promise<void> {
    await runMigrations(this.#sql, this.#schema);
  }

  /** Creates an account; `email_taken` when the address is in use. */
  async createUser(user: NewUser): Promise<UserRecord> {
    try {
      await this.#sql`
        INSERT INTO ${this.#users}
          (id, email, name, role, password_hash, created_at)
        VALUES (${user.id}, ${user.email}, ${user.name}, ${user.role},
          ${user.passwordHash}, ${user.createdAt})`;
    } catch (err) {
      if (isEmailTaken(err)) {
        throw new AuthError("email_taken", { meta: { field: "email" } });
      }
      throw err;
    }
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      disabled: false,
      createdAt: user.createdAt,
    };
  }

  /** The account with this id, or null. */
  async userById(id: string): Promise<UserRecord | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.#sql`
      SELECT id, email, name, role, disabled, created_at
      FROM ${this.#users} WHERE id = ${id}`;
    return row === undefined ? null : toUser(row);
  }

  /** The account and password hash for an email (any case), or null. */
  async credentialsByEmail(email: string): Promise<UserCredentials | null> {
    const [row] = await this.#sql`
      SELECT id, email, name, role, disabled, created_at, password_hash
      FROM ${this.#users} WHERE lower(email) = lower(${email.trim()})`;
    return row === undefined
      ? null
      : { user: toUser(row), passwordHash: row.password_hash };
  }

  /** A page of accounts in the query's order, optionally filtered, with the total. */
  async listUsers(query: UserQuery): Promise<UserPage> {
    const after = query.cursor ?? null;
    if (after !== null && !isUuid(after)) {
      throw new TypeError(`Invalid cursor: "${after.slice(0, 64)}"`);
    }
    return await listUsersPage(this.#sql, this.#users, query, toUser);
  }

  /** Whether any account exists. */
  async hasUsers(): Promise<boolean> {
    const [row] = await this.#sql`
      SELECT EXISTS (SELECT 1 FROM ${this.#users}) AS found`;
    return row?.found === true;
  }

  /**
   * Applies `update` atomically under its rules.
   *
   * Race-freedom of the last-privileged rule: every account change first
   * takes a transaction-level advisory lock of this schema, so changes to
   * accounts run one after another, and each counts the privileged accounts
   * after the previous one committed (READ COMMITTED takes a fresh snapshot
   * per statement). Locking the privileged rows `FOR UPDATE` instead would
   * also work, but two demotions would lock their own row and then each
   * other's and deadlock; account changes are rare admin actions, so one
   * queue costs nothing. The account's own row is locked `FOR UPDATE` too,
   * since resets and sign-ins touch it without the advisory lock.
   */
  async updateUser(id: string, update: UserUpdate): Promise<UserRecord> {
    if (!isUuid(id)) throw new AuthError("user_not_found");
    return await this.#transaction(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(hashtext(${this.#rulesLock}))`;
      const [row] = await tx`
        SELECT id, email, name, role, disabled, created_at, generation
        FROM ${this.#users} WHERE id = ${id} FOR UPDATE`;
      if (row === undefined) throw new AuthError("user_not_found");
      const current = toUser(row);
      const subject = { ...current, generation: row.generation as number };
      const keep = update.keepPrivileged;
      // The rules ask for the count only when the account is privileged now.
      const enabled = keep !== undefined && countsAsPrivileged(current, keep)
        ? await countPrivileged(tx, this.#users, keep)
        : 0;
      const { changes } = userUpdateDecision(subject, update, () => enabled);
      const next = { ...subject, ...changes };
      if (
        next.role === current.role && next.disabled === current.disabled &&
        next.generation === subject.generation
      ) {
        return current;
      }
      await tx`
        UPDATE ${this.#users}
        SET role = ${next.role}, disabled = ${next.disabled},
          generation = ${next.generation}
        WHERE id = ${id}`;
      if (next.generation !== subject.generation) {
        await tx`DELETE FROM ${this.#sessions} WHERE user_id = ${id}`;
      }
      return { ...current, role: next.role, disabled: next.disabled };
    });
  }

  /** Replaces a password hash if it is still `previousHash`. */
  async replacePasswordHash(
    id: string,
    previousHash: string,
    nextHash: string,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.#sql`
      UPDATE ${this.#users} SET password_hash = ${nextHash}
      WHERE id = ${id} AND password_hash = ${previousHash}`;
    return result.count === 1;
  }

  /** Records a session if the account exists and is enabled. */
  async createSession(session: NewSession): Promise<boolean> {
    if (!isUuid(session.userId)) return false;
    // FOR SHARE waits for a disable in flight, then sees it: a session is
    // never recorded for an account that was disabled meanwhile.
    const result = await this.#sql`
      INSERT INTO ${this.#sessions}
        (token_hash, user_id, generation, created_at, expires_at)
      SELECT ${session.tokenHash}, id, generation, ${session.createdAt},
        ${session.expiresAt}
      FROM ${this.#users}
      WHERE id = ${session.userId} AND NOT disabled
      FOR SHARE`;
    return result.count === 1;
  }

  /**
   * The live session behind `tokenHash` and its enabled account, or null:
   * one prepared query, the hot path.
   */
  async findSession(
    tokenHash: string,
    now: number,
  ): Promise<SessionLookup | null> {
    const [row] = await this.#sql`
      SELECT u.id, u.email, u.name, u.role, u.disabled, u.created_at,
        s.expires_at
      FROM ${this.#sessions} s JOIN ${this.#users} u ON u.id = s.user_id
      WHERE s.token_hash = ${tokenHash} AND s.expires_at > ${now}
        AND NOT u.disabled AND u.generation = s.generation`;
    return row === undefined
      ? null
      : { user: toUser(row), expiresAt: Number(row.expires_at) };
  }

  /** Deletes one session. */
  async deleteSession(tokenHash: string): Promise<void> {
    await this.#sql`
      DELETE FROM ${this.#sessions} WHERE token_hash = ${tokenHash}`;
  }

  /** Deletes up to `limit` sessions expired by `now`. */
  async deleteExpiredSessions(now: number, limit: number): Promise<number> {
    // `= ANY(ARRAY(…))` makes the batch an InitPlan and the delete a
    // primary-key lookup; `IN (…)` was planned as a hash semi-join over a
    // sequential scan of the whole table, once per batch (bench: reaper).
    const result = await this.#sql`
      DELETE FROM ${this.#sessions} WHERE token_hash = ANY(ARRAY(
        SELECT token_hash FROM ${this.#sessions} WHERE expires_at <= ${now}
        LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
    return result.count;
  }

  /** Stores a single-use link. */
  async createLink(link: LinkRecord): Promise<void> {
    await this.#sql`
      INSERT INTO ${this.#links}
        (token_hash, kind, email, name, role, user_id, created_at, expires_at)
      VALUES (${link.tokenHash}, ${link.kind}, ${link.email}, ${link.name},
        ${link.role}, ${link.userId === "" ? null : link.userId},
        ${link.createdAt}, ${link.expiresAt})`;
  }

  /** Spends an invitation and creates its account in one transaction. */
  async acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null> {
    return await this.#transaction(async (tx) => {
      const link = await spendLink(
        tx,
        this.#links,
        tokenHash,
        "invitation",
        acceptance.now,
      );
      if (link === null) return null;
      // An address that has an account (or got one since) creates nothing;
      // the link stays spent. This is also how decoy invitations die.
      const created = await tx`
        INSERT INTO ${this.#users}
          (id, email, name, role, password_hash, created_at)
        VALUES (${acceptance.userId}, ${link.email}, ${link.name}, ${link.role},
          ${acceptance.passwordHash}, ${acceptance.now})
        ON CONFLICT ((lower(email))) DO NOTHING`;
      if (created.count === 0) return null;
      return {
        id: acceptance.userId,
        email: link.email,
        name: link.name,
        role: link.role,
        disabled: false,
        createdAt: acceptance.now,
      };
    });
  }

  /** Spends a reset link, sets the password and revokes every session. */
  async confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null> {
    return await this.#transaction(async (tx) => {
      const link = await spendLink(
        tx,
        this.#links,
        tokenHash,
        "reset",
        confirmation.now,
      );
      if (link === null || link.user_id === null) return null;
      const [row] = await tx`
        UPDATE ${this.#users}
        SET password_hash = ${confirmation.passwordHash},
          generation = generation + 1
        WHERE id = ${link.user_id}
        RETURNING id, email, name, role, disabled, created_at`;
      if (row === undefined) return null;
      await tx`DELETE FROM ${this.#sessions} WHERE user_id = ${row.id}`;
      return toUser(row);
    });
  }

  /** Deletes up to `limit` links expired by `now`. */
  async deleteExpiredLinks(now: number, limit: number): Promise<number> {
    const result = await this.#sql`
      DELETE FROM ${this.#links} WHERE token_hash = ANY(ARRAY(
        SELECT token_hash FROM ${this.#links} WHERE expires_at <= ${now}
        LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
    return result.count;
  }

  /** Adds one to a fixed-window counter, atomically (one upsert). */
  async hitCounter(
    key: string,
    now: number,
    windowMs: number,
  ): Promise<Counter> {
    const [row] = await this.#sql`
      INSERT INTO ${this.#counters} AS c (key, count, reset_at)
      VALUES (${key}, 1, ${now + windowMs})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN c.reset_at > ${now} THEN c.count + 1 ELSE 1 END,
        reset_at = CASE WHEN c.reset_at > ${now} THEN c.reset_at
          ELSE excluded.reset_at END
      RETURNING count, reset_at`;
    return toCounter(row!);
  }

  /** The counter if its window is open at `now`. */
  async readCounter(key: string, now: number): Promise<Counter | null> {
    const [row] = await this.#sql`
      SELECT count, reset_at FROM ${this.#counters}
      WHERE key = ${key} AND reset_at > ${now}`;
    return row === undefined ? null : toCounter(row);
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  async deleteExpiredCounters(now: number, limit: number): Promise<number> {
    const result = await this.#sql`
      DELETE FROM ${this.#counters} WHERE key = ANY(ARRAY(
        SELECT key FROM ${this.#counters} WHERE reset_at <= ${now}
        LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
    return result.count;
  }

  // One transaction, retried when Postgres aborted it for a serialization
  // failure or a deadlock (nothing was committed then).
  async #transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    for (let attempt = 1;; attempt++) {
      try {
        return await this.#sql.begin(work) as T;
      } catch (err) {
        if (attempt >= MAX_ATTEMPTS || !RETRYABLE.has(codeOf(err))) throw err;
      }
    }
  }
}

interface LinkRow {
  email: string;
  name: string;
  role: string;
  user_id: string | null;
}

// Deletes a live link of `kind` and returns it, or null. The DELETE locks
// the row, so of two concurrent spenders one gets it and the other nothing.
// A link of another kind or an expired one is left as it is.
async function spendLink(
  tx: Tx,
  links: postgres.Helper<string, []>,
  tokenHash: string,
  kind: LinkKind,
  now: number,
): Promise<LinkRow | null> {
  const [row] = await tx<LinkRow[]>`
    DELETE FROM ${links}
    WHERE token_hash = ${tokenHash} AND kind = ${kind} AND expires_at > ${now}
    RETURNING email, name, role, user_id`;
  return row ?? null;
}

async function countPrivileged(
  tx: Tx,
  users: postgres.Helper<string, []>,
  privileged: readonly string[],
): Promise<number> {
  // An empty list counts every enabled account (see UserUpdate).
  const [row] = privileged.length === 0
    ? await tx`SELECT count(*) AS n FROM ${users} WHERE NOT disabled`
    : await tx`
      SELECT count(*) AS n FROM ${users}
      WHERE NOT disabled AND role = ANY(${[...privileged]}::text[])`;
  return Number(row!.n);
}

// bigint columns arrive as strings by default (or as BigInt with custom
// types); Number() reads either, and millisecond times fit a double exactly.
function toUser(row: Row): UserRecord {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    createdAt: Number(row.created_at),
  };
}

function toCounter(row: Row): Counter {
  return { count: Number(row.count), resetAt: Number(row.reset_at) };
}

function codeOf(err: unknown): string {
  return typeof err === "object" && err !== null && "code" in err
    ? String(err.code)
    : "";
}

function isEmailTaken(err: unknown): boolean {
  return codeOf(err) === "23505" &&
    (err as { constraint_name?: string }).constraint_name === "users_email_key";
}
