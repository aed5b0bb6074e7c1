/**
 * The wire shapes as TypeScript types, snake_case as on the wire, derived
 * from the schemas of `shapes.ts` by {@linkcode JsonOf}: a field is written
 * once, in its schema, and the server's answers, the client's reading and
 * the OpenAPI description all follow from it.
 *
 * @module
 */

import type {
  AUDIT_EVENT_TYPES,
  LINK_STATES,
  SchemaName,
  SCHEMAS,
  SECOND_FACTOR_METHODS,
  SSO_ERROR_CODES,
  USER_SORTS,
} from "./shapes.ts";

/**
 * The JSON value a JSON Schema of the contract describes: the subset the
 * contract uses (`type`, `properties`, `required`, `additionalProperties`,
 * `items`, `enum`, `const`, `oneOf` and `$ref`s to {@linkcode SCHEMAS}).
 *
 * @example The wire type of a schema
 * ```ts
 * import type { JsonOf } from "@gatehouse/contract";
 *
 * const schema = {
 *   type: "object",
 *   properties: { id: { type: "string" }, total: { type: "integer" } },
 *   required: ["id"],
 *   additionalProperties: false,
 * } as const;
 * const value: JsonOf<typeof schema> = { id: "a" };
 * ```
 */
export type JsonOf<S> = S extends {
  readonly $ref: `#/components/schemas/${infer N extends SchemaName}`;
} ? JsonOf<(typeof SCHEMAS)[N]>
  : S extends { readonly oneOf: readonly (infer O)[] } ? JsonOf<O>
  : S extends { readonly const: infer C } ? C
  : S extends { readonly enum: readonly (infer E)[] } ? E
  : S extends { readonly type: "array"; readonly items: infer I } ? JsonOf<I>[]
  // An object: the `required` keys, the others optional; an object that
  // is not closed (`additionalProperties: false`) holds more than it names.
  : S extends {
    readonly properties: infer P;
    readonly required: readonly (infer R)[];
  } ?
      & { -readonly [K in R & keyof P]: JsonOf<P[K]> }
      & { -readonly [K in Exclude<keyof P, R>]?: JsonOf<P[K]> }
      & (S extends { readonly additionalProperties: false } ? unknown
        : Record<string, unknown>)
  : S extends { readonly additionalProperties: infer A extends object }
    ? Record<string, JsonOf<A>>
  : S extends { readonly type: "object" } ? Record<string, unknown>
  : S extends { readonly type: infer T } ? (
      T extends readonly (infer U)[] ? U : T
    ) extends infer U ? U extends "string" ? string
      : U extends "integer" | "number" ? number
      : U extends "boolean" ? boolean
      : U extends "null" ? null
      : unknown
    : never
  : unknown;

/**
 * The JSON of the named wire shape.
 *
 * @example The signed-in account on the wire
 * ```ts
 * import type { WireOf } from "@gatehouse/contract";
 *
 * const identity: WireOf<"Identity"> = {
 *   id: "0190f0a0-0000-7000-8000-000000000001",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "admin",
 * };
 * ```
 */
export type WireOf<Name extends SchemaName> = JsonOf<(typeof SCHEMAS)[Name]>;

/**
 * The signed-in account on the wire (`login`, `fetchSession`, …).
 *
 * @example
 * ```ts
 * import type { IdentityJson } from "@gatehouse/contract";
 *
 * const me: IdentityJson = {
 *   id: "0190f0a0-0000-7000-8000-000000000001",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "admin",
 *   capabilities: ["users.manage"],
 *   second_factor: { totp: true, passkeys: 0 },
 * };
 * ```
 */
export type IdentityJson = WireOf<"Identity">;

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
export type ErrorBody = WireOf<"Error">;

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
export type UserJson = WireOf<"User">;

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
export type UserListJson = WireOf<"UserPage">;

/**
 * An order of `GET /api/users` (its `sort` query value): by creation, name
 * or email, ties broken by id; a leading `-` reverses it.
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
export type InviteAnswer = WireOf<"InviteAnswer">;

/**
 * What a live link is good for: `ready`, or `account_exists` for an
 * invitation whose address has an account.
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
export type LinkCheckJson = WireOf<"LinkCheck">;

/**
 * A pending invitation on the wire (DESIGN.md §8).
 *
 * @example An invitation from the first-run link
 * ```ts
 * import type { InvitationJson } from "@gatehouse/contract";
 *
 * const invitation: InvitationJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000a",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "member",
 *   invited_by: null,
 *   created_at: "2026-01-02T03:04:05.000Z",
 *   expires_at: "2026-01-09T03:04:05.000Z",
 * };
 * ```
 */
export type InvitationJson = WireOf<"Invitation">;

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
export type InvitationListJson = WireOf<"InvitationList">;

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
 * The second factors of an account, in its Identity (and, for an
 * administrator, in the list of accounts).
 *
 * @example An account with an authenticator app and one passkey
 * ```ts
 * import type { SecondFactorStateJson } from "@gatehouse/contract";
 *
 * const state: SecondFactorStateJson = { totp: true, passkeys: 1 };
 * ```
 */
export type SecondFactorStateJson = NonNullable<IdentityJson["second_factor"]>;

/**
 * The 202 answer of a password that was right for an account with a second
 * factor: the methods it has.
 *
 * @example
 * ```ts
 * import type { SecondFactorChallengeJson } from "@gatehouse/contract";
 *
 * const next: SecondFactorChallengeJson = { second_factor: ["totp", "recovery_code"] };
 * ```
 */
export type SecondFactorChallengeJson = WireOf<"SecondFactorChallenge">;

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
export type SessionJson = WireOf<"Session">;

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
export type SessionListJson = WireOf<"SessionList">;

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
export type TotpSetupJson = WireOf<"TotpSetup">;

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
export type RecoveryCodesJson = WireOf<"RecoveryCodes">;

/**
 * How many recovery codes the caller has left (0–10; 0 without an
 * authenticator app).
 *
 * @example Three left: time to make new ones
 * ```ts
 * import type { RecoveryCodeCountJson } from "@gatehouse/contract";
 *
 * const count: RecoveryCodeCountJson = { recovery_codes_left: 3 };
 * ```
 */
export type RecoveryCodeCountJson = WireOf<"RecoveryCodeCount">;

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
export type PasskeyJson = WireOf<"Passkey">;

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
export type PasskeyListJson = WireOf<"PasskeyList">;

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
 * An account as an audit event names it (both null in one's own activity
 * for an administrator who acted on the caller).
 *
 * @example
 * ```ts
 * import type { AuditAccountJson } from "@gatehouse/contract";
 *
 * const who: AuditAccountJson = { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com" };
 * ```
 */
export type AuditAccountJson = WireOf<"AuditAccount">;

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
export type AuditEventJson = WireOf<"AuditEvent">;

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
export type AuditEventPageJson = WireOf<"AuditEventPage">;

/**
 * A single sign-on provider on the wire: the login screen's button.
 *
 * @example
 * ```ts
 * import type { SsoProviderJson } from "@gatehouse/contract";
 *
 * const acme: SsoProviderJson = {
 *   id: "acme",
 *   name: "Acme",
 *   domains: ["acme.example"],
 *   enforce: true,
 * };
 * ```
 */
export type SsoProviderJson = WireOf<"SsoProvider">;

/**
 * The single sign-on providers on the wire.
 *
 * @example
 * ```ts
 * import type { SsoProviderListJson } from "@gatehouse/contract";
 *
 * const none: SsoProviderListJson = { providers: [] };
 * ```
 */
export type SsoProviderListJson = WireOf<"SsoProviderList">;

/**
 * An identity at a single sign-on provider linked to the caller.
 *
 * @example
 * ```ts
 * import type { SsoIdentityJson } from "@gatehouse/contract";
 *
 * const linked: SsoIdentityJson = {
 *   id: "0190f0a0-0000-7000-8000-00000000000d",
 *   provider: "acme",
 *   name: "Ada Lovelace",
 *   email: "ada@acme.example",
 *   linked_at: "2026-01-02T03:04:05.000Z",
 * };
 * ```
 */
export type SsoIdentityJson = WireOf<"SsoIdentity">;

/**
 * The caller's linked identities on the wire.
 *
 * @example
 * ```ts
 * import type { SsoIdentityListJson } from "@gatehouse/contract";
 *
 * const list: SsoIdentityListJson = { identities: [] };
 * ```
 */
export type SsoIdentityListJson = WireOf<"SsoIdentityList">;

/**
 * A `?sso_error=` code of the single sign-on callback.
 *
 * @example
 * ```ts
 * import type { SsoErrorCode } from "@gatehouse/contract";
 *
 * const code: SsoErrorCode = "sso_email_unverified";
 * ```
 */
export type SsoErrorCode = (typeof SSO_ERROR_CODES)[number];
