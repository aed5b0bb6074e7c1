// The KvStore class: the Store interface on Deno KV, each concern in its
// private module beside it (accounts, sessions, links, invitations,
// counters, keys, atomic commits, migration). The public entry is mod.ts.

import { AuthError } from "../../http/errors.ts";
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
import { countEnabled, moveCounts, toRecord } from "./_accounts.ts";
import { retry } from "./_atomic.ts";
import * as security from "./_account_security.ts";
import * as audit from "./_audit.ts";
import * as counters from "./_counters.ts";
import * as invitations from "./_invitations.ts";
import { countOf, type KvKeys, kvKeys, type UserValue } from "./_keys.ts";
import * as links from "./_links.ts";
import { migrate } from "./_migrate.ts";
import * as sessions from "./_sessions.ts";
import { createSession, EarlyReads } from "./_session_creation.ts";
import { pageOf } from "../_user_listing.ts";
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
import { type FactorKeys, factorKeys, factorsOf } from "./_factor_keys.ts";
import * as passkeys from "./_passkeys.ts";
import * as totp from "./_totp.ts";
import { userUpdateDecision } from "../_user_rules.ts";
import { DEFAULT_SESSION_READS_IN_FLIGHT } from "../_coalesce.ts";

const MAX_PRIVILEGED_ROLES = 9;

/** Options of {@linkcode KvStore}. */
export interface KvStoreOptions {
  /** Key prefix, so Gatehouse can share a database; `["gatehouse"]` by default. */
  prefix?: Deno.KvKey;
  /**
   * Session reads in flight at most (2 by default). A session check that
   * finds them all busy waits for the next one, which reads the sessions
   * then waiting (as many as fit in one `getMany` of ten keys) at once:
   * under load, one read serves several requests; alone, a check is read
   * at once. Nothing is cached, so an ended session is refused on the very
   * next request.
   */
  sessionReadsInFlight?: number;
}

/**
 * The Deno KV implementation of `Store`.
 *
 * @example Two app instances sharing one KV file
 * ```ts
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const path = await Deno.makeTempFile();
 * const a = await Deno.openKv(path);
 * const b = await Deno.openKv(path);
 * const storeA = new KvStore(a);
 * const storeB = new KvStore(b);
 * await storeA.migrate();
 * console.assert(!(await storeB.hasUsers()));
 * a.close();
 * b.close();
 * ```
 */
export class KvStore implements Store {
  readonly #kv: Deno.Kv;
  readonly #keys: KvKeys;
  readonly #f: FactorKeys;
  readonly #readSession: (
    query: sessions.SessionQuery,
  ) => Promise<sessions.SessionRead>;
  readonly #early: EarlyReads;

  /**
   * Wraps an open `Deno.Kv`.
   *
   * @param kv The database; the caller opens and closes it.
   * @param options The key prefix.
   */
  constructor(kv: Deno.Kv, options: KvStoreOptions = {}) {
    this.#kv = kv;
    this.#keys = kvKeys(options.prefix ?? ["gatehouse"]);
    this.#f = factorKeys(options.prefix ?? ["gatehouse"]);
    this.#readSession = sessions.sessionReader(
      kv,
      this.#keys,
      options.sessionReadsInFlight ?? DEFAULT_SESSION_READS_IN_FLIGHT,
    );
    this.#early = new EarlyReads(kv, this.#keys);
  }

  /**
   * Brings an empty database to this version's schema (recorded under
   * `schema`); refuses a database of another version (see `_migrate.ts`).
   */
  migrate(): Promise<void> {
    return migrate(this.#kv, this.#keys);
  }

  /** Creates an account; `email_taken` when the address is in use. */
  createUser(user: NewUser): Promise<UserRecord> {
    const k = this.#keys;
    const { events, ...fields } = user;
    const value: UserValue = { ...fields, disabled: false, generation: 0 };
    return retry(async () => {
      const emailKey = k.userEmail(user.emailKey);
      const taken = await this.#kv.get(emailKey);
      if (taken.value !== null) {
        throw new AuthError("email_taken", { meta: { field: "email" } });
      }
      const op = this.#kv.atomic()
        .check(taken, { key: k.user(user.id), versionstamp: null })
        .set(k.user(user.id), value)
        .set(emailKey, user.id)
        .set(k.accounts(), true);
      countEnabled(op, k, user.role, 1n);
      return { op: audit.addEvents(op, k, events), result: toRecord(value) };
    });
  }

  /** The account with this id, or null. */
  async userById(id: string): Promise<UserRecord | null> {
    const entry = await this.#kv.get<UserValue>(this.#keys.user(id));
    return entry.value === null ? null : toRecord(entry.value);
  }

  /**
   * The account behind a folded email, or null. An unknown address reads
   * the decoy account where a known one reads its account, and the work is
   * the same record for record: a known address finds its id (a string) and
   * its account, then misses `absent`; an unknown one misses its id, then
   * finds the decoy account and `decoy_email` (a string). A found record
   * costs more than a missed one (decoding it), so the time taken does not
   * tell whether the address has an account (bench: reset known ÷ unknown).
   */
  async credentialsByEmail(emailKey: string): Promise<UserCredentials | null> {
    const k = this.#keys;
    const id = await this.#kv.get<string>(k.userEmail(emailKey));
    const [user] = await this.#kv.getMany<[UserValue, string]>(
      id.value === null
        ? [k.decoyAccount(), k.decoyEmail()]
        : [k.user(id.value), k.absent()],
    );
    if (user.value === null) return null;
    // Built from the decoy too, and then dropped: the same work again.
    const found = {
      user: toRecord(user.value),
      passwordHash: user.value.passwordHash,
      generation: user.value.generation,
      factors: factorsOf(user.value),
    };
    return id.value === null ? null : found;
  }

  /**
   * A page of accounts in the query's order, optionally filtered by `q`,
   * with the total. KV has no index by name or email, and no count of all
   * accounts, so every listing reads every account (see ../_user_listing.ts).
   */
  async listUsers(query: UserQuery): Promise<UserPage> {
    const all: UserRecord[] = [];
    const selector = { prefix: this.#keys.users() };
    for await (
      const entry of this.#kv.list<UserValue>(selector, { batchSize: 500 })
    ) {
      // The record carries its factors, so the list tells them at no cost.
      const { totpEnabled, passkeyCount } = factorsOf(entry.value);
      all.push({
        ...toRecord(entry.value),
        secondFactor: { totp: totpEnabled, passkeys: passkeyCount },
      });
    }
    return pageOf(all, query);
  }

  /** Whether any account exists. */
  async hasUsers(): Promise<boolean> {
    for await (
      const _ of this.#kv.list({ prefix: this.#keys.users() }, { limit: 1 })
    ) {
      return true;
    }
    return false;
  }

  /** Applies `update` atomically under its rules. */
  async updateUser(id: string, update: UserUpdate): Promise<UserRecord> {
    const k = this.#keys;
    let revoked = false;
    const user = await retry(async () => {
      const entry = await this.#kv.get<UserValue>(k.user(id));
      if (entry.value === null) throw new AuthError("user_not_found");
      const current = entry.value;
      const ruleKeys = update.keepPrivileged === undefined
        ? []
        : update.keepPrivileged.length === 0
        ? [k.enabledCount()]
        // A role listed twice must not count its accounts twice.
        : [...new Set(update.keepPrivileged)].map((role) => k.roleCount(role));
      if (ruleKeys.length > MAX_PRIVILEGED_ROLES) {
        // Deno KV checks at most 10 keys per commit: the account plus one
        // counter per privileged role.
        throw new Error(
          `KvStore supports at most ${MAX_PRIVILEGED_ROLES} privileged roles, got ${ruleKeys.length}`,
        );
      }
      const ruleCounters = ruleKeys.length === 0
        ? []
        : await this.#kv.getMany(ruleKeys);
      const decision = userUpdateDecision(
        current,
        update,
        () => ruleCounters.reduce((sum, entry) => sum + countOf(entry), 0),
      );
      const next: UserValue = { ...current, ...decision.changes };
      revoked = next.generation !== current.generation;
      const op = this.#kv.atomic().check(entry, ...ruleCounters).set(
        k.user(id),
        next,
      );
      moveCounts(op, k, current, next);
      audit.addEvents(
        op,
        k,
        update.events?.(toRecord(current), toRecord(next)),
      );
      return { op, result: toRecord(next) };
    });
    if (revoked) await sessions.deleteSessionsOf(this.#kv, k, id);
    return user;
  }

  /** Replaces a password hash if it is still `previousHash`. */
  replacePasswordHash(
    id: string,
    previousHash: string,
    nextHash: string,
  ): Promise<boolean> {
    return retry(async () => {
      const entry = await this.#kv.get<UserValue>(this.#keys.user(id));
      if (entry.value === null || entry.value.passwordHash !== previousHash) {
        return { op: null, result: false };
      }
      const op = this.#kv.atomic().check(entry)
        .set(this.#keys.user(id), { ...entry.value, passwordHash: nextHash });
      return { op, result: true };
    });
  }

  /**
   * Records a session if the account exists, is enabled and has the
   * expected generation; ends the oldest beyond `maxSessions`.
   */
  createSession(session: NewSession): Promise<boolean> {
    return createSession(
      this.#kv,
      this.#keys,
      session,
      this.#early.take(session.userId),
    );
  }

  /**
   * Begins the reads `createSession` makes for the account (the account,
   * its session counter, its sessions), for the next `createSession` of
   * the account within 10 seconds. Writes nothing.
   */
  anticipateSession(userId: string): void {
    this.#early.begin(userId);
  }

  /**
   * The live session behind `tokenHash` and its enabled account, or null;
   * one read of both when the token names the account.
   */
  findSession(
    tokenHash: string,
    now: number,
    userId?: string,
  ): Promise<SessionLookup | null> {
    return sessions.findSession(
      this.#kv,
      this.#keys,
      this.#readSession,
      tokenHash,
      now,
      userId,
    );
  }

  /** Records a use of the session at `at`. */
  async touchSession(tokenHash: string, at: number): Promise<void> {
    await sessions.touchSession(this.#kv, this.#keys, tokenHash, at);
  }

  /** The account's live sessions, newest first. */
  async listSessions(userId: string, now: number): Promise<SessionRecord[]> {
    return await sessions.listSessions(this.#kv, this.#keys, userId, now);
  }

  /** Deletes one session; whether one was deleted. */
  async deleteSession(
    tokenHash: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return await sessions.deleteSession(
      this.#kv,
      this.#keys,
      tokenHash,
      options,
    );
  }

  /** Deletes one of the account's sessions by its public id. */
  async deleteSessionById(
    userId: string,
    sessionId: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return await sessions.deleteSessionById(
      this.#kv,
      this.#keys,
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
      this.#kv,
      this.#keys,
      userId,
      keepTokenHash,
      options,
    );
  }

  /** Ends every session of an account in one commit (its generation moves). */
  async revokeUserSessions(
    userId: string,
    revocation: SessionsRevocation,
  ): Promise<UserRecord> {
    return await security.revokeUserSessions(
      this.#kv,
      this.#keys,
      userId,
      revocation,
    );
  }

  /** Renews the session's proof of identity if it is live. */
  async renewAuthentication(
    tokenHash: string,
    renewal: AuthenticationRenewal,
  ): Promise<boolean> {
    return await sessions.renewAuthentication(
      this.#kv,
      this.#keys,
      tokenHash,
      renewal.now,
      renewal,
    );
  }

  /** Changes the password and records the fresh session in one commit. */
  async changePassword(change: PasswordChange): Promise<boolean> {
    return await security.changePassword(this.#kv, this.#keys, change);
  }

  /** Deletes up to `limit` sessions expired by `now`. */
  async deleteExpiredSessions(now: number, limit: number): Promise<number> {
    return await sessions.deleteExpiredSessions(
      this.#kv,
      this.#keys,
      now,
      limit,
    );
  }

  /** Stores a single-use link. */
  async createLink(link: LinkRecord, options?: WithEvents): Promise<void> {
    return await links.createLink(this.#kv, this.#keys, link, options);
  }

  /** The live link of `kind` behind `tokenHash`, without spending it. */
  async findLink(
    tokenHash: string,
    kind: LinkKind,
    now: number,
  ): Promise<LinkRecord | null> {
    return await links.findLink(this.#kv, this.#keys, tokenHash, kind, now);
  }

  /** Spends an invitation and creates its account and session in one commit. */
  acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null> {
    return invitations.acceptInvitation(
      this.#kv,
      this.#keys,
      tokenHash,
      acceptance,
    );
  }

  /** The pending invitations, newest first. */
  async listInvitations(now: number): Promise<LinkRecord[]> {
    return await invitations.listInvitations(this.#kv, this.#keys, now);
  }

  /** Deletes a pending invitation under the reach rule. */
  revokeInvitation(
    id: string,
    revocation: InvitationRevocation,
  ): Promise<LinkRecord> {
    return invitations.revokeInvitation(this.#kv, this.#keys, id, revocation);
  }

  /** Spends a reset link, sets the password and revokes every session. */
  async confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null> {
    return await links.confirmReset(
      this.#kv,
      this.#keys,
      tokenHash,
      confirmation,
    );
  }

  /** Deletes up to `limit` links expired by `now`. */
  async deleteExpiredLinks(now: number, limit: number): Promise<number> {
    return await links.deleteExpiredLinks(this.#kv, this.#keys, now, limit);
  }

  /** Reserves one attempt on a fixed-window counter, atomically. */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation> {
    return counters.reserveAttempt(this.#kv, this.#keys, key, window);
  }

  /** Gives one attempt back to the window ending at `resetAt`. */
  async releaseAttempt(key: string, resetAt: number): Promise<void> {
    await counters.releaseAttempt(this.#kv, this.#keys, key, resetAt);
  }

  /** The counter if its window is open at `now`. */
  async readCounter(key: string, now: number): Promise<Counter | null> {
    return await counters.readCounter(this.#kv, this.#keys, key, now);
  }

  /** Deletes up to `limit` counters whose window ended by `now`. */
  async deleteExpiredCounters(now: number, limit: number): Promise<number> {
    return await counters.deleteExpiredCounters(
      this.#kv,
      this.#keys,
      now,
      limit,
    );
  }

  /** Writes events that record no change. */
  async recordEvents(events: readonly AuditEvent[]): Promise<void> {
    await audit.recordEvents(this.#kv, this.#keys, events);
  }

  /** A page of audit events, newest first. */
  async listAuditEvents(query: AuditQuery): Promise<AuditPage> {
    return await audit.listAuditEvents(this.#kv, this.#keys, query);
  }

  /** Deletes up to `limit` events older than `before`. */
  async deleteExpiredEvents(before: number, limit: number): Promise<number> {
    return await audit.deleteExpiredEvents(
      this.#kv,
      this.#keys,
      before,
      limit,
    );
  }

  /** The account's second factors, or null. */
  accountFactors(userId: string): Promise<AccountFactors | null> {
    return totp.accountFactors(this.#kv, this.#f, userId);
  }

  /** Keeps a TOTP enrolment while TOTP is off. */
  startTotpEnrolment(enrolment: TotpEnrolment): Promise<void> {
    return totp.startTotpEnrolment(this.#kv, this.#f, enrolment);
  }

  /** The account's live TOTP enrolment, or null. */
  totpEnrolment(userId: string, now: number): Promise<TotpEnrolment | null> {
    return totp.totpEnrolment(this.#kv, this.#f, userId, now);
  }

  /** Enables TOTP from its live enrolment, with codes and the used step. */
  confirmTotp(
    userId: string,
    confirmation: TotpConfirmation,
  ): Promise<boolean> {
    return totp.confirmTotp(this.#kv, this.#f, userId, confirmation);
  }

  /** The enabled TOTP of the account, or null. */
  totp(userId: string): Promise<TotpRecord | null> {
    return totp.totp(this.#kv, this.#f, userId);
  }

  /** Removes TOTP and its codes, moving the factor version. */
  disableTotp(userId: string, options?: WithEvents): Promise<boolean> {
    return totp.disableTotp(this.#kv, this.#f, userId, options);
  }

  /** Replaces every recovery code. */
  replaceRecoveryCodes(
    userId: string,
    hashes: readonly string[],
    options?: WithEvents,
  ): Promise<boolean> {
    return totp.replaceRecoveryCodes(
      this.#kv,
      this.#f,
      userId,
      hashes,
      options,
    );
  }

  /** Accepts a time step once, if later than the last accepted one. */
  useTotpStep(userId: string, step: number): Promise<boolean> {
    return totp.useTotpStep(this.#kv, this.#f, userId, step);
  }

  /** Replaces the TOTP secret if it is still `previousSecret`. */
  replaceTotpSecret(
    userId: string,
    previousSecret: string,
    nextSecret: string,
  ): Promise<boolean> {
    return totp.replaceTotpSecret(
      this.#kv,
      this.#f,
      userId,
      previousSecret,
      nextSecret,
    );
  }

  /** Spends one recovery code; the codes left, or null. */
  useRecoveryCode(
    userId: string,
    codeHash: string,
    options?: WithEvents,
  ): Promise<number | null> {
    return totp.useRecoveryCode(this.#kv, this.#f, userId, codeHash, options);
  }

  /** Records a pending sign-in. */
  createPendingSignIn(pending: NewPendingSignIn): Promise<void> {
    return challenges.createPendingSignIn(this.#kv, this.#f, pending);
  }

  /** The live pending sign-in, or null. */
  findPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null> {
    return challenges.findPendingSignIn(this.#kv, this.#f, tokenHash, now);
  }

  /** Counts a wrong code; the last one allowed ends the pending sign-in. */
  failPendingSignIn(
    tokenHash: string,
    now: number,
    maxFailures: number,
  ): Promise<PendingFailure | null> {
    return challenges.failPendingSignIn(
      this.#kv,
      this.#f,
      tokenHash,
      now,
      maxFailures,
    );
  }

  /** Ends a live pending sign-in and returns it. */
  spendPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null> {
    return challenges.spendPendingSignIn(this.#kv, this.#f, tokenHash, now);
  }

  /** Keeps a WebAuthn challenge. */
  createChallenge(challenge: ChallengeRecord): Promise<void> {
    return challenges.createChallenge(this.#kv, this.#f, challenge);
  }

  /** Spends the live challenge issued for `use`. */
  spendChallenge(
    tokenHash: string,
    use: ChallengeUse,
    now: number,
  ): Promise<ChallengeRecord | null> {
    return challenges.spendChallenge(this.#kv, this.#f, tokenHash, use, now);
  }

  /** Registers a passkey within the cap; null at the cap. */
  addPasskey(
    passkey: NewPasskey,
    maxPasskeys: number,
    options?: WithEvents,
  ): Promise<PasskeyRecord | null> {
    return passkeys.addPasskey(
      this.#kv,
      this.#f,
      passkey,
      maxPasskeys,
      options,
    );
  }

  /** The account's passkeys, oldest first. */
  listPasskeys(userId: string): Promise<PasskeyRecord[]> {
    return passkeys.listPasskeys(this.#kv, this.#f, userId);
  }

  /** The passkey of a credential id, or null. */
  passkeyByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
    return passkeys.passkeyByCredentialId(this.#kv, this.#f, credentialId);
  }

  /** Renames the account's passkey. */
  renamePasskey(
    userId: string,
    id: string,
    name: string,
  ): Promise<PasskeyRecord | null> {
    return passkeys.renamePasskey(this.#kv, this.#f, userId, id, name);
  }

  /** Removes the account's passkey, moving the factor version. */
  removePasskey(
    userId: string,
    id: string,
    options?: WithEvents,
  ): Promise<boolean> {
    return passkeys.removePasskey(this.#kv, this.#f, userId, id, options);
  }

  /** Records a sign-in with a passkey if its counter grew. */
  usePasskey(id: string, use: PasskeyUse): Promise<boolean> {
    return passkeys.usePasskey(this.#kv, this.#f, id, use);
  }

  /** Removes every second factor of an account under the reach rule. */
  removeUserSecondFactor(
    userId: string,
    removal: SecondFactorRemoval,
  ): Promise<void> {
    return passkeys.removeUserSecondFactor(this.#kv, this.#f, userId, removal);
  }

  /** Deletes expired pending sign-ins, challenges and enrolments. */
  deleteExpiredFactorRecords(now: number, limit: number): Promise<number> {
    return challenges.deleteExpiredFactorRecords(this.#kv, this.#f, now, limit);
  }
}
