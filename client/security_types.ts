/**
 * The shapes of account security, second factors, passkeys and the audit
 * trail (DESIGN.md §8–§10), as the client hands them to your code: the
 * server's JSON with camelCase names, like the rest of `types.ts`.
 *
 * @module
 */

import type { AuditEventType, SecondFactorMethod } from "@gatehouse/contract";

export type { AuditEventType, SecondFactorMethod };

/**
 * What the password step of a sign-in answers when the account has a
 * second factor (HTTP 202): no session yet, the methods it may finish with
 * (`verifySecondFactor`). Tell it from a signed-in account with
 * {@linkcode isSecondFactorChallenge}.
 *
 * @example An account with an authenticator app
 * ```ts
 * import type { SecondFactorChallenge } from "@gatehouse/client";
 *
 * const challenge: SecondFactorChallenge = {
 *   kind: "secondFactor",
 *   methods: ["totp", "recovery_code"],
 * };
 * ```
 */
export interface SecondFactorChallenge {
  /** Always `"secondFactor"`: what sets it apart from a `SessionUser`. */
  readonly kind: "secondFactor";
  /** The methods the account has, at least one. */
  readonly methods: readonly SecondFactorMethod[];
}

/**
 * A proof of identity: the password, a code of the authenticator app, a
 * recovery code, or a passkey's assertion (the JSON
 * `@simplewebauthn/browser` answers). Exactly one.
 *
 * @example The password
 * ```ts
 * import type { Proof } from "@gatehouse/client";
 *
 * const proof: Proof = { password: "correct horse battery staple" };
 * ```
 */
export type Proof =
  | { readonly password: string }
  | { readonly code: string }
  | { readonly recoveryCode: string }
  | { readonly passkey: Readonly<Record<string, unknown>> };

/**
 * A second factor that finishes a sign-in: a code, a recovery code or a
 * passkey's assertion.
 *
 * @example A recovery code
 * ```ts
 * import type { SecondFactorProof } from "@gatehouse/client";
 *
 * const proof: SecondFactorProof = { recoveryCode: "k3v9-p2xq" };
 * ```
 */
export type SecondFactorProof = Exclude<Proof, { readonly password: string }>;

/**
 * A change of one's own account (`PATCH /api/auth/account`): the name, the
 * language of one's mail (`en` or a language the server's mail is written
 * in, such as `es`), or both; a field left out stays as it is.
 *
 * @example Mail in Spanish from now on
 * ```ts
 * import type { AccountUpdate } from "@gatehouse/client";
 *
 * const update: AccountUpdate = { locale: "es" };
 * ```
 */
export interface AccountUpdate {
  /** The display name (the name rules apply). */
  readonly name?: string;
  /** The language of one's mail: `en`, `es`… */
  readonly locale?: string;
}

/**
 * A change of one's own password.
 *
 * @example The two passwords
 * ```ts
 * import type { PasswordChange } from "@gatehouse/client";
 *
 * const change: PasswordChange = { currentPassword: "old one", newPassword: "a much longer new one" };
 * ```
 */
export interface PasswordChange {
  /** The password now (wire: `current_password`). */
  readonly currentPassword: string;
  /** The new password (wire: `new_password`). */
  readonly newPassword: string;
}

/**
 * A live session of the signed-in account.
 *
 * @example This browser
 * ```ts
 * import type { AccountSession } from "@gatehouse/client";
 *
 * const here: AccountSession = {
 *   id: "0190f0a0-0000-7000-8000-0000000000c1",
 *   createdAt: "2026-03-01T10:00:00.000Z",
 *   lastSeenAt: "2026-03-01T11:00:00.000Z",
 *   expiresAt: "2026-03-08T10:00:00.000Z",
 *   idleExpiresAt: "2026-03-02T11:00:00.000Z",
 *   ip: "203.0.113.7",
 *   userAgent: "Firefox on Linux",
 *   current: true,
 * };
 * ```
 */
export interface AccountSession {
  /** Its public id (never its token), a UUID. */
  readonly id: string;
  /** When it started, ISO 8601. */
  readonly createdAt: string;
  /** When it was last used, ISO 8601. */
  readonly lastSeenAt: string;
  /** When it ends whatever happens, ISO 8601. */
  readonly expiresAt: string;
  /** When it ends if unused until then, ISO 8601. */
  readonly idleExpiresAt: string;
  /** The client address it started from; empty when unknown. */
  readonly ip: string;
  /** A short label of browser and system ("Chrome on Linux"); empty when unknown. */
  readonly userAgent: string;
  /** Whether it is the session of this browser. */
  readonly current: boolean;
  /**
   * The name of the single sign-on provider whose sign-in made it, or null
   * for other sign-ins (DESIGN.md §13); absent from a server older than it.
   */
  readonly via?: string | null;
}

/**
 * A pending authenticator-app enrolment: the secret to type in, the
 * `otpauth://` URL, and its QR code as an SVG document.
 *
 * @example A setup
 * ```ts
 * import type { TotpSetup } from "@gatehouse/client";
 *
 * const setup: TotpSetup = {
 *   secret: "JBSWY3DPEHPK3PXP",
 *   otpauthUrl: "otpauth://totp/Gatehouse:ada%40example.com?secret=JBSWY3DPEHPK3PXP",
 *   qrSvg: "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>",
 * };
 * ```
 */
export interface TotpSetup {
  /** The secret in base32. */
  readonly secret: string;
  /** The URL an app reads from the QR code (wire: `otpauth_url`). */
  readonly otpauthUrl: string;
  /** The QR code, an SVG document (wire: `qr_svg`). */
  readonly qrSvg: string;
}

/**
 * One of the signed-in account's passkeys.
 *
 * @example A passkey never used yet
 * ```ts
 * import type { Passkey } from "@gatehouse/client";
 *
 * const key: Passkey = {
 *   id: "0190f0a0-0000-7000-8000-0000000000d1",
 *   name: "Laptop",
 *   createdAt: "2026-03-01T10:00:00.000Z",
 *   lastUsedAt: null,
 * };
 * ```
 */
export interface Passkey {
  /** Its own id (not the credential id), a UUID. */
  readonly id: string;
  /** The name its owner gave it. */
  readonly name: string;
  /** When it was registered, ISO 8601. */
  readonly createdAt: string;
  /** When it last signed in, ISO 8601; null before its first use. */
  readonly lastUsedAt: string | null;
}

/**
 * An account named by an audit event.
 *
 * @example
 * ```ts
 * import type { AuditAccount } from "@gatehouse/client/admin";
 *
 * const ada: AuditAccount = { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com" };
 * ```
 */
export interface AuditAccount {
  /**
   * The account id; null only in one's own activity, for another account
   * (an administrator) that acted on it and is not named.
   */
  readonly id: string | null;
  /** Its email when the event happened; null when `id` is. */
  readonly email: string | null;
}

/**
 * One security event: who did what to which account, when and from where.
 *
 * @example A role change
 * ```ts
 * import type { AuditEvent } from "@gatehouse/client/admin";
 *
 * const event: AuditEvent = {
 *   id: "0190f0a0-0000-7000-8000-0000000000e1",
 *   type: "user.role_changed",
 *   at: "2026-03-01T10:00:00.000Z",
 *   actor: { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com" },
 *   target: { id: "0190f0a0-0000-7000-8000-000000000002", email: "grace@example.com" },
 *   ip: "203.0.113.7",
 *   userAgent: "Firefox on Linux",
 *   detail: { from: "member", to: "admin" },
 * };
 * ```
 */
export interface AuditEvent {
  /** Its id, a UUIDv7. */
  readonly id: string;
  /** What happened. */
  readonly type: AuditEventType;
  /** When, ISO 8601. */
  readonly at: string;
  /** Who acted; null when no account is known. */
  readonly actor: AuditAccount | null;
  /** The account acted upon; null when none is known. */
  readonly target: AuditAccount | null;
  /**
   * The acting client's address; empty when unknown, and in one's own
   * activity for another account's action.
   */
  readonly ip: string;
  /** The acting client's browser label (wire: `user_agent`); empty as `ip`. */
  readonly userAgent: string;
  /**
   * Non-secret facts: the old and new role, the invited address (`email`),
   * the address of a failed sign-in (`email`, or `email_invalid: "true"`
   * when what was typed is not an address).
   */
  readonly detail: Readonly<Record<string, string>>;
}

/**
 * A page of audit events, newest first.
 *
 * @example The last page
 * ```ts
 * import type { AuditEventPage } from "@gatehouse/client/admin";
 *
 * const page: AuditEventPage = { events: [], nextCursor: null };
 * ```
 */
export interface AuditEventPage {
  /** The events of this page. */
  readonly events: readonly AuditEvent[];
  /** Pass as `cursor` for the next (older) page; null on the last (wire: `next_cursor`). */
  readonly nextCursor: string | null;
}

/**
 * Which page of one's own activity to read.
 *
 * @example The ten latest
 * ```ts
 * import type { ActivityQuery } from "@gatehouse/client";
 *
 * const query: ActivityQuery = { limit: 10 };
 * ```
 */
export interface ActivityQuery {
  /** At most this many events (the server caps it at 100). */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

/**
 * Which page of the audit log to read, and its filters.
 *
 * @example The role changes of one account
 * ```ts
 * import type { AuditQuery } from "@gatehouse/client/admin";
 *
 * const query: AuditQuery = {
 *   email: "grace@example.com",
 *   type: "user.role_changed",
 * };
 * ```
 */
export interface AuditQuery extends ActivityQuery {
  /** Only events whose actor or target is this account (wire: `user_id`). */
  readonly userId?: string;
  /**
   * Only events whose actor or target is the account that has this
   * address (any case); none for an address no account has. Not with
   * `userId`.
   */
  readonly email?: string;
  /** Only events of this type. */
  readonly type?: AuditEventType;
}

/**
 * Tells a sign-in that waits for its second factor from a finished one.
 *
 * @param value What `login` answered.
 * @returns True for a {@linkcode SecondFactorChallenge}.
 *
 * @example Signing in, in two steps when needed
 * ```ts
 * import { isSecondFactorChallenge, login } from "@gatehouse/client";
 *
 * async function signIn(email: string, password: string): Promise<string> {
 *   const result = await login(email, password);
 *   if (isSecondFactorChallenge(result)) return `next: ${result.methods.join(", ")}`;
 *   return `signed in as ${result.name}`;
 * }
 * ```
 */
export function isSecondFactorChallenge(
  value: unknown,
): value is SecondFactorChallenge {
  return typeof value === "object" && value !== null &&
    (value as { kind?: unknown }).kind === "secondFactor";
}

/**
 * WebAuthn options as the server sends them (JSON, base64url binary), for
 * `@simplewebauthn/browser`'s `startRegistration` / `startAuthentication`.
 *
 * @example Options passed on untouched
 * ```ts
 * import type { PasskeyOptions } from "@gatehouse/client";
 *
 * const options: PasskeyOptions = { challenge: "c2lnbiBtZSBpbg" };
 * ```
 */
export type PasskeyOptions = Readonly<Record<string, unknown>>;
