// The key layout of KvStore, in one place. Every key starts with the
// store's prefix so Gatehouse can share a Deno.Kv with the application.
//
//   user/{id}                          -> UserValue
//   user_email/{folded email}          -> id
//   accounts                           -> true once any account exists
//   decoy_account                      -> UserValue of no one: what an
//                                         unknown email reads instead
//   decoy_email                        -> its id: read beside it, so an
//                                         unknown email finds as many records
//   absent                             -> never written: read beside a known
//                                         account, so it misses as often
//   role_count/{role}                  -> KvU64: enabled accounts with the role
//   enabled_count                      -> KvU64: enabled accounts
//   session/{token hash}               -> SessionValue
//   session_user/{user id}/{hash}      -> expiresAt   (revocation, cap, cleanup)
//   session_seq/{user id}              -> number: bumped by each new session
//   session_expiry/{expiresAt}/{hash}  -> user id     (reaper)
//   link/{token hash}                  -> LinkRecord
//   link_invitation/{link id}          -> token hash  (pending invitations)
//   link_invitation_email/{folded email} -> token hash of the address's
//                                         latest invitation (a new one
//                                         replaces it); may name a link
//                                         spent since, which then counts as none
//   link_expiry/{expiresAt}/{hash}     -> link id of an invitation, else null (reaper)
//   audit/{event id}                   -> AuditEvent  (ids are UUIDv7: time order)
//   audit_user/{user id}/{event id}    -> null        (actor or target)
//   audit_type/{type}/{event id}       -> null
//   audit_user_type/{user id}/{type}/{event id} -> null
//   counter/{key}                      -> Counter
//   counter_expiry/{resetAt}/{key}     -> null        (reaper)
//   schema                             -> number
//
// Role counters are what keep "last privileged account" within Deno KV's
// limit of 10 checks per commit: a decision reads one counter per privileged
// role instead of every account. `accounts` is what the first-run
// invitation checks (every account creation writes it); `session_seq` is
// what orders the sign-ins of one account, so its session cap holds. An
// audit event is written with the change it records, in the same commit;
// its index entries let each filter of the audit log be one reverse range
// read, and the reaper walks `audit/` from its oldest id.

import type { AuditEvent, Counter, LinkRecord } from "../../core/store.ts";

/** An account as KvStore keeps it. */
export interface UserValue {
  id: string;
  email: string;
  /** The folded email, the key of `user_email`. */
  emailKey: string;
  name: string;
  role: string;
  disabled: boolean;
  createdAt: number;
  passwordHash: string;
  /** Bumped on disable and password reset; older sessions are dead. */
  generation: number;
  /** Second factors (./_factor_keys.ts); absent on older records. */
  totpEnabled?: boolean;
  passkeyCount?: number;
  factorVersion?: number;
}

/** A session as KvStore keeps it. */
export interface SessionValue {
  /** The public id. */
  id: string;
  userId: string;
  generation: number;
  createdAt: number;
  expiresAt: number;
  lastSeenAt: number;
  authenticatedAt: number;
  ip: string;
  userAgent: string;
}

export type { AuditEvent, Counter, LinkRecord };

/** Builds the keys of one store under `prefix`. */
export function kvKeys(prefix: Deno.KvKey) {
  return {
    user: (id: string): Deno.KvKey => [...prefix, "user", id],
    users: (): Deno.KvKey => [...prefix, "user"],
    userEmail: (emailKey: string): Deno.KvKey => [
      ...prefix,
      "user_email",
      emailKey,
    ],
    userEmails: (): Deno.KvKey => [...prefix, "user_email"],
    accounts: (): Deno.KvKey => [...prefix, "accounts"],
    decoyAccount: (): Deno.KvKey => [...prefix, "decoy_account"],
    decoyEmail: (): Deno.KvKey => [...prefix, "decoy_email"],
    absent: (): Deno.KvKey => [...prefix, "absent"],
    roleCount: (role: string): Deno.KvKey => [...prefix, "role_count", role],
    enabledCount: (): Deno.KvKey => [...prefix, "enabled_count"],
    session: (hash: string): Deno.KvKey => [...prefix, "session", hash],
    sessionUser: (userId: string, hash: string): Deno.KvKey => [
      ...prefix,
      "session_user",
      userId,
      hash,
    ],
    sessionsOfUser: (userId: string): Deno.KvKey => [
      ...prefix,
      "session_user",
      userId,
    ],
    sessionSeq: (userId: string): Deno.KvKey => [
      ...prefix,
      "session_seq",
      userId,
    ],
    sessionExpiry: (at: number, hash: string): Deno.KvKey => [
      ...prefix,
      "session_expiry",
      at,
      hash,
    ],
    sessionExpiries: (): Deno.KvKey => [...prefix, "session_expiry"],
    link: (hash: string): Deno.KvKey => [...prefix, "link", hash],
    links: (): Deno.KvKey => [...prefix, "link"],
    invitation: (id: string): Deno.KvKey => [
      ...prefix,
      "link_invitation",
      id,
    ],
    invitations: (): Deno.KvKey => [...prefix, "link_invitation"],
    invitationByEmail: (emailKey: string): Deno.KvKey => [
      ...prefix,
      "link_invitation_email",
      emailKey,
    ],
    linkExpiry: (at: number, hash: string): Deno.KvKey => [
      ...prefix,
      "link_expiry",
      at,
      hash,
    ],
    linkExpiries: (): Deno.KvKey => [...prefix, "link_expiry"],
    audit: (id: string): Deno.KvKey => [...prefix, "audit", id],
    audits: (): Deno.KvKey => [...prefix, "audit"],
    auditUser: (userId: string, id: string): Deno.KvKey => [
      ...prefix,
      "audit_user",
      userId,
      id,
    ],
    auditsOfUser: (userId: string): Deno.KvKey => [
      ...prefix,
      "audit_user",
      userId,
    ],
    auditType: (type: string, id: string): Deno.KvKey => [
      ...prefix,
      "audit_type",
      type,
      id,
    ],
    auditsOfType: (type: string): Deno.KvKey => [...prefix, "audit_type", type],
    auditUserType: (userId: string, type: string, id: string): Deno.KvKey => [
      ...prefix,
      "audit_user_type",
      userId,
      type,
      id,
    ],
    auditsOfUserType: (userId: string, type: string): Deno.KvKey => [
      ...prefix,
      "audit_user_type",
      userId,
      type,
    ],
    counter: (key: string): Deno.KvKey => [...prefix, "counter", key],
    counterExpiry: (at: number, key: string): Deno.KvKey => [
      ...prefix,
      "counter_expiry",
      at,
      key,
    ],
    counterExpiries: (): Deno.KvKey => [...prefix, "counter_expiry"],
    schema: (): Deno.KvKey => [...prefix, "schema"],
  };
}

/** The key builders of one store. */
export type KvKeys = ReturnType<typeof kvKeys>;

/** KvU64 `sum` wraps at 2^64, so adding 2^64-1 subtracts one. */
export const MINUS_ONE = 0xffff_ffff_ffff_ffffn;

/** Reads a KvU64 counter as a number (absent counts as zero). */
export function countOf(entry: Deno.KvEntryMaybe<unknown>): number {
  const value = entry.value;
  return value instanceof Deno.KvU64 ? Number(value.value) : 0;
}

/** Time-to-live for KV's own expiry: hygiene only, never the check. */
export function ttl(expiresAt: number, now: number): { expireIn?: number } {
  const left = expiresAt - now;
  // A margin keeps KV from removing a record before our own check says it
  // is dead; KV's expiry is lazy anyway.
  return left > 0 ? { expireIn: left + 60_000 } : {};
}
