/**
 * The narrow store: what a database must do for Gatehouse. It keeps
 * records of a few kinds, answers reads of them, and applies one atomic
 * commit of checked writes. Every rule (the last administrator, the
 * session cap, single-use links, the passkey cap, role reach, the
 * generation binding) is written once, in `./rules/`, over this
 * interface; a store decides nothing.
 *
 * Three implementations ship: Deno KV (`@gatehouse/server/kv`), PostgreSQL
 * (`@gatehouse/server/postgres`, relational tables) and SQLite
 * (`@gatehouse/server/sqlite`, `node:sqlite`). The conformance suite
 * (`@gatehouse/server/conformance`) holds a fourth to the same behaviour.
 *
 * @module
 */

import type { AuditEventType, UserSort } from "@gatehouse/contract";
import type { AuditEvent } from "./audit_event.ts";

export type { AuditEvent };

/** An account as stored: the record behind `UserRecord` and its secrets. */
export interface AccountRecord {
  /** Its id, a UUID. */
  id: string;
  /** The address as given. */
  email: string;
  /** The folded address (`foldEmail`): unique among accounts. */
  emailKey: string;
  /** The display name. */
  name: string;
  /** The folded name, for search. */
  nameKey: string;
  /** The role; empty for none. */
  role: string;
  /** Whether sign-in is refused. */
  disabled: boolean;
  /** The argon2id hash of the password. */
  passwordHash: string;
  /** Moves when every session and reset link of the account must die. */
  generation: number;
  /** When it was created, ms. */
  createdAt: number;
  /** Moves when a second factor is added or removed. */
  factorVersion: number;
  /** Whether TOTP is on. */
  totpEnabled: boolean;
  /** How many passkeys it has. */
  passkeyCount: number;
  /**
   * The language of its mail (DESIGN.md §14): `en` or a shipped
   * catalogue's tag, "" while none is known (mail then follows the
   * request's `Accept-Language`).
   */
  locale: string;
  /**
   * Whether the person chose `locale` (`PATCH /api/auth/account`); until
   * then each sign-in sets it from the browser's `Accept-Language`.
   */
  localeChosen: boolean;
}

/** A session as stored, by the digest of its token. */
export interface StoredSession {
  /** The SHA-256 digest of the token that names it. */
  tokenHash: string;
  /** Its id, a UUID. */
  id: string;
  /** The account it belongs to. */
  userId: string;
  /** The account's generation when the session was issued. */
  generation: number;
  /** When it was created, ms. */
  createdAt: number;
  /** When it ends, ms. */
  expiresAt: number;
  /** Its last use, ms. */
  lastSeenAt: number;
  /** When its owner last proved who they are, ms. */
  authenticatedAt: number;
  /** The client address it was made from. */
  ip: string;
  /** The browser label it was made from. */
  userAgent: string;
  /**
   * The single sign-on provider (its `id`) whose sign-in made it; absent
   * for every other sign-in (DESIGN.md §13).
   */
  ssoProvider?: string;
  /**
   * The provider's session id (`sid`) of that sign-in, which a back-channel
   * logout names; absent when the provider gave none.
   */
  ssoSid?: string;
  /**
   * The identity (its `subjectKey`: the issuer and `sub`) whose sign-in
   * made it, which a back-channel logout naming a person (`sub`) ends;
   * absent for every other sign-in, and for a session made before sessions
   * recorded it.
   */
  ssoSubjectKey?: string;
}

/** The two kinds of single-use link. */
export type LinkKind = "invitation" | "reset";

/**
 * A single-use link (invitation or password reset), by its token digest;
 * the `Store` names it `LinkRecord`.
 */
export interface StoredLink {
  /** SHA-256 digest of the link's token, base64url. */
  tokenHash: string;
  /** A UUID of its own, the public name of the link (never the token). */
  id: string;
  /** Which flow the link belongs to. */
  kind: LinkKind;
  /** The invited address, or the address of the account to reset. */
  email: string;
  /** `email` folded (NFC, then lower case). */
  emailKey: string;
  /** Invitation: the name the account will get. Empty for resets. */
  name: string;
  /** Invitation: the role the account will get. Empty for resets. */
  role: string;
  /** Reset: the account. Empty for invitations. */
  userId: string;
  /**
   * Invitation: the account that sent it; empty for the first-run
   * invitation, which works only while the store has no account. Empty for
   * resets.
   */
  invitedBy: string;
  /**
   * Reset: the account's generation when the link was issued; the link is
   * dead once it moved (a reset, a disable). 0 for invitations.
   */
  generation: number;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms; a link is dead from this instant. */
  expiresAt: number;
}

/** An account's enabled TOTP with its unused recovery code digests. */
export interface StoredTotp {
  /** The account it belongs to. */
  userId: string;
  /** The TOTP secret (sealed when `totpKeys` are set). */
  secret: string;
  /** The last accepted time step. */
  lastStep: number;
  /** Digests of the unused recovery codes. */
  recoveryCodes: string[];
}

/**
 * A TOTP enrolment waiting for its first code, by its account; the `Store`
 * names it `TotpEnrolment`.
 */
export interface StoredEnrolment {
  /** The account. */
  userId: string;
  /** The new secret: base32, or sealed when `totpKeys` are configured. */
  secret: string;
  /** When the enrolment started, ms. */
  createdAt: number;
  /** When it dies unconfirmed, ms. */
  expiresAt: number;
}

/**
 * A sign-in whose password was right, waiting for its second factor; the
 * `Store` names it `PendingSignIn`.
 */
export interface StoredPendingSignIn {
  /** SHA-256 digest of the pending cookie's token, base64url. */
  tokenHash: string;
  /** The account. */
  userId: string;
  /** The account's generation when the password was verified. */
  generation: number;
  /** The account's factor version then. */
  factorVersion: number;
  /** Wrong codes so far. */
  failures: number;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms. */
  expiresAt: number;
}

/** The uses a WebAuthn challenge is issued for. */
export type ChallengeUse =
  | "register"
  | "login"
  | "second_factor"
  | "reauthenticate";

/**
 * A WebAuthn challenge kept server-side until its answer comes back, by
 * the digest of the token that names it; the `Store` names it
 * `ChallengeRecord`.
 */
export interface StoredChallenge {
  /** SHA-256 digest of the token that names it (a cookie), base64url. */
  tokenHash: string;
  /** The challenge sent to the browser, base64url. */
  challenge: string;
  /** What it was issued for; spending it for another use fails. */
  use: ChallengeUse;
  /** The account it was issued to, or "" (passwordless sign-in). */
  userId: string;
  /** Creation time, ms. */
  createdAt: number;
  /** Expiry time, ms. */
  expiresAt: number;
}

/** A registered passkey; the `Store` names it `PasskeyRecord`. */
export interface StoredPasskey {
  /** A UUID, its public name. */
  id: string;
  /** The account. */
  userId: string;
  /** The WebAuthn credential id, base64url; unique in the store. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen (0: the authenticator does not count). */
  counter: number;
  /** Transports the authenticator named at registration. */
  transports: string[];
  /** The name its owner gave it. */
  name: string;
  /** Registration time, ms. */
  createdAt: number;
  /** Last sign-in with it, ms, or null. */
  lastUsedAt: number | null;
}

/**
 * An identity at a single sign-on provider linked to an account (DESIGN.md
 * §13): keyed by an id of its own, unique by its exact (`issuer`,
 * `subject`), which `subjectKey` holds as one value.
 */
export interface StoredIdentity {
  /** Its id, a UUID (what the API names it by). */
  id: string;
  /** The account it signs in to. */
  userId: string;
  /** The provider's `id` in the configuration. */
  providerId: string;
  /** The issuer (`iss`). */
  issuer: string;
  /** The subject (`sub`) at that issuer. */
  subject: string;
  /** The digest of (`issuer`, `subject`): unique among identities. */
  subjectKey: string;
  /** The person's address at the provider, as last seen. */
  email: string;
  /** The person's name at the provider, as last seen; empty for none. */
  name: string;
  /** When it was linked, ms. */
  linkedAt: number;
}

/**
 * One single sign-on attempt, by the digest of the token its browser
 * holds: made at the start, spent at the callback (DESIGN.md §13).
 */
export interface StoredSsoFlow {
  /** The SHA-256 digest of the cookie's token. */
  tokenHash: string;
  /** The provider it was started with. */
  providerId: string;
  /** The `state` sent to the provider. */
  state: string;
  /** The `nonce` sent. */
  nonce: string;
  /** The PKCE code verifier. */
  codeVerifier: string;
  /** Where to go after: a same-origin path, already checked. */
  returnTo: string;
  /** A sign-in, or a re-authentication of a session that exists. */
  purpose: "sign_in" | "reauthenticate";
  /** For a re-authentication, the signed-in account; else null. */
  userId: string | null;
  /**
   * For a re-authentication, the public id of the session that asked for
   * it; else null (none either in a flow saved before flows named it).
   */
  sessionId: string | null;
  /** When it was started, ms. */
  createdAt: number;
  /** When it stops being accepted, ms. */
  expiresAt: number;
}

/**
 * A back-channel logout token already acted on, by the digest of its
 * issuer and `jti`, kept while a replay of it could still pass.
 */
export interface StoredLogoutToken {
  /** The digest of (`iss`, `jti`). */
  key: string;
  /** Until when a replay could pass, ms. */
  expiresAt: number;
}

/**
 * A count kept by the store, changed only by {@linkcode Commit.tallies}:
 * enabled accounts per role (`role:{role}`), all enabled accounts
 * (`enabled`), and per-account sequences whose version serialises a rule
 * (`sessions:{userId}`, whose count is never below the account's stored
 * sessions, and `invitation:{emailKey}`).
 */
export interface StoredTally {
  /** The tally's name. */
  key: string;
  /** Its current count. */
  count: number;
}

/** The record kinds and their shapes. */
export interface RecordKinds {
  /** Accounts, by id. */
  account: AccountRecord;
  /** Sessions, by token digest. */
  session: StoredSession;
  /** Invitation and reset links, by token digest. */
  link: StoredLink;
  /** Enabled TOTP, by account. */
  totp: StoredTotp;
  /** TOTP enrolments, by account. */
  enrolment: StoredEnrolment;
  /** Pending second-factor sign-ins, by token digest. */
  pending: StoredPendingSignIn;
  /** WebAuthn challenges, by token digest. */
  challenge: StoredChallenge;
  /** Passkeys, by id. */
  passkey: StoredPasskey;
  /** Audit events, by id (UUIDv7: time order). */
  event: AuditEvent;
  /** Tallies, by name. */
  tally: StoredTally;
  /** Identities at single sign-on providers, by id. */
  identity: StoredIdentity;
  /** Single sign-on attempts, by token digest. */
  sso_flow: StoredSsoFlow;
  /** Back-channel logout tokens acted on, by digest. */
  logout_token: StoredLogoutToken;
}

/** The name of a record kind. */
export type Kind = keyof RecordKinds;

/**
 * How each kind is keyed and indexed: the primary key's field, the fields
 * that are unique among records of the kind (readable like the key), the
 * fields records are listed by, and the field a sweep deletes by. Every
 * store builds its tables or key layout from this one description. A
 * record whose list field is absent (an optional field) is not listed by
 * it.
 */
export const KINDS = {
  account: { key: "id", unique: ["emailKey"], lists: [], expiry: null },
  session: {
    key: "tokenHash",
    unique: [],
    // A session of no single sign-on has no `ssoSid` or `ssoSubjectKey`:
    // no entry. By `ssoSubjectKey`, a back-channel logout naming a person
    // finds the sessions that person's sign-ins made, whichever account
    // they belong to.
    lists: ["userId", "ssoSid", "ssoSubjectKey"],
    expiry: "expiresAt",
  },
  link: {
    key: "tokenHash",
    unique: ["id"],
    lists: ["emailKey", "kind"],
    expiry: "expiresAt",
  },
  totp: { key: "userId", unique: [], lists: [], expiry: null },
  enrolment: { key: "userId", unique: [], lists: [], expiry: "expiresAt" },
  pending: { key: "tokenHash", unique: [], lists: [], expiry: "expiresAt" },
  challenge: {
    key: "tokenHash",
    unique: [],
    lists: [],
    expiry: "expiresAt",
  },
  passkey: {
    key: "id",
    unique: ["credentialId"],
    lists: ["userId"],
    expiry: null,
  },
  event: { key: "id", unique: [], lists: [], expiry: "at" },
  tally: { key: "key", unique: [], lists: [], expiry: null },
  identity: {
    key: "id",
    unique: ["subjectKey"],
    lists: ["userId"],
    expiry: null,
  },
  sso_flow: { key: "tokenHash", unique: [], lists: [], expiry: "expiresAt" },
  logout_token: { key: "key", unique: [], lists: [], expiry: "expiresAt" },
} as const satisfies {
  [K in Kind]: {
    key: keyof RecordKinds[K] & string;
    unique: readonly (keyof RecordKinds[K] & string)[];
    lists: readonly (keyof RecordKinds[K] & string)[];
    expiry: (keyof RecordKinds[K] & string) | null;
  };
};

/**
 * The primary key of a record of `kind`: its `KINDS` key field, as text.
 * Every store keys its rows or entries by it.
 *
 * @example
 * ```ts
 * import { keyOf } from "./records.ts";
 *
 * console.assert(keyOf("passkey", { id: "p1", userId: "u1" }) === "p1");
 * ```
 */
export function keyOf(kind: Kind, value: object): string {
  return String((value as Record<string, unknown>)[KINDS[kind].key]);
}

/** The fields of kind `K` that are unique among its records. */
export type UniqueField<K extends Kind> = (typeof KINDS)[K]["unique"][number];
/** The fields records of kind `K` can be listed by. */
export type ListField<K extends Kind> = (typeof KINDS)[K]["lists"][number];
/** The kinds a sweep deletes by age. */
export type ExpiringKind = {
  [K in Kind]: (typeof KINDS)[K]["expiry"] extends null ? never : K;
}[Kind];

/**
 * A record with its version: an opaque string that changes whenever the
 * record is written (a Deno KV versionstamp, a PostgreSQL row's `xmin`, a
 * SQLite counter). A commit can require that it has not changed.
 */
export interface Versioned<T> {
  /** The record. */
  value: T;
  /** Its version. */
  version: string;
}

/** A read of one record: by its key, or by one of its unique fields. */
export type RecordRef = {
  [K in Kind]:
    | { kind: K; key: string }
    | { kind: K; unique: UniqueField<K>; value: string };
}[Kind];

/**
 * "This record still has this version", or, with `version: null`, "there
 * is no record with this key".
 */
export interface Check {
  /** Invitation or reset. */
  kind: Kind;
  /** The tally's name. */
  key: string;
  /** Its version. */
  version: string | null;
}

/**
 * A record written whole. `before` is the stored value it replaces, as the
 * commit's rule read it (null for a new record): a store that keeps its own
 * index entries (KV) removes the old ones by it. The rule must check that
 * record's version in the same commit, so `before` is what is stored.
 */
export type Put = {
  [K in Kind]: {
    kind: K;
    value: RecordKinds[K];
    before?: RecordKinds[K] | null;
  };
}[Kind];

/** A record deleted, given whole (for its index entries); absent is fine. */
export type Delete = {
  [K in Kind]: { kind: K; value: RecordKinds[K] };
}[Kind];

/** Adds `by` to the tally `key` (starting from 0), moving its version. */
export interface TallyMove {
  /** The tally's name. */
  key: string;
  /** How much to add (negative to subtract). */
  by: number;
}

/**
 * One atomic change: when every check holds, every put, delete, tally move
 * and event is applied; otherwise nothing is. At most 10 checks and 300
 * writes (Deno KV's limits, with room for index entries).
 */
export interface Commit {
  /** Versions (or absences) that must still hold. */
  checks?: readonly Check[];
  /** Records to write whole. */
  puts?: readonly Put[];
  /** Records to delete. */
  deletes?: readonly Delete[];
  /** Tally moves. */
  tallies?: readonly TallyMove[];
  /** Audit events to add. */
  events?: readonly AuditEvent[];
}

/** A page of accounts, as {@linkcode RecordStore.accounts} answers. */
export interface AccountQuery {
  /** At most this many. */
  limit: number;
  /** The cursor of the previous page, opaque. */
  cursor?: string;
  /** Folded text that the account's `emailKey` or `nameKey` contains. */
  q?: string;
  /** The order. */
  sort?: UserSort;
}

/** The answer of {@linkcode RecordStore.accounts}. */
export interface AccountPage {
  /** The page. */
  accounts: AccountRecord[];
  /** The cursor of the next page, or null at the end. */
  nextCursor: string | null;
  /** The number of matching accounts, when the store counts it. */
  total?: number;
}

/** A page of audit events, newest first (by id). */
export interface EventQuery {
  /** At most this many. */
  limit: number;
  /** The id of the last event of the previous page. */
  cursor?: string;
  /** Only events that name this account, as actor or target. */
  userId?: string;
  /** Only events of this type. */
  type?: AuditEventType;
}

/** A fixed-window counter of the login rate limiter. */
export interface Counter {
  /** Attempts counted in the current window. */
  count: number;
  /** When the window ends and the count starts again, ms. */
  resetAt: number;
}

/** What reserving an attempt asks for. */
export interface AttemptWindow {
  /** Now, ms. */
  now: number;
  /** Length of a new window, ms. */
  windowMs: number;
  /** Attempts a window admits. */
  limit: number;
}

/** The answer to a reservation: admitted or not, and the counter after it. */
export interface Reservation extends Counter {
  /** Whether the attempt was counted (false: the window is full). */
  admitted: boolean;
}

/**
 * The narrow store. Reads answer records with their versions; `commit`
 * applies a {@linkcode Commit} all or nothing. The limiter's counters keep
 * their own atomic reserve and release (a read-then-commit would add a
 * round trip to every limited request).
 *
 * @example A store's shape
 * ```ts
 * import type { RecordStore } from "@gatehouse/server/store";
 *
 * function describe(store: RecordStore): Promise<boolean> {
 *   return store.hasAccounts();
 * }
 * ```
 */
export interface RecordStore {
  /** Creates or upgrades the schema; idempotent and safe to run concurrently. */
  migrate(): Promise<void>;
  /**
   * The records behind `refs`, in order (null where there is none), read
   * together: one round trip.
   */
  read(refs: readonly RecordRef[]): Promise<(Versioned<unknown> | null)[]>;
  /** Every record of `kind` whose `field` is `value`. */
  list<K extends Kind>(
    kind: K,
    field: ListField<K>,
    value: string,
  ): Promise<Versioned<RecordKinds[K]>[]>;
  /** Applies `commit` if every check holds; returns whether it did. */
  commit(commit: Commit): Promise<boolean>;
  /** A page of accounts in the query's order. */
  accounts(query: AccountQuery): Promise<AccountPage>;
  /** Whether any account exists. */
  hasAccounts(): Promise<boolean>;
  /** A page of audit events, newest first. */
  events(query: EventQuery): Promise<AuditEvent[]>;
  /**
   * Deletes up to `limit` records of `kind` whose expiry field is at or
   * before `before`, with their index entries; returns how many.
   */
  deleteExpired(kind: ExpiringKind, before: number, limit: number): Promise<
    number
  >;
  /**
   * Reserves one attempt on the counter `key`: adds one unless its window
   * (open at `now`) already counts `limit`, starting a new window of
   * `windowMs` when there is none or the last one ended. Atomic across
   * instances, exact under any contention; a full window refuses without
   * writing.
   */
  reserveAttempt(key: string, window: AttemptWindow): Promise<Reservation>;
  /** Subtracts one from `key` if its window still ends at `resetAt` and its count is above zero. */
  releaseAttempt(key: string, resetAt: number): Promise<void>;
  /** The counter `key` if its window is still open at `now`, else null. */
  readCounter(key: string, now: number): Promise<Counter | null>;
  /** Deletes up to `limit` counters whose window ended by `now`. */
  deleteExpiredCounters(now: number, limit: number): Promise<number>;
}
