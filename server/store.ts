/**
 * The `Store` interface: everything Gatehouse keeps (accounts, sessions,
 * single-use links, limiter counters) behind one contract. Core and features
 * only talk to this interface; `./kv` and `./postgres` implement it, and
 * `./conformance` checks any implementation against it.
 *
 * Rules every store keeps:
 * - Tokens never reach a store: sessions and links are keyed by the SHA-256
 *   digest of their token.
 * - Expiry is checked on every read; removal of expired records (the reaper)
 *   is hygiene, not the check.
 * - Decisions that span records are atomic: disabling an account kills its
 *   sessions in the same transaction; the last-privileged rule, `role_changed`
 *   and `role_beyond_reach` are decided on the same read that the write
 *   commits against; a single-use link is spent and applied at once.
 *
 * @module
 */

import type { UserSort } from "@gatehouse/contract";

export type { UserSort };

/** An account as stored. Credential material stays inside the store layer. */
export interface UserRecord {
  /** A UUID (version 7 for accounts Gatehouse creates, so ids sort by age). */
  id: string;
  /** Trimmed, with its original case; compared case-insensitively. */
  email: string;
  /** Trimmed display name. */
  name: string;
  /** The role; empty for none. */
  role: string;
  /** A disabled account cannot sign in and has no live session. */
  disabled: boolean;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
}

/** What a store needs to create an account. */
export interface NewUser {
  /** A UUID chosen by the caller. */
  id: string;
  /** Trimmed email; must not match an existing one case-insensitively. */
  email: string;
  /** Trimmed name. */
  name: string;
  /** Role, empty for none. */
  role: string;
  /** A PHC password hash. */
  passwordHash: string;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
}

/** An account with its password hash, read only for sign-in. */
export interface UserCredentials {
  /** The account. */
  user: UserRecord;
  /** Its PHC password hash. */
  passwordHash: string;
}

/** A page query over accounts, in creation order unless `sort` says otherwise. */
export interface UserQuery {
  /** At most this many accounts (1–100). */
  limit: number;
  /** The `nextCursor` of the previous page (the id of its last account); absent for the first page. */
  cursor?: string;
  /** Case-insensitive substring of email or name. */
  q?: string;
  /**
   * The order: by creation (`created`, the default), lower-cased `name` or
   * lower-cased `email`, ties broken by id; a leading `-` reverses it
   * (`-created`: newest first). The cursor keeps its place in that order.
   */
  sort?: UserSort;
}

/** One page of accounts. */
export interface UserPage {
  /** The accounts of this page, in the query's order. */
  users: UserRecord[];
  /** Cursor of the next page, or null on the last one. */
  nextCursor: string | null;
  /** How many accounts match the query over every page, when the store counts them. */
  total?: number;
}

/**
 * A change to an account with the rules it must satisfy, all decided
 * atomically against the stored record. Violations throw `AuthError` with the
 * rule's code; nothing is written then.
 */
export interface UserUpdate {
  /** New disabled state. Disabling kills every session of the account. */
  disabled?: boolean;
  /** New role (empty for none). */
  role?: string;
  /** `role_changed` unless the stored role equals this. */
  expectedRole?: string;
  /**
   * `role_beyond_reach` unless the stored role is one of these (the empty
   * role is always within reach). Absent: every account is within reach.
   */
  reachableRoles?: readonly string[];
  /**
   * `last_privileged_refused` if the change would leave no enabled account
   * whose role is in this list (an empty list counts every enabled account).
   * Absent: no such rule.
   */
  keepPrivileged?: readonly string[];
}

/** A new session; the store records the account's current session generation. */
export interface NewSession {
  /** SHA-256 digest of the cookie token, base64url. */
  tokenHash: string;
  /** The account. */
  userId: string;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms. */
  expiresAt: number;
}

/** A live session and its account, the answer of the hot path. */
export interface SessionLookup {
  /** The enabled account behind the session. */
  user: UserRecord;
  /** When the session expires, ms. */
  expiresAt: number;
}

/** The two kinds of single-use link. */
export type LinkKind = "invitation" | "reset";

/** A single-use link (invitation or password reset) as stored. */
export interface LinkRecord {
  /** SHA-256 digest of the link's token, base64url. */
  tokenHash: string;
  /** Which flow the link belongs to. */
  kind: LinkKind;
  /** The invited address, or the address of the account to reset. */
  email: string;
  /** Invitation: the name the account will get. Empty for resets. */
  name: string;
  /** Invitation: the role the account will get. Empty for resets. */
  role: string;
  /** Reset: the account. Empty for invitations. */
  userId: string;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms; a link is dead from this instant. */
  expiresAt: number;
}

/** What accepting an invitation writes. */
export interface InvitationAcceptance {
  /** Id for the new account. */
  userId: string;
  /** Hash of the password the invited person chose. */
  passwordHash: string;
  /** Now, ms: the link must expire after this instant. */
  now: number;
}

/** What confirming a password reset writes. */
export interface ResetConfirmation {
  /** Hash of the new password. */
  passwordHash: string;
  /** Now, ms. */
  now: number;
}

/** A fixed-window counter of the login rate limiter. */
export interface Counter {
  /** Attempts counted in the current window. */
  count: number;
  /** When the window ends and the count starts again, ms. */
  resetAt: number;
}

/**
 * Where Gatehouse keeps its records. Implementations: `KvStore` (Deno KV,
 * embedded default, `@gatehouse/server/kv`) and `PostgresStore`
 * (`@gatehouse/server/postgres`). Run `storeConformance` from
 * `@gatehouse/server/conformance` against your own.
 *
 * Methods throw `AuthError` for the contract's refusals (`email_taken`,
 * `user_not_found`, `role_changed`, `role_beyond_reach`,
 * `last_privileged_refused`); anything else they throw is an internal failure.
 *
 * @example Using the embedded store
 * ```ts
 * import type { Store } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store: Store = new KvStore(kv);
 * await store.migrate();
 * console.assert(!(await store.hasUsers()));
 * kv.close();
 * ```
 */
export interface Store {
  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  migrate(): Promise<void>;

  /** Creates an account; `email_taken` when the address is in use. */
  createUser(user: NewUser): Promise<UserRecord>;
  /** The account with this id, or null. */
  userById(id: string): Promise<UserRecord | null>;
  /** The account and password hash for an email (any case), or null. */
  credentialsByEmail(email: string): Promise<UserCredentials | null>;
  /** A page of accounts in the query's order, optionally filtered, with the total when the store counts it. */
  listUsers(query: UserQuery): Promise<UserPage>;
  /** Whether any account exists (the demo's first-run check). */
  hasUsers(): Promise<boolean>;
  /** Applies `update` atomically under its rules; `user_not_found` if absent. */
  updateUser(id: string, update: UserUpdate): Promise<UserRecord>;
  /**
   * Replaces a password hash only if the stored one is still `previousHash`
   * (a rehash on login must not undo a concurrent reset). Returns whether it
   * was replaced. Sessions are untouched.
   */
  replacePasswordHash(
    id: string,
    previousHash: string,
    nextHash: string,
  ): Promise<boolean>;

  /**
   * Records a session if the account exists and is enabled; false otherwise
   * (e.g. disabled while the password was being verified).
   */
  createSession(session: NewSession): Promise<boolean>;
  /**
   * The hot path: the session behind `tokenHash` and its account, or null
   * when there is none, it expired by `now`, the account is disabled, or the
   * session was revoked (disable, password reset) since it was issued.
   */
  findSession(tokenHash: string, now: number): Promise<SessionLookup | null>;
  /** Deletes one session; deleting an absent one is not an error. */
  deleteSession(tokenHash: string): Promise<void>;
  /** Deletes up to `limit` sessions expired by `now`; returns how many. */
  deleteExpiredSessions(now: number, limit: number): Promise<number>;

  /** Stores a single-use link. */
  createLink(link: LinkRecord): Promise<void>;
  /**
   * Spends an invitation and creates its account in one step. Null when the
   * link is unknown, spent, expired, not an invitation, or its address now
   * has an account (the link is then spent too).
   */
  acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null>;
  /**
   * Spends a reset link, sets the password and kills every session of the
   * account in one step. Null when the link is dead or its account is gone.
   */
  confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null>;
  /** Deletes up to `limit` links expired by `now`; returns how many. */
  deleteExpiredLinks(now: number, limit: number): Promise<number>;

  /**
   * Adds one to the counter `key`, starting a new window of `windowMs` when
   * there is none or the last one ended by `now`. Returns the new state.
   * Atomic across instances sharing the store.
   */
  hitCounter(key: string, now: number, windowMs: number): Promise<Counter>;
  /** The counter `key` if its window is still open at `now`, else null. */
  readCounter(key: string, now: number): Promise<Counter | null>;
  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number>;
}
