/**
 * The wire shapes as TypeScript types, snake_case as on the wire. They
 * mirror `SCHEMAS` (shapes.ts); the server builds its answers with them and
 * the tests check every answer against the schemas.
 *
 * @module
 */

import type {
  AUDIT_EVENT_TYPES,
  LINK_STATES,
  SECOND_FACTOR_METHODS,
  USER_SORTS,
} from "./shapes.ts";

/**
 * The JSON body of every error answer: `{error, code, meta?}`.
 *
 * @example A refusal
 * ```ts
 * import type { ErrorBody } from "@gatehouse/contract";
 *
 * const body: ErrorBody = { error: "Name is required", code: "name_required", meta: { field: "name" } };
 * ```
 */
export interface ErrorBody {
  /** A message in English, for people; it may change between versions. */
  error: string;
  /** The fixed code clients match on. */
  code: string;
  /** Present for some codes, e.g. `{field: "email"}`. */
  meta?: Record<string, string>;
}

/**
 * An account on the wire (DESIGN.md §4).
 *
 * @example An account
 * ```ts
 * import type { UserJson } from "@gatehouse/contract";
 *
 * const user: UserJson = {
 *   id: "0190f0a0-0000-7000-8000-000000000002",
 *   email: "grace@example.com",
 *   name: "Grace",
 *   role: "member",
 *   disabled: false,
 *   created_at: "2026-01-02T03:04:05.000Z",
 * };
 * ```
 */
export interface UserJson {
  /** A UUID. */
  id: string;
  /** As stored: trimmed, original case. */
  email: string;
  /** Display name. */
  name: string;
  /** The role; empty for none. */
  role: string;
  /** Whether the account is disabled. */
  disabled: boolean;
  /** Creation time, ISO 8601. */
  created_at: string;
  /**
   * The account's second factors, in the list of accounts when the store
   * tells them (both built-in stores do): what an administrator could remove.
   */
  second_factor?: SecondFactorStateJson;
}

/**
 * A page of accounts on the wire.
 *
 * @example The last page
 * ```ts
 * import type { UserListJson } from "@gatehouse/contract";
 *
 * const page: UserListJson = { users: [], next_cursor: null };
 * ```
 */
export interface UserListJson {
  /** The accounts, in the order asked for (oldest first by default). */
  users: UserJson[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** How many accounts match over every page, when the store counts them. */
  total?: number;
}

/**
 * An order of `GET /api/users` (its `sort` query value): by creation, name
 * or email, ties broken by id; a leading `-` reverses it. The values are
 * {@linkcode USER_SORTS}.
 *
 * @example Newest first
 * ```ts
 * import type { UserSort } from "@gatehouse/contract";
 *
 * const newest: UserSort = "-created";
 * ```
 */
export type UserSort = (typeof USER_SORTS)[number];

/**
 * The invitation answer: mailed, or the link handed back to the
 * administrator.
 *
 * @example Not mailed
 * ```ts
 * import type { InviteAnswer } from "@gatehouse/contract";
 *
 * const answer: InviteAnswer = { delivered: false, activation_link: "https://app.example/invite#token=abc" };
 * ```
 */
export type InviteAnswer =
  | { delivered: true }
  | { delivered: false; activation_link: string };

/**
 * What a live link is good for ({@linkcode LINK_STATES}): `ready`, or
 * `account_exists` for an invitation whose address has an account.
 *
 * @example A link to follow
 * ```ts
 * import type { LinkState } from "@gatehouse/contract";
 *
 * const state: LinkState = "ready";
 * ```
 */
export type LinkState = (typeof LINK_STATES)[number];

/**
 * The answer of `POST /api/auth/links/check` `{token, kind}`.
 *
 * @example An invitation for an address that has an account
 * ```ts
 * import type { LinkCheckJson } from "@gatehouse/contract";
 *
 * const check: LinkCheckJson = { status: "account_exists" };
 * ```
 */
export interface LinkCheckJson {
  /** What the link is good for. */
  status: LinkState;
}

/**
 * A pending invitation on the wire (DESIGN.md §8). `id` is its own UUID,
 * never the token; `role` is `""` for none.
 *
 * @example An invitation sent by an administrator
 * ```ts
 * import type { InvitationJson } from "@gatehouse/contract";
 *
 * const invitation: InvitationJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000a",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "member",
 *   invited_by: { id: "0190f0a0-0000-7000-8000-000000000001", email: "root@example.com", name: "Root" },
 *   created_at: "2026-01-02T03:04:05.000Z",
 *   expires_at: "2026-01-09T03:04:05.000Z",
 * };
 * ```
 */
export interface InvitationJson {
  /** The invitation's own id, a UUID. */
  id: string;
  /** Who is invited. */
  email: string;
  /** Their display name to be. */
  name: string;
  /** The role they get; empty for none. */
  role: string;
  /** Who sent it; null when no account did (the first-run link). */
  invited_by: { id: string; email: string; name: string } | null;
  /** When it was sent, ISO 8601. */
  created_at: string;
  /** When its link dies, ISO 8601. */
  expires_at: string;
}

/**
 * The list of pending invitations on the wire.
 *
 * @example No invitations
 * ```ts
 * import type { InvitationListJson } from "@gatehouse/contract";
 *
 * const list: InvitationListJson = { invitations: [] };
 * ```
 */
export interface InvitationListJson {
  /** The pending invitations, newest first. */
  invitations: InvitationJson[];
}

/**
 * A kind of second factor: `totp`, `recovery_code` or `passkey`.
 *
 * @example
 * ```ts
 * import type { SecondFactorMethod } from "@gatehouse/contract";
 *
 * const method: SecondFactorMethod = "totp";
 * ```
 */
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/**
 * The second factors of the caller's own account, in its Identity.
 *
 * @example An account with an authenticator app and one passkey
 * ```ts
 * import type { SecondFactorStateJson } from "@gatehouse/contract";
 *
 * const state: SecondFactorStateJson = { totp: true, passkeys: 1 };
 * ```
 */
export interface SecondFactorStateJson {
  /** Whether an authenticator app (TOTP) is enabled. */
  totp: boolean;
  /** How many passkeys the account has. */
  passkeys: number;
}

/**
 * The 202 answer of a password that was right for an account with a second
 * factor: the methods it has. The pending sign-in cookie rides with it.
 *
 * @example
 * ```ts
 * import type { SecondFactorChallengeJson } from "@gatehouse/contract";
 *
 * const next: SecondFactorChallengeJson = { second_factor: ["totp", "recovery_code"] };
 * ```
 */
export interface SecondFactorChallengeJson {
  /** The methods the account has, at least one. */
  second_factor: SecondFactorMethod[];
}

/**
 * A session of the caller on the wire (DESIGN.md §8).
 *
 * @example
 * ```ts
 * import type { SessionJson } from "@gatehouse/contract";
 *
 * const session: SessionJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000a",
 *   created_at: "2026-01-02T03:04:05.000Z",
 *   last_seen_at: "2026-01-02T04:00:00.000Z",
 *   expires_at: "2026-01-09T03:04:05.000Z",
 *   idle_expires_at: "2026-01-03T04:00:00.000Z",
 *   ip: "198.51.100.7",
 *   user_agent: "Firefox on Linux",
 *   current: true,
 * };
 * ```
 */
export interface SessionJson {
  /** The session's own public id (never its token), a UUID. */
  id: string;
  /** When it started, ISO 8601. */
  created_at: string;
  /** When it was last used (recorded at most once a minute), ISO 8601. */
  last_seen_at: string;
  /** When it ends whatever happens (the absolute lifetime), ISO 8601. */
  expires_at: string;
  /** When it ends if unused until then (the idle timeout), ISO 8601. */
  idle_expires_at: string;
  /** The client address it started from; "" when unknown. */
  ip: string;
  /** A short label of the browser and system, e.g. "Chrome on Linux"; "" when unknown. */
  user_agent: string;
  /** Whether this is the session of the request that asked. */
  current: boolean;
}

/**
 * The caller's sessions on the wire.
 *
 * @example
 * ```ts
 * import type { SessionListJson } from "@gatehouse/contract";
 *
 * const list: SessionListJson = { sessions: [] };
 * ```
 */
export interface SessionListJson {
  /** Live sessions, newest first. */
  sessions: SessionJson[];
}

/**
 * The start of a TOTP enrolment: the secret three ways.
 *
 * @example
 * ```ts
 * import type { TotpSetupJson } from "@gatehouse/contract";
 *
 * const setup: TotpSetupJson = {
 *   secret: "JBSWY3DPEHPK3PXP",
 *   otpauth_url: "otpauth://totp/Gatehouse:ada%40example.com?secret=JBSWY3DPEHPK3PXP",
 *   qr_svg: "<svg xmlns='http://www.w3.org/2000/svg'></svg>",
 * };
 * ```
 */
export interface TotpSetupJson {
  /** The secret in base32, to type into an app. */
  secret: string;
  /** The `otpauth://totp/...` URL an app reads from the QR code. */
  otpauth_url: string;
  /** The QR code of `otpauth_url`, as an SVG document. */
  qr_svg: string;
}

/**
 * Recovery codes, shown once.
 *
 * @example
 * ```ts
 * import type { RecoveryCodesJson } from "@gatehouse/contract";
 *
 * const codes: RecoveryCodesJson = { recovery_codes: ["abcde-fghij"] };
 * ```
 */
export interface RecoveryCodesJson {
  /** Ten single-use codes. */
  recovery_codes: string[];
}

/**
 * How many recovery codes the caller has left: each works once, ten come
 * with an enrolment or a regeneration, and none without an authenticator
 * app.
 *
 * @example Three left: time to make new ones
 * ```ts
 * import type { RecoveryCodeCountJson } from "@gatehouse/contract";
 *
 * const count: RecoveryCodeCountJson = { recovery_codes_left: 3 };
 * ```
 */
export interface RecoveryCodeCountJson {
  /** Unused recovery codes, 0–10; 0 when TOTP is off. */
  recovery_codes_left: number;
}

/**
 * A passkey of the caller on the wire.
 *
 * @example
 * ```ts
 * import type { PasskeyJson } from "@gatehouse/contract";
 *
 * const passkey: PasskeyJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000b",
 *   name: "Laptop",
 *   created_at: "2026-01-02T03:04:05.000Z",
 *   last_used_at: null,
 * };
 * ```
 */
export interface PasskeyJson {
  /** Its own id (not the WebAuthn credential id), a UUID. */
  id: string;
  /** A name its owner chose. */
  name: string;
  /** When it was registered, ISO 8601. */
  created_at: string;
  /** When it last signed in, ISO 8601; null before its first use. */
  last_used_at: string | null;
}

/**
 * The caller's passkeys on the wire.
 *
 * @example
 * ```ts
 * import type { PasskeyListJson } from "@gatehouse/contract";
 *
 * const list: PasskeyListJson = { passkeys: [] };
 * ```
 */
export interface PasskeyListJson {
  /** Oldest first. */
  passkeys: PasskeyJson[];
}

/**
 * A type of audit event.
 *
 * @example
 * ```ts
 * import type { AuditEventType } from "@gatehouse/contract";
 *
 * const type: AuditEventType = "login.failed";
 * ```
 */
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * An account as an audit event names it.
 *
 * @example
 * ```ts
 * import type { AuditAccountJson } from "@gatehouse/contract";
 *
 * const who: AuditAccountJson = { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com" };
 * ```
 */
export interface AuditAccountJson {
  /**
   * The account id; null only in one's own activity, for another account
   * (an administrator) that acted on the caller and is not named.
   */
  id: string | null;
  /** Its email when the event happened; null when `id` is. */
  email: string | null;
}

/**
 * An audit event on the wire (DESIGN.md §10).
 *
 * @example A role change
 * ```ts
 * import type { AuditEventJson } from "@gatehouse/contract";
 *
 * const event: AuditEventJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000c",
 *   type: "user.role_changed",
 *   at: "2026-01-02T03:04:05.000Z",
 *   actor: { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com" },
 *   target: { id: "0190f0a0-0000-7000-8000-000000000002", email: "grace@example.com" },
 *   ip: "198.51.100.7",
 *   user_agent: "Firefox on Linux",
 *   detail: { old_role: "member", new_role: "admin" },
 * };
 * ```
 */
export interface AuditEventJson {
  /** The event's id, a UUIDv7 (ids sort by time). */
  id: string;
  /** What happened. */
  type: AuditEventType;
  /** When, ISO 8601. */
  at: string;
  /** Who acted; null when no account is known. */
  actor: AuditAccountJson | null;
  /** The account acted upon; null when none is known. */
  target: AuditAccountJson | null;
  /**
   * The acting client's address; "" when unknown, and in one's own
   * activity for an action of another account.
   */
  ip: string;
  /** The acting client's browser and system label; "" as `ip`. */
  user_agent: string;
  /**
   * Non-secret facts (old and new role, the invited address…). A failed
   * sign-in holds the attempted `email` only when it is an account's
   * address or looks deliverable, else `email_invalid: "true"` (what was
   * typed may be a password).
   */
  detail: Record<string, string>;
}

/**
 * A page of audit events on the wire.
 *
 * @example The last page
 * ```ts
 * import type { AuditEventPageJson } from "@gatehouse/contract";
 *
 * const page: AuditEventPageJson = { events: [], next_cursor: null };
 * ```
 */
export interface AuditEventPageJson {
  /** Newest first. */
  events: AuditEventJson[];
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  next_cursor: string | null;
}
