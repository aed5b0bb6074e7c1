/**
 * The `Store` interface: every operation on what Gatehouse keeps
 * (accounts, sessions, single-use links, limiter counters, second factors,
 * the audit trail). Core and features only talk to this interface. One
 * class implements it, `RuleStore` (./rules/mod.ts), over any narrow
 * `RecordStore` (./records.ts): the rules below are written there once,
 * and a database only stores records and applies checked commits.
 * `./conformance` holds every store to the same behaviour.
 *
 * The rules:
 * - Tokens never reach a store: sessions and links are keyed by the SHA-256
 *   digest of their token.
 * - Emails are compared by their folded form (Unicode NFC, then
 *   `toLowerCase()`), which callers hand over as `emailKey`; a store keeps
 *   it and never folds with a database locale.
 * - A credential's authority is re-checked where it is spent: a session is
 *   recorded only while the account is enabled and its generation is the
 *   one the password was verified under; a reset link only while the
 *   account is enabled and its generation is the one the link was issued
 *   under; an invitation only while its inviter is enabled and may still
 *   grant the role (or, for an invitation without inviter, while the store
 *   has no account); each in the same commit as the write it allows.
 * - Limiter attempts are reserved atomically: a count never passes its
 *   limit and is never dropped under contention.
 * - Expiry is checked on every read; removal of expired records (the reaper)
 *   is hygiene, not the check.
 * - Decisions that span records are atomic: disabling an account kills its
 *   sessions in the same transaction; the last-privileged rule, `role_changed`
 *   and `role_beyond_reach` are decided on the same read that the write
 *   commits against; a single-use link is spent and applied at once.
 *
 * @module
 */

import type { AuditEventType, UserSort } from "@gatehouse/contract";
import type { AuditEvent, WithEvents } from "./audit_event.ts";
import type { ActorStanding, ByActor } from "./actor.ts";
import type { AccountFactors, FactorStore } from "./store_factors.ts";
import type { SsoStore } from "./store_sso.ts";

import type {
  AttemptWindow,
  Counter,
  LinkKind,
  Reservation,
  StoredLink,
  StoredSession,
} from "./records.ts";

export type {
  ActorStanding,
  AuditEvent,
  AuditEventType,
  ByActor,
  UserSort,
  WithEvents,
};
export type * from "./records.ts";
export type * from "./store_factors.ts";
export type * from "./store_sso.ts";

/** A page query over audit events, newest first. */
export interface AuditQuery {
  /** At most this many events (1–100). */
  limit: number;
  /** The `nextCursor` of the previous page (the id of its last event). */
  cursor?: string;
  /** Only events whose actor or target is this account. */
  userId?: string;
  /** Only events of this type. */
  type?: AuditEventType;
  /** Only the events this reader may see (an administrator's reach). */
  reach?: AuditReach;
}

/**
 * The reach rule applied to reading the audit trail (DESIGN.md §5, README
 * "Audit trail"): an event is seen when every account it names, actor and
 * target, is `self` or an account whose current role is empty or one of
 * `roles` (`withinReach`). An event that names no account is seen; one
 * that names an account no longer stored is not. The accounts are judged
 * by their role now, as the write rules judge them.
 */
export interface AuditReach {
  /** The reader's own account id: its own events are always its to see. */
  self: string;
  /** The roles the reader may grant. */
  roles: readonly string[];
}

/** One page of audit events. */
export interface AuditPage {
  /** Newest first. */
  events: AuditEvent[];
  /** Cursor of the next (older) page, or null on the last one. */
  nextCursor: string | null;
}

/** An account as stored. Credential material stays inside the store layer. */
export interface UserRecord {
  /** A UUID (version 7 for accounts Gatehouse creates, so ids sort by age). */
  id: string;
  /** Trimmed and NFC-normalised, with its case; compared by its folded form. */
  email: string;
  /** Trimmed display name. */
  name: string;
  /** The role; empty for none. */
  role: string;
  /** A disabled account cannot sign in and has no live session. */
  disabled: boolean;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
  /**
   * The account's second factors: both built-in stores tell them in
   * `listUsers` (the users screen offers "Remove second factor" only where
   * there is one); a store may leave it out.
   */
  secondFactor?: { totp: boolean; passkeys: number };
  /**
   * The language of its mail (DESIGN.md §14): `en` or a shipped
   * catalogue's tag, "" (or absent, from a store that keeps none) while
   * none is known.
   */
  locale?: string;
  /** Whether the person chose `locale`; else sign-ins set it. */
  localeChosen?: boolean;
}

/** What a store needs to create an account. */
export interface NewUser extends WithEvents, ByActor {
  /** A UUID chosen by the caller. */
  id: string;
  /** Trimmed, NFC-normalised email, as shown. */
  email: string;
  /**
   * The folded email (NFC, then lower case): unique among accounts, and
   * what {@linkcode Store.credentialsByEmail} looks up.
   */
  emailKey: string;
  /** Trimmed, NFC-normalised name. */
  name: string;
  /** Role, empty for none. */
  role: string;
  /** A PHC password hash. */
  passwordHash: string;
  /** Creation time, milliseconds since the epoch. */
  createdAt: number;
  /** The language of its mail (`en`, `es`…); "" (the default) for none yet. */
  locale?: string;
}

/** An account with its password hash, read only for sign-in. */
export interface UserCredentials {
  /** The account. */
  user: UserRecord;
  /** Its PHC password hash. */
  passwordHash: string;
  /**
   * The account's generation when this was read: the version of its
   * credential. A password reset (and a disable) moves it; a rehash on
   * sign-in does not. Pass it as {@linkcode NewSession.expectedGeneration}.
   */
  generation: number;
  /** Its second factors: whether the sign-in needs a second step. */
  factors: AccountFactors;
}

/** A page query over accounts, in creation order unless `sort` says otherwise. */
export interface UserQuery {
  /** At most this many accounts (1–100). */
  limit: number;
  /** The `nextCursor` of the previous page (the id of its last account); absent for the first page. */
  cursor?: string;
  /**
   * Folded text (NFC, then lower case) to find, literally, within the folded
   * email or the folded name.
   */
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
export interface UserUpdate extends ByActor {
  /** New disabled state. Disabling kills every session of the account. */
  disabled?: boolean;
  /** New display name (already checked by the name rules). */
  name?: string;
  /**
   * New language of the account's mail: `chosen` by the person (kept
   * from then on), or the browser's, applied only while the person has
   * not chosen one.
   */
  locale?: { tag: string; chosen: boolean };
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
  /**
   * The roles whose accounts may grant an invitation of `role` (undefined:
   * any role), as acceptance asks ({@linkcode InvitationAcceptance.granters}).
   * With it, a change of the account's role deletes, after its commit, the
   * invitations the account sent that its new role may not grant, each in a
   * commit of its own checked against the link as read: acceptance asks the
   * inviter's role only when a link is spent, so a link nobody tried
   * meanwhile would work again once the role is given back. The ones the
   * new role may grant stay. A `role` set to the one the account has does
   * it again (so does a `disabled: true` for a disabled account, with every
   * invitation it sent): a retry of a change whose deletions failed after
   * its commit. Absent: a role change ends no invitation.
   *
   * @example A demotion ends the invitations beyond the new role's grant
   * ```ts
   * import { KvStore } from "@gatehouse/server/kv";
   *
   * const kv = await Deno.openKv(":memory:");
   * const store = new KvStore(kv);
   * await store.migrate();
   * const now = Date.now();
   * const ada = await store.createUser({
   *   id: crypto.randomUUID(),
   *   email: "ada@example.com",
   *   emailKey: "ada@example.com",
   *   name: "Ada",
   *   role: "admin",
   *   passwordHash: "",
   *   createdAt: now,
   * });
   * for (const role of ["admin", "member"]) {
   *   await store.createLink({
   *     tokenHash: `digest-${role}`,
   *     id: crypto.randomUUID(),
   *     kind: "invitation",
   *     email: `${role}@example.com`,
   *     emailKey: `${role}@example.com`,
   *     name: "",
   *     role,
   *     userId: "",
   *     invitedBy: ada.id,
   *     generation: 0,
   *     createdAt: now,
   *     expiresAt: now + 86_400_000,
   *   });
   * }
   * // admin grants every role, support only member.
   * await store.updateUser(ada.id, {
   *   role: "support",
   *   granters: (role) =>
   *     Promise.resolve(role === "member" ? ["admin", "support"] : ["admin"]),
   * });
   * const left = await store.listInvitations(now);
   * console.assert(left.length === 1 && left[0]!.role === "member");
   * kv.close();
   * ```
   */
  granters?: (role: string) => Promise<readonly string[] | undefined>;
  /**
   * The events of the change, made from the account before and after it
   * and written in its commit (an event such as `user.role_changed` names
   * the role the commit replaced, which only the store reads atomically).
   * Not called when a rule refuses the change.
   */
  events?: (before: UserRecord, after: UserRecord) => readonly AuditEvent[];
}

/**
 * A new session; the store records the account's current generation with
 * it.
 */
export interface NewSession extends WithEvents {
  /** SHA-256 digest of the cookie token, base64url. */
  tokenHash: string;
  /** The session's public UUID (never derived from the token); a UUIDv7 is made when absent. */
  id?: string;
  /** The client address it starts from; "" by default. */
  ip?: string;
  /** A short label of the client's browser and system; "" by default. */
  userAgent?: string;
  /** The account. */
  userId: string;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms. */
  expiresAt: number;
  /**
   * The generation the password was verified under
   * ({@linkcode UserCredentials.generation}): the session is recorded only
   * if the account's generation is still this one, in the same commit.
   * Absent: whatever the generation is.
   */
  expectedGeneration?: number;
  /**
   * The factor version the second factor was verified under
   * ({@linkcode AccountFactors.factorVersion} of the pending sign-in): the
   * session is recorded only if the account's is still this one, in the
   * same commit, so a factor removed meanwhile yields no session. Absent:
   * whatever it is.
   */
  expectedFactorVersion?: number;
  /**
   * The sign-in proved a password alone, the account read then having no
   * second factor: the session is recorded only if it has none still (no
   * TOTP, no passkey), in the same commit, since a second factor once
   * enabled is required at every password sign-in (DESIGN.md §5). Absent
   * or false: whatever factors it has.
   */
  withoutSecondFactor?: boolean;
  /**
   * Live sessions the account may hold once this one is recorded: the
   * sessions that would end first are ended in the same commit to make
   * room. Absent: no limit.
   */
  maxSessions?: number;
  /**
   * Now minus the idle timeout, ms: a session of the account last seen at
   * or before it has idled out. It no longer counts toward `maxSessions`
   * and is removed in passing, so a sign-in at the cap ends the sessions
   * nobody uses before one in use. Absent: only expiry and an older
   * generation make a session dead.
   */
  idleCutoff?: number;
  /**
   * The single sign-on that made it: the provider's `id`, its session id
   * (`sid`) when the provider gave one, and the identity's `subjectKey`, by
   * which a back-channel logout names it (DESIGN.md §13). Absent for every
   * other sign-in.
   */
  sso?: { provider: string; sid: string | null; subjectKey?: string };
}

/** A live session and its account, the answer of the hot path. */
export interface SessionLookup {
  /** The enabled account behind the session. */
  user: UserRecord;
  /** The session's public id. */
  id: string;
  /** When the session started, ms. */
  createdAt: number;
  /** When the session expires, ms. */
  expiresAt: number;
  /**
   * When its use was last recorded, ms: at most one write per interval
   * ({@linkcode Store.touchSession}); idle expiry is judged against it.
   */
  lastSeenAt: number;
  /** When its holder last proved who they are (sign-in or re-authentication), ms. */
  authenticatedAt: number;
  /**
   * The account's generation the session was issued under (the current
   * one, as the session is live): what an administrator's changes are
   * bound to ({@linkcode ActorStanding}).
   */
  generation: number;
  /**
   * The account's second factors, read with the account (no second read):
   * the Identity and the second-factor policy need them on every request.
   */
  factors: AccountFactors;
  /**
   * The single sign-on provider (its `id`) whose sign-in made the session;
   * absent for other sign-ins. Such a session owes no second factor.
   */
  ssoProvider?: string;
}

/**
 * A session as the list of an account's sessions shows it: the stored
 * session's own fields, without what names it (the token's digest), its
 * account and generation, or what a back-channel logout matches on.
 */
export type SessionRecord = Pick<
  StoredSession,
  | "id"
  | "createdAt"
  | "expiresAt"
  | "lastSeenAt"
  | "authenticatedAt"
  | "ip"
  | "userAgent"
  | "ssoProvider"
>;

/** How {@linkcode Store.recordEvents} writes: by whom, about whom. */
export interface EventRecording extends ByActor {
  /**
   * The account the events are about, when they stand for an act on it
   * (an unlock): written only while that account's role is one of
   * `reachableRoles` (the empty role always is), read in their commit;
   * else `role_beyond_reach`, or `user_not_found` once it is gone, and
   * nothing written.
   */
  target?: { id: string; reachableRoles: readonly string[] };
}

/** What ending every session of an account needs. */
export interface SessionsRevocation extends WithEvents, ByActor {
  /**
   * `role_beyond_reach` unless the account's role is one of these (the
   * empty role always is). Absent: every account is within reach.
   */
  reachableRoles?: readonly string[];
}

/**
 * Which session `deleteSessionById` may end: a live one only, as
 * `listSessions` lists them and the idle timeout leaves them (DESIGN.md
 * §8). A session already dead is no longer the caller's to end.
 */
export interface SessionEnding extends WithEvents, ByActor {
  /** Now, ms: a session expired by then is not ended. */
  now: number;
  /**
   * Now minus the idle timeout, ms: a session last seen at or before it
   * has idled out and is not ended.
   */
  idleCutoff: number;
}

/** What renewing a session's proof of identity writes. */
export interface AuthenticationRenewal extends WithEvents {
  /** Now, ms: the new `authenticatedAt`. */
  now: number;
}

/**
 * A password change: the new hash, bound to the credential the current
 * password was verified under, and the fresh session that replaces every
 * other, in one commit.
 */
export interface PasswordChange extends WithEvents, ByActor {
  /** The account. */
  userId: string;
  /** The generation the current password was verified under. */
  expectedGeneration: number;
  /** Hash of the new password. */
  passwordHash: string;
  /** The fresh session; its generation is the new one. */
  session: {
    tokenHash: string;
    id: string;
    createdAt: number;
    expiresAt: number;
    ip: string;
    userAgent: string;
  };
}

/** A single-use link (invitation or password reset): the record `link`. */
export type LinkRecord = StoredLink;

/** What accepting an invitation writes, and the authority it needs. */
export interface InvitationAcceptance extends WithEvents {
  /** Id for the new account. */
  userId: string;
  /** Hash of the password the invited person chose. */
  passwordHash: string;
  /** Now, ms: the link must expire after this instant. */
  now: number;
  /** The language of the new account's mail, from the browser; "" for none. */
  locale?: string;
  /** The new account's first session, recorded in the same commit. */
  session: {
    tokenHash: string;
    expiresAt: number;
    id?: string;
    ip?: string;
    userAgent?: string;
  };
  /**
   * The roles whose holders may grant the invited role: the inviter's
   * stored role must be one of them. Absent: any role (the inviter must
   * still exist and be enabled).
   */
  granters?: readonly string[];
}

/** What storing a link needs besides the link. */
export interface LinkCreation extends WithEvents, ByActor {
  /**
   * The roles of the invitations this one may replace: those its inviter
   * could revoke (the empty role always is; an expired invitation always
   * is). Absent: every invitation may be replaced.
   */
  reachableRoles?: readonly string[];
}

/** What revoking an invitation needs. */
export interface InvitationRevocation extends ByActor {
  /** Now, ms: an expired invitation is no longer pending. */
  now: number;
  /**
   * The events of the revocation, made from the invitation the commit
   * deletes (its address and role, which the caller knows only by id), and
   * written in that commit.
   */
  events?: (invitation: LinkRecord) => readonly AuditEvent[];
  /**
   * `role_beyond_reach` unless the invitation's role is one of these (the
   * empty role always is). Absent: every invitation is within reach.
   */
  reachableRoles?: readonly string[];
}

/** What confirming a password reset writes. */
export interface ResetConfirmation extends WithEvents {
  /** Hash of the new password. */
  passwordHash: string;
  /** Now, ms. */
  now: number;
}

/**
 * Every operation on what Gatehouse keeps, with its rules. `RuleStore`
 * implements it over any `RecordStore`: `KvStore` (Deno KV, embedded
 * default, `@gatehouse/server/kv`), `PostgresStore`
 * (`@gatehouse/server/postgres`) and `SqliteStore`
 * (`@gatehouse/server/sqlite`) are that class over theirs. To add a
 * database, write a `RecordStore` (`@gatehouse/server/store`), not this.
 *
 * Methods throw `AuthError` for the contract's refusals (`email_taken`,
 * `user_not_found`, `role_changed`, `role_beyond_reach`,
 * `last_privileged_refused`, `invitation_not_found`); anything else they
 * throw is an internal failure.
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
export interface Store extends FactorStore, SsoStore {
  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  migrate(): Promise<void>;

  /** Creates an account; `email_taken` when the address is in use. */
  createUser(user: NewUser): Promise<UserRecord>;
  /** The account with this id, or null. */
  userById(id: string): Promise<UserRecord | null>;
  /**
   * The account, password hash and generation behind a folded email
   * (`NewUser.emailKey`), or null. Does the same reads whether or not the
   * address has an account.
   */
  credentialsByEmail(emailKey: string): Promise<UserCredentials | null>;
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
   * Records a session if the account exists, is enabled and (when
   * `expectedGeneration` is given) its generation is still that one; false
   * otherwise (e.g. disabled or reset while the password was being
   * verified). With `maxSessions`, ends the account's sessions that would
   * end first so that no more than that many are live, in the same commit.
   */
  createSession(session: NewSession): Promise<boolean>;
  /**
   * Optional. A hint that `createSession` for this account will probably
   * follow in a moment: a sign-in whose password is being verified. A store
   * whose `createSession` reads before it commits may begin those reads
   * now, so that only the commit waits for the verify. It must write
   * nothing and never throw, and `createSession` must decide as it would
   * without the hint: whatever changed meanwhile (a password change, a
   * disabled account, another session) counts. A hint no `createSession`
   * follows (the password was wrong) must cost no more than its reads.
   */
  anticipateSession?(userId: string): void;
  /**
   * The hot path: the session behind `tokenHash` and its account, or null
   * when there is none, it expired by `now`, the account is disabled, or the
   * session was revoked (disable, password reset) since it was issued.
   *
   * `userId`, when given, is the account the session token names (the
   * token carries it): a store may read the session and that account at
   * once, and must answer null when the session belongs to another account.
   */
  findSession(
    tokenHash: string,
    now: number,
    userId?: string,
  ): Promise<SessionLookup | null>;
  /**
   * Records a use of the session at `at` (sets `lastSeenAt` if later).
   * Never brings a deleted session back. Gatehouse calls it at most once
   * per touch interval per session, off the answer's critical path.
   */
  touchSession(tokenHash: string, at: number): Promise<void>;
  /**
   * The account's live sessions (unexpired at `now`, not revoked), newest
   * first: an indexed read.
   */
  listSessions(userId: string, now: number): Promise<SessionRecord[]>;
  /**
   * Deletes one session; deleting an absent one is not an error. The events
   * are written only when a session was deleted. Returns whether one was.
   */
  deleteSession(tokenHash: string, options?: WithEvents): Promise<boolean>;
  /**
   * Deletes the session `sessionId` of account `userId` if it is live
   * (unexpired, not revoked, not idle past `ending.idleCutoff`; another
   * account's is left alone); returns whether one was deleted. Events as
   * above. `session_absent` when `ending.actor` no longer stands.
   */
  deleteSessionById(
    userId: string,
    sessionId: string,
    ending: SessionEnding,
  ): Promise<boolean>;
  /**
   * Deletes every session of the account but the one behind
   * `keepTokenHash`; returns how many. The events are written with the
   * deletion (in its first commit when a store needs several), and not at
   * all when there was none to delete. `session_absent` when
   * `options.actor` no longer stands.
   */
  deleteOtherSessions(
    userId: string,
    keepTokenHash: string,
    options?: WithEvents & ByActor,
  ): Promise<number>;
  /**
   * Ends every session of an account in one step, without disabling it: the
   * account's generation moves (which also kills its outstanding reset
   * links). `user_not_found`, `role_beyond_reach` as for `updateUser`.
   */
  revokeUserSessions(
    userId: string,
    revocation: SessionsRevocation,
  ): Promise<UserRecord>;
  /**
   * Sets the session's `authenticatedAt` to `renewal.now` if it is live
   * (account enabled, generation current, unexpired); returns whether.
   */
  renewAuthentication(
    tokenHash: string,
    renewal: AuthenticationRenewal,
  ): Promise<boolean>;
  /**
   * Replaces the password hash and moves the generation (every session and
   * reset link of the account dies) and records the fresh session, in one
   * commit, only if the account is enabled and still at
   * `expectedGeneration`; returns whether it did. `session_absent` when
   * `change.actor` no longer stands.
   */
  changePassword(change: PasswordChange): Promise<boolean>;
  /** Deletes up to `limit` sessions expired by `now`; returns how many. */
  deleteExpiredSessions(now: number, limit: number): Promise<number>;

  /**
   * Stores a single-use link (and its events, in the same commit). An
   * invitation replaces, in that commit, any other invitation for the same
   * address (`emailKey`): its link dies. `role_beyond_reach` (nothing
   * written) when one it would replace is pending and its role is not
   * within `options.reachableRoles`.
   */
  createLink(link: LinkRecord, options?: LinkCreation): Promise<void>;
  /**
   * Every invitation stored for the address `emailKey` (expired ones and
   * decoys, for an address with an account, included): those a new
   * invitation for it would replace. With `options.actor`, refused as
   * {@linkcode Store.createLink} would refuse that inviter
   * (`session_absent`, `role_insufficient`): read before an invitation's
   * mail, which is sent before its link is stored.
   */
  invitationsFor(emailKey: string, options?: ByActor): Promise<LinkRecord[]>;
  /**
   * The link of `kind` behind `tokenHash` if it is unspent and unexpired at
   * `now`, without spending it: one cheap read, so a dead link is refused
   * before any password is hashed. Spending re-checks everything.
   */
  findLink(
    tokenHash: string,
    kind: LinkKind,
    now: number,
  ): Promise<LinkRecord | null>;
  /**
   * Spends an invitation, creates its account and the account's first
   * session in one step. Null when the link is unknown, spent, expired or
   * not an invitation; also null, and the link spent, when its address now
   * has an account, when its inviter is gone, disabled or no longer holds a
   * role in `granters`, or, for an invitation without inviter, when the
   * store has any account.
   */
  acceptInvitation(
    tokenHash: string,
    acceptance: InvitationAcceptance,
  ): Promise<UserRecord | null>;
  /**
   * The pending invitations (unspent, unexpired at `now`, for an address
   * that has no account), newest first.
   */
  listInvitations(now: number): Promise<LinkRecord[]>;
  /**
   * Deletes the pending invitation `id` and returns it. `invitation_not_found`
   * when there is none (unknown, spent, expired, or for an address that has
   * an account now), `role_beyond_reach` when its role is not within reach.
   */
  revokeInvitation(
    id: string,
    revocation: InvitationRevocation,
  ): Promise<LinkRecord>;
  /**
   * Spends a reset link, sets the password, moves the account's generation
   * (which kills every session and every other reset link of it) in one
   * step. Null when the link is dead, its account is gone or disabled, or
   * the account's generation moved since the link was issued (the link is
   * then spent too).
   */
  confirmReset(
    tokenHash: string,
    confirmation: ResetConfirmation,
  ): Promise<UserRecord | null>;
  /** Deletes up to `limit` links expired by `now`; returns how many. */
  deleteExpiredLinks(now: number, limit: number): Promise<number>;

  /**
   * Reserves one attempt on the counter `key`: adds one unless its window
   * (open at `now`) already counts `limit`, starting a new window of
   * `windowMs` when there is none or the last one ended. Atomic across
   * instances sharing the store, exact under any contention: no count is
   * dropped, and a full window refuses without writing.
   */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation>;
  /**
   * Gives one reserved attempt back: subtracts one from `key` if its window
   * is still the one ending at `resetAt` and its count is above zero.
   */
  releaseAttempt(key: string, resetAt: number): Promise<void>;
  /** The counter `key` if its window is still open at `now`, else null. */
  readCounter(key: string, now: number): Promise<Counter | null>;
  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number>;

  /**
   * Writes events that record no change (refusals such as `login.failed`);
   * with an actor, in one commit and only while it stands (and, with a
   * target, while that account is within reach).
   */
  recordEvents(
    events: readonly AuditEvent[],
    options?: EventRecording,
  ): Promise<void>;
  /**
   * A page of audit events, newest first (by id), optionally of one
   * account (as actor or target) and one type: indexed reads; with
   * `reach`, only the events within it, and still `limit` of them a page
   * while older ones remain (the cursor is the last event shown).
   */
  listAuditEvents(query: AuditQuery): Promise<AuditPage>;
  /** Deletes up to `limit` events older than `before` (ms); returns how many. */
  deleteExpiredEvents(before: number, limit: number): Promise<number>;
}
