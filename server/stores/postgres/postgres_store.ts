// The PostgresStore class: the Store interface on PostgreSQL through
// postgres.js, each concern in its private module beside it (tables,
// account changes, sessions, links, counters, user listing, migrations). The
// public entry is mod.ts.

import type postgres from "postgres";
import { isUuid } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import { fold } from "../../core/_fold.ts";
import type {
  AttemptWindow,
  AuditEvent,
  AuditPage,
  AuditQuery,
  AuthenticationRenewal,
  Counter,
  InvitationAcceptance,
  InvitationRevocation,
  LinkKind,
  LinkRecord,
  NewSession,
  NewUser,
  PasswordChange,
  Reservation,
  ResetConfirmation,
  SessionLookup,
  SessionRecord,
  SessionsRevocation,
  Store,
  UserCredentials,
  UserPage,
  UserQuery,
  UserRecord,
  UserUpdate,
  WithEvents,
} from "../../core/store.ts";
import type {
  AccountFactors,
  ChallengeRecord,
  ChallengeUse,
  NewPasskey,
  NewPendingSignIn,
  PasskeyRecord,
  PasskeyUse,
  PendingFailure,
  PendingSignIn,
  SecondFactorRemoval,
  TotpConfirmation,
  TotpEnrolment,
  TotpRecord,
} from "../../core/store_factors.ts";
import * as challenges from "./_challenges.ts";
import * as counters from "./_counters.ts";
import {
  factorColumns,
  type FactorTables,
  factorTables,
  toFactors,
} from "./_factor_tables.ts";
import * as passkeys from "./_passkeys.ts";
import * as totp from "./_totp.ts";
import * as links from "./_links.ts";
import { runMigrations } from "./_migrations.ts";
import * as audit from "./_audit.ts";
import * as sessions from "./_sessions.ts";
import { listUsersPage } from "./_user_listing.ts";
import {
  codeOf,
  deleteExpired,
  type PgTables,
  pgTables,
  toUser,
} from "./_tables.ts";
import { updateUser } from "./_user_update.ts";
import { DEFAULT_SESSION_READS_IN_FLIGHT } from "../_coalesce.ts";

/** Options of {@linkcode PostgresStore}. */
export interface PostgresStoreOptions {
  /**
   * The schema holding Gatehouse's tables, created by `migrate()`:
   * lower-case letters, digits and `_`. `gatehouse` by default.
   */
  schema?: string;
  /**
   * Session reads in flight at most (2 by default). A session check that
   * finds them all busy waits for the next one, which reads every check
   * then waiting (up to 100) in one query: under load, one round trip
   * serves many requests; alone, a check is read at once. Nothing is
   * cached, so an ended session is refused on the very next request.
   */
  sessionReadsInFlight?: number;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
// The row an unknown address reads, shaped like an account's.
const DECOY = {
  id: "00000000-0000-0000-0000-000000000000",
  email: "decoy.account@example.invalid",
  name: "Decoy Account",
  passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$" + "A".repeat(22) + "$" +
    "A".repeat(43),
};

/**
 * The PostgreSQL implementation of `Store`.
 *
 * Every multi-record change commits in one statement or one function call,
 * never in a client-side transaction: disabling an account bumps its
 * session generation and deletes its sessions together; a single-use link
 * is deleted and applied together; the session check is one prepared query
 * joining the session to its account.
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
  readonly #sql: postgres.Sql;
  readonly #schema: string;
  readonly #t: PgTables;
  readonly #f: FactorTables;

  /**
   * Wraps a postgres.js client.
   *
   * @param sql The client; the caller creates and ends it. It must not use
   *   postgres.js `transform` options: the store reads columns by name.
   * @param options The schema.
   */
  constructor(sql: postgres.Sql, options: PostgresStoreOptions = {}) {
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
    this.#t = pgTables(
      sql,
      schema,
      options.sessionReadsInFlight ?? DEFAULT_SESSION_READS_IN_FLIGHT,
    );
    this.#f = factorTables(sql, schema);
  }

  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  async migrate(): Promise<void> {
    await runMigrations(this.#sql, this.#schema);
  }

  /** Creates an account; `email_taken` when the address is in use. */
  async createUser(user: NewUser): Promise<UserRecord> {
    try {
      await this.#sql`
        WITH u AS (
          INSERT INTO ${this.#t.users}
            (id, email, email_key, name, name_key, role, password_hash,
              created_at)
          VALUES (${user.id}, ${user.email}, ${user.emailKey}, ${user.name},
            ${fold(user.name)}, ${user.role}, ${user.passwordHash},
            ${user.createdAt})
          RETURNING 1
        )
        SELECT (SELECT count(*) FROM u),
          ${this.#t.insertEvents}(${
        audit.eventsJson(user.events)
      }::text::jsonb)`;
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
      FROM ${this.#t.users} WHERE id = ${id}`;
    return row === undefined ? null : toUser(row);
  }

  /**
   * The account behind a folded email, or null. One query that answers one
   * row either way (the account, or a decoy of the same shape), so the time
   * taken does not tell whether the address has an account.
   */
  async credentialsByEmail(emailKey: string): Promise<UserCredentials | null> {
    const [row] = await this.#sql`
      SELECT * FROM (
        SELECT u.id, u.email, u.name, u.role, u.disabled, u.created_at,
          u.password_hash, u.generation, ${factorColumns(this.#f)},
          true AS found
        FROM ${this.#t.users} u WHERE u.email_key = ${emailKey}
        UNION ALL
        SELECT ${DECOY.id}::uuid, ${DECOY.email}, ${DECOY.name}, '', true,
          0::bigint, ${DECOY.passwordHash}, 0, false, 0::bigint, 0, false
      ) AS found ORDER BY found DESC LIMIT 1`;
    return row?.found !== true ? null : {
      user: toUser(row),
      passwordHash: row.password_hash,
      generation: row.generation,
      factors: toFactors(row),
    };
  }

  /** A page of accounts in the query's order, optionally filtered, with the total. */
  async listUsers(query: UserQuery): Promise<UserPage> {
    const after = query.cursor ?? null;
    if (after !== null && !isUuid(after)) {
      throw new TypeError(`Invalid cursor: "${after.slice(0, 64)}"`);
    }
    return await listUsersPage(this.#sql, this.#t.users, query, toUser);
  }

  /** Whether any account exists. */
  async hasUsers(): Promise<boolean> {
    const [row] = await this.#sql`
      SELECT EXISTS (SELECT 1 FROM ${this.#t.users}) AS found`;
    return row?.found === true;
  }

  /**
   * Applies `update` atomically under its rules: a read, the rules' decision
   * and one call of `update_user`, which applies it only if the account
   * still reads the same (see _user_update.ts).
   */
  async updateUser(id: string, update: UserUpdate): Promise<UserRecord> {
    return await updateUser(this.#t, id, update);
  }

  /** Replaces a password hash if it is still `previousHash`. */
  async replacePasswordHash(
    id: string,
    previousHash: string,
    nextHash: string,
  ): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.#sql`
      UPDATE ${this.#t.users} SET password_hash = ${nextHash}
      WHERE id = ${id} AND password_hash = ${previousHash}`;
    return result.count === 1;
  }

  /**
   * Records a session if the account is enabled and has the expected
   * generation; ends the oldest beyond `maxSessions`.
   */
  async createSession(session: NewSession): Promise<boolean> {
    return await sessions.createSession(this.#t, session);
  }

  /**
   * The live session behind `tokenHash` and its enabled account, or null:
   * one prepared query, the hot path.
   */
  findSession(
    tokenHash: string,
    now: number,
    userId?: string,
  ): Promise<SessionLookup | null> {
    return sessions.findSession(this.#t, tokenHash, now, userId);
  }

  /** Records a use of the session at `at`. */
  async touchSession(tokenHash: string, at: number): Promise<void> {
    await sessions.touchSession(this.#t, tokenHash, at);
  }

  /** The account's live sessions, newest first. */
  async listSessions(userId: string, now: number): Promise<SessionRecord[]> {
    return await sessions.listSessions(this.#t, userId, now);
  }

  /** Deletes one session; whether one was deleted. */
  async deleteSession(
    tokenHash: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return await sessions.deleteSession(this.#t, tokenHash, options);
  }

  /** Deletes one of the account's sessions by its public id. */
  async deleteSessionById(
    userId: string,
    sessionId: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return await sessions.deleteSessionById(
      this.#t,
      userId,
      sessionId,
      options,
    );
  }

  /** Deletes every session of the account but one. */
  async deleteOtherSessions(
    userId: string,
    keepTokenHash: string,
    options?: WithEvents,
  ): Promise<number> {
    return await sessions.deleteOtherSessions(
      this.#t,
      userId,
      keepTokenHash,
      options,
    );
  }

  /** Ends every session of an account in one statement (its generation moves). */
  async revokeUserSessions(
    userId: string,
    revocation: SessionsRevocation,
  ): Promise<UserRecord> {
    return await sessions.revokeUserSessions(this.#t, userId, revocation);
  }

  /** Renews the session's proof of identity if it is live. */
  async renewAuthentication(
    tokenHash: string,
    renewal: AuthenticationRenewal,
  ): Promise<boolean> {
    return await sessions.renewAuthentication(
      this.#t,
      tokenHash,
      renewal.now,
      renewal,
    );
  }

  /** Changes the password and records the fresh session in one call. */
  async changePassword(change: PasswordChange): Promise<boolean> {
    return await sessions.changePassword(this.#t, change);
  }

  /** Deletes up to `limit` sessions expired by `now`. */
  async deleteExpiredSessions(now: number, limit: number): Promise<number> {
    const columns = { key: "token_hash", expiry: "expires_at" };
    return await deleteExpired(this.#t, this.#t.sessions, columns, now, limit);
  }

  /** Stores a single-use link. */
  async createLink(link: LinkRecord, options?: WithEvents): Promise<void> {
    await links.createLink(this.#t, link, options);
  }

  /** The live link of `kind` behind `tokenHash`, without spending it. */
  async findLink(
    tokenHash: string,
    kind: LinkKind,
    now: number,
  ): Promise<LinkRecord | null> {
    return await links.findLink(this.#t, tokenHash, kind, now);
  }

  /** Spends an invitation; creates its account and session in one call. */
  async acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null> {
    return await links.acceptInvitation(this.#t, tokenHash, acceptance);
  }

  /** The pending invitations, newest first. */
  async listInvitations(now: number): Promise<LinkRecord[]> {
    return await links.listInvitations(this.#t, now);
  }

  /** Deletes a pending invitation under the reach rule. */
  async revokeInvitation(
    id: string,
    revocation: InvitationRevocation,
  ): Promise<LinkRecord> {
    return await links.revokeInvitation(this.#t, id, revocation);
  }

  /** Spends a reset link, sets the password and revokes every session. */
  async confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null> {
    return await links.confirmReset(this.#t, tokenHash, confirmation);
  }

  /** Deletes up to `limit` links expired by `now`. */
  async deleteExpiredLinks(now: number, limit: number): Promise<number> {
    const columns = { key: "token_hash", expiry: "expires_at" };
    return await deleteExpired(this.#t, this.#t.links, columns, now, limit);
  }

  /** Reserves one attempt on a fixed-window counter (one upsert). */
  async reserveAttempt(
    key: string,
    window: AttemptWindow,
  ): Promise<Reservation> {
    return await counters.reserveAttempt(this.#t, key, window);
  }

  /** Gives one attempt back to the window ending at `resetAt`. */
  async releaseAttempt(key: string, resetAt: number): Promise<void> {
    await counters.releaseAttempt(this.#t, key, resetAt);
  }

  /** The counter if its window is open at `now`. */
  async readCounter(key: string, now: number): Promise<Counter | null> {
    return await counters.readCounter(this.#t, key, now);
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  async deleteExpiredCounters(now: number, limit: number): Promise<number> {
    const columns = { key: "key", expiry: "reset_at" };
    return await deleteExpired(this.#t, this.#t.counters, columns, now, limit);
  }

  /** Writes events that record no change. */
  async recordEvents(events: readonly AuditEvent[]): Promise<void> {
    await audit.recordEvents(this.#t, events);
  }

  /** A page of audit events, newest first. */
  async listAuditEvents(query: AuditQuery): Promise<AuditPage> {
    return await audit.listAuditEvents(this.#t, query);
  }

  /** Deletes up to `limit` events older than `before`. */
  async deleteExpiredEvents(before: number, limit: number): Promise<number> {
    return await audit.deleteExpiredEvents(this.#t, before, limit);
  }

  /** The account's second factors, or null. */
  accountFactors(userId: string): Promise<AccountFactors | null> {
    return totp.accountFactors(this.#f, userId);
  }

  /** Keeps a TOTP enrolment while TOTP is off. */
  startTotpEnrolment(enrolment: TotpEnrolment): Promise<void> {
    return totp.startTotpEnrolment(this.#f, enrolment);
  }

  /** The account's live TOTP enrolment, or null. */
  totpEnrolment(userId: string, now: number): Promise<TotpEnrolment | null> {
    return totp.totpEnrolment(this.#f, userId, now);
  }

  /** Enables TOTP from its live enrolment, with codes and the used step. */
  confirmTotp(
    userId: string,
    confirmation: TotpConfirmation,
  ): Promise<boolean> {
    return totp.confirmTotp(this.#f, userId, confirmation);
  }

  /** The enabled TOTP of the account, or null. */
  totp(userId: string): Promise<TotpRecord | null> {
    return totp.totp(this.#f, userId);
  }

  /** Removes TOTP and its codes, moving the factor version. */
  disableTotp(userId: string, options?: WithEvents): Promise<boolean> {
    return totp.disableTotp(this.#f, userId, options);
  }

  /** Replaces every recovery code. */
  replaceRecoveryCodes(
    userId: string,
    hashes: readonly string[],
    options?: WithEvents,
  ): Promise<boolean> {
    return totp.replaceRecoveryCodes(this.#f, userId, hashes, options);
  }

  /** Accepts a time step once, if later than the last accepted one. */
  useTotpStep(userId: string, step: number): Promise<boolean> {
    return totp.useTotpStep(this.#f, userId, step);
  }

  /** Replaces the TOTP secret if it is still `previousSecret`. */
  replaceTotpSecret(
    userId: string,
    previousSecret: string,
    nextSecret: string,
  ): Promise<boolean> {
    return totp.replaceTotpSecret(this.#f, userId, previousSecret, nextSecret);
  }

  /** Spends one recovery code; the codes left, or null. */
  useRecoveryCode(
    userId: string,
    codeHash: string,
    options?: WithEvents,
  ): Promise<number | null> {
    return totp.useRecoveryCode(this.#f, userId, codeHash, options);
  }

  /** Records a pending sign-in. */
  createPendingSignIn(pending: NewPendingSignIn): Promise<void> {
    return challenges.createPendingSignIn(this.#f, pending);
  }

  /** The live pending sign-in, or null. */
  findPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null> {
    return challenges.findPendingSignIn(this.#f, tokenHash, now);
  }

  /** Counts a wrong code; the last one allowed ends the pending sign-in. */
  failPendingSignIn(
    tokenHash: string,
    now: number,
    maxFailures: number,
  ): Promise<PendingFailure | null> {
    return challenges.failPendingSignIn(this.#f, tokenHash, now, maxFailures);
  }

  /** Ends a live pending sign-in and returns it. */
  spendPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null> {
    return challenges.spendPendingSignIn(this.#f, tokenHash, now);
  }

  /** Keeps a WebAuthn challenge. */
  createChallenge(challenge: ChallengeRecord): Promise<void> {
    return challenges.createChallenge(this.#f, challenge);
  }

  /** Spends the live challenge issued for `use`. */
  spendChallenge(
    tokenHash: string,
    use: ChallengeUse,
    now: number,
  ): Promise<ChallengeRecord | null> {
    return challenges.spendChallenge(this.#f, tokenHash, use, now);
  }

  /** Registers a passkey within the cap; null at the cap. */
  addPasskey(
    passkey: NewPasskey,
    maxPasskeys: number,
    options?: WithEvents,
  ): Promise<PasskeyRecord | null> {
    return passkeys.addPasskey(this.#f, passkey, maxPasskeys, options);
  }

  /** The account's passkeys, oldest first. */
  listPasskeys(userId: string): Promise<PasskeyRecord[]> {
    return passkeys.listPasskeys(this.#f, userId);
  }

  /** The passkey of a credential id, or null. */
  passkeyByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
    return passkeys.passkeyByCredentialId(this.#f, credentialId);
  }

  /** Renames the account's passkey. */
  renamePasskey(
    userId: string,
    id: string,
    name: string,
  ): Promise<PasskeyRecord | null> {
    return passkeys.renamePasskey(this.#f, userId, id, name);
  }

  /** Removes the account's passkey, moving the factor version. */
  removePasskey(
    userId: string,
    id: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return passkeys.removePasskey(this.#f, userId, id, options);
  }

  /** Records a sign-in with a passkey if its counter grew. */
  usePasskey(id: string, use: PasskeyUse): Promise<boolean> {
    return passkeys.usePasskey(this.#f, id, use);
  }

  /** Removes every second factor of an account under the reach rule. */
  removeUserSecondFactor(
    userId: string,
    removal: SecondFactorRemoval,
  ): Promise<void> {
    return passkeys.removeUserSecondFactor(this.#f, userId, removal);
  }

  /** Deletes expired pending sign-ins, challenges and enrolments. */
  deleteExpiredFactorRecords(now: number, limit: number): Promise<number> {
    return challenges.deleteExpiredFactorRecords(this.#f, now, limit);
  }
}

function isEmailTaken(err: unknown): boolean {
  return codeOf(err) === "23505" &&
    (err as { constraint_name?: string }).constraint_name === "users_email_key";
}
