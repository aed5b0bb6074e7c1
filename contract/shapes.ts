/**
 * The shapes of the HTTP contract as JSON Schema (draft 2020-12, the
 * dialect of OpenAPI 3.1): the named wire shapes in {@linkcode SCHEMAS},
 * and for each operation its request (body, query, path values) and its
 * answer in {@linkcode SHAPES}. Answers are closed (`additionalProperties:
 * false`) so a field the contract does not name is caught by the tests that
 * check every answer; requests are open, as the server ignores fields it
 * does not read.
 *
 * @module
 */

import type { ErrorCode } from "./errors.ts";
import { type Method, type OperationName, OPERATIONS } from "./operations.ts";

// What decoding a JSON body may refuse (the bounded `decode`).
const JSON_BODY = [
  "body_malformed",
  "body_too_large",
  "body_field_required",
] as const satisfies readonly ErrorCode[];

// What a new password may be refused for.
const NEW_PASSWORD = [
  "password_too_short",
  "password_too_long",
  "password_too_common",
] as const satisfies readonly ErrorCode[];

/**
 * The shape of an email address the server accepts (`email_invalid`
 * otherwise): one `@` with text on both sides, and no whitespace, control
 * or format character anywhere. Tested after trimming and NFC, beside the
 * length limit. The server's input rule and the screens' own check before
 * sending both use it, so they cannot drift apart.
 *
 * @example
 * ```ts
 * import { EMAIL_SHAPE } from "@gatehouse/contract";
 *
 * console.assert(EMAIL_SHAPE.test("ada@example.com"));
 * console.assert(!EMAIL_SHAPE.test("ada@@example.com"));
 * console.assert(!EMAIL_SHAPE.test("ada\u200b@example.com"));
 * ```
 */
export const EMAIL_SHAPE: RegExp = /^[^\s@\p{Cc}\p{Cf}]+@[^\s@\p{Cc}\p{Cf}]+$/u;

/**
 * The domain of an address (after its last `@`) as DNS spells it, or null:
 * lower case, and an international name in its ASCII form (UTS #46, as a
 * URL's host), since a provider's `domains` are written in punycode. So
 * `ada@bücher.example` is in `xn--bcher-kva.example`, and a full-width
 * `ａｃｍｅ.example` is `acme.example`: an address typed either way meets
 * the same provider (an enforcing one above all). The server's single
 * sign-on and the login screen's choice of providers both use it.
 *
 * @param email An address.
 * @returns The domain, or null when there is none.
 *
 * @example
 * ```ts
 * import { emailDomain } from "@gatehouse/contract";
 *
 * console.assert(emailDomain("Ada@Example.COM") === "example.com");
 * console.assert(emailDomain("ada@bücher.example") === "xn--bcher-kva.example");
 * ```
 */
export function emailDomain(email: string | null): string | null {
  if (email === null) return null;
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return null;
  const domain = email.slice(at + 1).normalize("NFC").toLowerCase();
  // Only a name the URL parser reads whole as a host: one holding `/`, `?`,
  // `#`, `:` or the like would be cut to a prefix (and could then match a
  // domain it is not), so it stays as it is, and matches nothing.
  if (!HOST_NAME.test(domain)) return domain;
  try {
    return new URL(`http://${domain}`).hostname;
  } catch {
    return domain;
  }
}

// Characters a URL's host may not hold or that end it: anything else is
// read whole.
const HOST_NAME = /^[^\s\p{Cc}/?#@:\\[\]%<>^|"'`{}]+$/u;

// What a name and an email may be refused for.
const PERSON = [
  "email_invalid",
  "name_required",
  "name_too_long",
] as const satisfies readonly ErrorCode[];

/**
 * A JSON Schema (draft 2020-12) as a plain object.
 *
 * @example A schema
 * ```ts
 * import type { JsonSchema } from "@gatehouse/contract";
 *
 * const name: JsonSchema = { type: "string", minLength: 1 };
 * ```
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

const string = { type: "string" } as const;
const boolean = { type: "boolean" } as const;
const count = { type: "integer", minimum: 0 } as const;
const uuid = { type: "string", format: "uuid" } as const;
const time = { type: "string", format: "date-time" } as const;
const strings = { type: "array", items: string } as const;
const secondFactor = {
  type: "object",
  properties: { totp: boolean, passkeys: count },
  required: ["totp", "passkeys"],
  additionalProperties: false,
} as const;
const auditAccount = { $ref: "#/components/schemas/AuditAccount" } as const;

// An object schema whose keys are all required but `optional`. Answers are
// closed (no field the contract does not name); request bodies are open.
function object(
  properties: Record<string, JsonSchema>,
  options: { optional?: readonly string[]; open?: boolean } = {},
): JsonSchema {
  const optional = options.optional ?? [];
  return {
    type: "object",
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    ...(options.open ? {} : { additionalProperties: false }),
  };
}

const body = (
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
) => object(properties, { optional, open: true });

/**
 * The kinds of second factor an account may have, as the password step of a
 * sign-in names them (DESIGN.md §9).
 *
 * @example The methods of an account with TOTP
 * ```ts
 * import { SECOND_FACTOR_METHODS } from "@gatehouse/contract";
 *
 * console.assert(SECOND_FACTOR_METHODS.includes("recovery_code"));
 * ```
 */
export const SECOND_FACTOR_METHODS = [
  "totp",
  "recovery_code",
  "passkey",
] as const;

/**
 * Every type of audit event (DESIGN.md §10).
 *
 * @example Filtering the audit log by type
 * ```ts
 * import { AUDIT_EVENT_TYPES } from "@gatehouse/contract";
 *
 * console.assert(AUDIT_EVENT_TYPES.includes("user.role_changed"));
 * ```
 */
export const AUDIT_EVENT_TYPES = [
  "login.succeeded",
  "login.failed",
  "login.rate_limited",
  "login.locked",
  "login.unlocked",
  "logout",
  "session.revoked",
  "password.changed",
  "password.reset_requested",
  "password.reset",
  "reauthenticated",
  "user.created",
  "user.disabled",
  "user.enabled",
  "user.role_changed",
  "user.sessions_revoked",
  "invitation.created",
  "invitation.accepted",
  "invitation.revoked",
  "second_factor.enabled",
  "second_factor.disabled",
  "recovery_codes.regenerated",
  "recovery_code.used",
  "passkey.added",
  "passkey.removed",
  "sso.linked",
  "sso.unlinked",
  "user.role_sync_skipped",
  "account.updated",
] as const;

/**
 * Why a single sign-on failed, as the callback tells the browser in
 * `?sso_error=CODE` (DESIGN.md §13), and as `login.failed` records it in
 * `detail.reason`.
 *
 * @example Reading the code back on the login screen
 * ```ts
 * import { SSO_ERROR_CODES } from "@gatehouse/contract";
 *
 * const code = new URL("https://app.example/?sso_error=sso_denied")
 *   .searchParams.get("sso_error");
 * console.assert((SSO_ERROR_CODES as readonly (string | null)[]).includes(code));
 * ```
 */
export const SSO_ERROR_CODES = [
  "sso_state_invalid",
  "sso_denied",
  "sso_token_invalid",
  "sso_email_unverified",
  "sso_account_unknown",
  "sso_account_disabled",
  "sso_domain_refused",
] as const;

/**
 * What checking a live link answers (`POST /api/auth/links/check`):
 * `ready` (the page may ask for a password), or, for an invitation whose
 * address has an account since, `account_exists` (sign in or reset the
 * password instead; the link can create nothing). A dead link is 410
 * `token_invalid`.
 *
 * @example Reading a check
 * ```ts
 * import { LINK_STATES } from "@gatehouse/contract";
 *
 * console.assert(LINK_STATES.includes("account_exists"));
 * ```
 */
export const LINK_STATES = ["ready", "account_exists"] as const;

/**
 * The named wire shapes (DESIGN.md §4, §8), snake_case as on the wire. The
 * OpenAPI description lists them under `components.schemas`; `$ref`s point
 * there.
 *
 * @example The fields of a User
 * ```ts
 * import { SCHEMAS } from "@gatehouse/contract";
 *
 * console.assert("created_at" in (SCHEMAS.User.properties as object));
 * ```
 */
export const SCHEMAS = {
  // The signed-in account (login, session, accepted invitation, second
  // factor, passkey sign-in). `capabilities` and `grantable` come from the
  // role; `second_factor` is the caller's own, and `second_factor_required`
  // says the role requires one the account has not enrolled yet.
  Identity: {
    type: "object",
    properties: {
      id: uuid,
      email: string,
      name: string,
      role: string,
      capabilities: strings,
      grantable: strings,
      second_factor: secondFactor,
      second_factor_required: boolean,
      // Whether the account has a password: one single sign-on made has
      // none until a reset link gives it one (DESIGN.md §13), so the
      // screens offer it no password to change or to confirm with. Only
      // in the caller's own. Every answer of this server has it; older
      // ones leave it out.
      has_password: boolean,
      // The language of the account's mail (DESIGN.md §14): `en` or a
      // shipped catalogue's tag, "" while none is known. Every answer of
      // this server has it; older ones leave it out.
      locale: string,
    },
    required: ["id", "email", "name", "role"],
    additionalProperties: false,
  },
  // An account (DESIGN.md §4); `role` is "" for none.
  User: {
    type: "object",
    properties: {
      id: uuid,
      email: string,
      name: string,
      role: string,
      disabled: boolean,
      created_at: time,
      // In the list of accounts, where the store tells it: whether
      // "Remove second factor" has anything to remove.
      second_factor: secondFactor,
      // Until when sign-ins to the address from browsers without a
      // trusted-device cookie are refused after failed attempts (DESIGN.md
      // §15), or null. Every answer of this server has it; older ones
      // leave it out.
      locked_until: { oneOf: [time, { type: "null" }] },
    },
    required: ["id", "email", "name", "role", "disabled", "created_at"],
    additionalProperties: false,
  },
  // `next_cursor` is null on the last page; `total` counts every page,
  // when the store counts.
  UserPage: {
    type: "object",
    properties: {
      users: { type: "array", items: { $ref: "#/components/schemas/User" } },
      next_cursor: { type: ["string", "null"] },
      total: count,
    },
    required: ["users", "next_cursor"],
    additionalProperties: false,
  },
  // Mailed, or the link handed back to the administrator.
  InviteAnswer: {
    oneOf: [
      {
        type: "object",
        properties: { delivered: { const: true } },
        required: ["delivered"],
        additionalProperties: false,
      },
      {
        type: "object",
        properties: {
          delivered: { const: false },
          activation_link: { type: "string", format: "uri" },
        },
        required: ["delivered", "activation_link"],
        additionalProperties: false,
      },
    ],
  },
  LinkCheck: {
    type: "object",
    properties: { status: { enum: LINK_STATES } },
    required: ["status"],
    additionalProperties: false,
  },
  // A pending invitation: `id` is its own, never the token; `invited_by`
  // is null for the first-run link, which no account sent.
  Invitation: {
    type: "object",
    properties: {
      id: uuid,
      email: string,
      name: string,
      role: string,
      invited_by: {
        oneOf: [
          {
            type: "object",
            properties: { id: uuid, email: string, name: string },
            required: ["id", "email", "name"],
            additionalProperties: false,
          },
          { type: "null" },
        ],
      },
      created_at: time,
      expires_at: time,
    },
    required: [
      "id",
      "email",
      "name",
      "role",
      "invited_by",
      "created_at",
      "expires_at",
    ],
    additionalProperties: false,
  },
  InvitationList: {
    type: "object",
    properties: {
      invitations: {
        type: "array",
        items: { $ref: "#/components/schemas/Invitation" },
      },
    },
    required: ["invitations"],
    additionalProperties: false,
  },
  // One of the caller's sessions: its public id (never its token), its
  // absolute and idle ends, and "" for an unknown address or browser.
  Session: {
    type: "object",
    properties: {
      id: uuid,
      created_at: time,
      last_seen_at: time,
      expires_at: time,
      idle_expires_at: time,
      ip: string,
      user_agent: string,
      current: boolean,
      // The name of the single sign-on provider whose sign-in made it, or
      // null for other sign-ins (DESIGN.md §13). Every answer of this
      // server has it; older ones leave it out.
      via: { type: ["string", "null"] },
    },
    required: [
      "id",
      "created_at",
      "last_seen_at",
      "expires_at",
      "idle_expires_at",
      "ip",
      "user_agent",
      "current",
    ],
    additionalProperties: false,
  },
  SessionList: {
    type: "object",
    properties: {
      sessions: {
        type: "array",
        items: { $ref: "#/components/schemas/Session" },
      },
    },
    required: ["sessions"],
    additionalProperties: false,
  },
  // The 202 of a right password for an account with a second factor.
  SecondFactorChallenge: {
    type: "object",
    properties: {
      second_factor: {
        type: "array",
        items: { enum: SECOND_FACTOR_METHODS },
        minItems: 1,
        uniqueItems: true,
      },
    },
    required: ["second_factor"],
    additionalProperties: false,
  },
  TotpSetup: {
    type: "object",
    properties: {
      secret: { type: "string", pattern: "^[A-Z2-7]+=*$" },
      otpauth_url: { type: "string", pattern: "^otpauth://totp/" },
      qr_svg: { type: "string", pattern: "^<svg" },
    },
    required: ["secret", "otpauth_url", "qr_svg"],
    additionalProperties: false,
  },
  RecoveryCodes: {
    type: "object",
    properties: {
      recovery_codes: {
        type: "array",
        items: string,
        minItems: 10,
        maxItems: 10,
      },
    },
    required: ["recovery_codes"],
    additionalProperties: false,
  },
  RecoveryCodeCount: {
    type: "object",
    properties: {
      recovery_codes_left: { type: "integer", minimum: 0, maximum: 10 },
    },
    required: ["recovery_codes_left"],
    additionalProperties: false,
  },
  // `last_used_at` is null before its first sign-in.
  Passkey: {
    type: "object",
    properties: {
      id: uuid,
      name: string,
      created_at: time,
      last_used_at: { oneOf: [time, { type: "null" }] },
    },
    required: ["id", "name", "created_at", "last_used_at"],
    additionalProperties: false,
  },
  PasskeyList: {
    type: "object",
    properties: {
      passkeys: {
        type: "array",
        items: { $ref: "#/components/schemas/Passkey" },
      },
    },
    required: ["passkeys"],
    additionalProperties: false,
  },
  PasskeyCreationOptions: {
    type: "object",
    required: ["challenge", "rp", "user", "pubKeyCredParams"],
    properties: { challenge: string },
  },
  PasskeyRequestOptions: {
    type: "object",
    required: ["challenge"],
    properties: { challenge: string },
  },
  // A single sign-on provider as the login screen shows it: its button
  // ("Sign in with {name}") and the address domains it speaks for.
  SsoProvider: {
    type: "object",
    properties: {
      id: { type: "string", pattern: "^[a-z0-9-]{1,32}$" },
      name: string,
      domains: strings,
      // Whether addresses in `domains` must sign in through it.
      enforce: boolean,
    },
    required: ["id", "name", "domains"],
    additionalProperties: false,
  },
  SsoProviderList: {
    type: "object",
    properties: {
      providers: {
        type: "array",
        items: { $ref: "#/components/schemas/SsoProvider" },
      },
    },
    required: ["providers"],
    additionalProperties: false,
  },
  // An identity at a provider linked to the caller's account: `id` is its
  // own, `provider` the provider's id, `name` and `email` the person's at
  // the provider ("" when it gave none).
  SsoIdentity: {
    type: "object",
    properties: {
      id: uuid,
      provider: string,
      name: string,
      email: string,
      linked_at: time,
    },
    required: ["id", "provider", "name", "email", "linked_at"],
    additionalProperties: false,
  },
  SsoIdentityList: {
    type: "object",
    properties: {
      identities: {
        type: "array",
        items: { $ref: "#/components/schemas/SsoIdentity" },
      },
    },
    required: ["identities"],
    additionalProperties: false,
  },
  // `ip` and `user_agent` are "" when unknown, and in one's own activity
  // for an action of another account. A failed sign-in's `detail` holds
  // the attempted `email` only when it is an account's address or looks
  // deliverable (what was typed may be a password).
  AuditEvent: {
    type: "object",
    properties: {
      id: uuid,
      type: { enum: AUDIT_EVENT_TYPES },
      at: time,
      actor: { oneOf: [auditAccount, { type: "null" }] },
      target: { oneOf: [auditAccount, { type: "null" }] },
      ip: string,
      user_agent: string,
      detail: { type: "object", additionalProperties: string },
    },
    required: [
      "id",
      "type",
      "at",
      "actor",
      "target",
      "ip",
      "user_agent",
      "detail",
    ],
    additionalProperties: false,
  },
  // Null id and email only in one's own activity (`listActivity`): another
  // account (an administrator) acted on the caller, and is not named.
  AuditAccount: {
    type: "object",
    properties: {
      id: { oneOf: [uuid, { type: "null" }] },
      email: { type: ["string", "null"] },
    },
    required: ["id", "email"],
    additionalProperties: false,
  },
  AuditEventPage: {
    type: "object",
    properties: {
      events: {
        type: "array",
        items: { $ref: "#/components/schemas/AuditEvent" },
      },
      next_cursor: { type: ["string", "null"] },
    },
    required: ["events", "next_cursor"],
    additionalProperties: false,
  },
  // `error` is English for people (it may change); `code` is what clients
  // match on; `meta` comes with some codes, e.g. `{field: "email"}`.
  Error: {
    type: "object",
    properties: {
      error: string,
      code: string,
      meta: { type: "object", additionalProperties: string },
    },
    required: ["error", "code"],
    additionalProperties: false,
  },
  OpenApiDocument: {
    type: "object",
    required: ["openapi", "info", "paths"],
    properties: { openapi: { const: "3.1.0" } },
  },
} as const;

/**
 * The name of a wire shape in {@linkcode SCHEMAS}.
 *
 * @example Naming a shape
 * ```ts
 * import type { SchemaName } from "@gatehouse/contract";
 *
 * const shape: SchemaName = "Identity";
 * ```
 */
export type SchemaName = keyof typeof SCHEMAS;

/** What an operation takes and answers, beyond its method and path. */
export interface OperationShape {
  /** One line for people (the OpenAPI summary). */
  readonly summary: string;
  /**
   * The refusals of its own. Those that follow from the guard, the limiter,
   * the method and the mount are added by {@linkcode errorsOf}.
   */
  readonly errors: readonly ErrorCode[];
  /** The JSON body, when the operation reads one. */
  readonly body?: JsonSchema;
  /**
   * The form body (`application/x-www-form-urlencoded`), when the
   * operation reads one instead of JSON (a provider's back-channel call).
   */
  readonly form?: JsonSchema;
  /**
   * Where the success's `Location` sends the browser, for an operation that
   * answers a redirect (a navigation, not a fetch).
   */
  readonly location?: string;
  /** Each query parameter, by name (all optional). */
  readonly query?: Readonly<Record<string, JsonSchema>>;
  /** Each path value, by name (the `:name`s of the path). */
  readonly params?: Readonly<Record<string, JsonSchema>>;
  /** The JSON answer of its success; absent for a success without a body. */
  readonly answer?: SchemaName;
  /**
   * Whether the success sets the session cookie (`set`), clears it
   * (`cleared`), sets the pending sign-in cookie (`pending`), sets the
   * single sign-on cookie (`sso`), or clears it and, after a sign-in,
   * sets the session cookie (`sso_done`).
   */
  readonly cookie?: CookieEffect;
  /**
   * A second success, other than `OPERATIONS[name].success` (the password
   * step of a sign-in that needs a second factor answers 202).
   */
  readonly alternative?: AlternativeSuccess;
}

/**
 * What a success does to the cookies: sets the session cookie, clears it,
 * sets the pending sign-in cookie of the second-factor step, sets the
 * single sign-on cookie at its start, or clears that one at its callback
 * (setting the session cookie after a sign-in).
 *
 * @example The password step of a two-step sign-in
 * ```ts
 * import type { CookieEffect } from "@gatehouse/contract";
 *
 * const effect: CookieEffect = "pending";
 * ```
 */
export type CookieEffect = "set" | "cleared" | "pending" | "sso" | "sso_done";

/**
 * A success other than an operation's main one.
 *
 * @example The 202 of a sign-in that waits for its second factor
 * ```ts
 * import type { AlternativeSuccess } from "@gatehouse/contract";
 *
 * const waiting: AlternativeSuccess = {
 *   status: 202,
 *   summary: "The password is right; the second factor is next",
 *   answer: "SecondFactorChallenge",
 *   cookie: "pending",
 * };
 * ```
 */
export interface AlternativeSuccess {
  /** Its status. */
  readonly status: number;
  /** One line for people. */
  readonly summary: string;
  /** Its JSON answer, if any. */
  readonly answer?: SchemaName;
  /** What it does to the cookies. */
  readonly cookie?: CookieEffect;
}

/**
 * The orders `GET /api/users` takes as `sort` ({@linkcode UserSort}):
 * creation (the default), lower-cased name or lower-cased email, each also
 * reversed by a leading `-`.
 *
 * @example Checking a query value
 * ```ts
 * import { USER_SORTS } from "@gatehouse/contract";
 *
 * console.assert((USER_SORTS as readonly string[]).includes("-name"));
 * ```
 */
export const USER_SORTS = [
  "created",
  "-created",
  "name",
  "-name",
  "email",
  "-email",
] as const;

// The proof of identity a re-authentication or a second-factor step takes:
// exactly one of these fields (the handler says which is missing).
const PROOF = {
  password: string,
  code: { type: "string", maxLength: 64 },
  recovery_code: { type: "string", maxLength: 64 },
  passkey: { type: "object" },
} as const;
const page = {
  limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
  cursor: uuid,
} as const;

const credentials = /* @__PURE__ */ body({ email: string, password: string });
const ssoProviderId = {
  id: { type: "string", pattern: "^[a-z0-9-]{1,32}$" },
} as const;
const linkSpend = /* @__PURE__ */ body({ token: string, password: string });
const byId = { id: uuid } as const;

/**
 * The request and answer of every operation, by the names of
 * `OPERATIONS` (the type makes a missing one an error).
 *
 * @example What creating an account takes and answers
 * ```ts
 * import { SHAPES } from "@gatehouse/contract";
 *
 * console.assert(SHAPES.createUser.answer === "User");
 * ```
 */
export const SHAPES: { readonly [Name in OperationName]: OperationShape } = {
  login: {
    summary: "Sign in with an email and a password",
    errors: [...JSON_BODY, "credentials_invalid", "sso_required"],
    body: credentials,
    answer: "Identity",
    cookie: "set",
    alternative: {
      status: 202,
      summary:
        "The password is right and the account has a second factor: send it to verifySecondFactor",
      answer: "SecondFactorChallenge",
      cookie: "pending",
    },
  },
  logout: {
    summary: "Sign out (also without a session)",
    errors: [],
    cookie: "cleared",
  },
  fetchSession: {
    summary: "The identity of the signed-in account",
    errors: [],
    answer: "Identity",
  },
  listUsers: {
    summary: "A page of accounts, oldest first unless sorted otherwise",
    errors: ["body_malformed"],
    query: {
      limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
      cursor: uuid,
      q: { type: "string", maxLength: 100 },
      sort: { enum: USER_SORTS, default: "created" },
    },
    answer: "UserPage",
  },
  createUser: {
    summary: "Create an account with a first password",
    errors: [
      ...JSON_BODY,
      ...PERSON,
      ...NEW_PASSWORD,
      "role_unknown",
      "role_beyond_reach",
      "email_taken",
    ],
    body: /* @__PURE__ */ body(
      { email: string, name: string, password: string, role: string },
      [
        "role",
      ],
    ),
    answer: "User",
  },
  setUserDisabled: {
    summary: "Disable or enable an account",
    errors: [
      ...JSON_BODY,
      "user_id_malformed",
      "role_unknown",
      "self_disable_refused",
      "role_beyond_reach",
      "user_not_found",
      "role_changed",
      "last_privileged_refused",
    ],
    params: byId,
    body: /* @__PURE__ */ body(
      { disabled: { type: "boolean" }, role: string },
      ["role"],
    ),
    answer: "User",
  },
  setUserRole: {
    summary: "Change the role of an account",
    errors: [
      ...JSON_BODY,
      "user_id_malformed",
      "role_unknown",
      "self_role_refused",
      "role_beyond_reach",
      "user_not_found",
      "last_privileged_refused",
    ],
    params: byId,
    body: /* @__PURE__ */ body({ role: string }),
    answer: "User",
  },
  invite: {
    summary: "Invite a person by email to set their own password",
    errors: [
      ...JSON_BODY,
      ...PERSON,
      "role_unknown",
      "role_beyond_reach",
      "mail_failed",
    ],
    body: /* @__PURE__ */ body({ email: string, name: string, role: string }, [
      "role",
    ]),
    answer: "InviteAnswer",
  },
  listInvitations: {
    summary: "The pending invitations, newest first",
    errors: [],
    answer: "InvitationList",
  },
  revokeInvitation: {
    summary: "Revoke a pending invitation; its link dies",
    errors: [
      "invitation_id_malformed",
      "invitation_not_found",
      "role_beyond_reach",
    ],
    params: byId,
  },
  acceptInvite: {
    summary: "Accept an invitation: set the password and sign in",
    errors: [...JSON_BODY, ...NEW_PASSWORD, "token_invalid", "sso_required"],
    body: linkSpend,
    answer: "Identity",
    cookie: "set",
  },
  requestPasswordReset: {
    summary:
      "Ask for a password-reset link (the same answer for every address)",
    errors: [...JSON_BODY, "email_invalid"],
    body: /* @__PURE__ */ body({ email: string }),
  },
  resetPassword: {
    summary: "Set a new password with a reset link",
    errors: [...JSON_BODY, ...NEW_PASSWORD, "token_invalid", "sso_required"],
    body: linkSpend,
  },
  checkLink: {
    summary:
      "Whether an invitation or reset link still works, before any password is typed",
    errors: [...JSON_BODY, "token_invalid"],
    body: /* @__PURE__ */ body({
      token: string,
      kind: { enum: ["invitation", "reset"] },
    }),
    answer: "LinkCheck",
  },
  changePassword: {
    summary:
      "Change one's own password: every session ends, a fresh one is issued",
    errors: [...JSON_BODY, ...NEW_PASSWORD, "password_incorrect"],
    body: /* @__PURE__ */ body({
      current_password: string,
      new_password: string,
    }),
    cookie: "set",
  },
  updateAccount: {
    summary:
      "Change one's own name or the language of one's mail (`en` or a shipped catalogue's tag)",
    errors: [...JSON_BODY, "name_required", "name_too_long", "locale_unknown"],
    body: /* @__PURE__ */ body({ name: string, locale: string }, [
      "name",
      "locale",
    ]),
    answer: "Identity",
  },
  reauthenticate: {
    summary: "Prove who you are again (password, code or passkey)",
    errors: [
      ...JSON_BODY,
      "password_incorrect",
      "code_invalid",
      "passkey_invalid",
      "totp_not_enabled",
    ],
    body: /* @__PURE__ */ object(PROOF, {
      optional: Object.keys(PROOF),
      open: true,
    }),
  },
  listSessions: {
    summary: "The caller's live sessions, newest first",
    errors: [],
    answer: "SessionList",
  },
  revokeSession: {
    summary: "End one of the caller's sessions (the current one too)",
    errors: ["session_id_malformed", "session_not_found"],
    params: byId,
  },
  revokeOtherSessions: {
    summary: "End every session of the caller but this one",
    errors: [],
  },
  revokeUserSessions: {
    summary: "End every session of an account, without disabling it",
    errors: ["user_id_malformed", "user_not_found", "role_beyond_reach"],
    params: byId,
  },
  setupTotp: {
    summary: "Start enrolling an authenticator app (TOTP)",
    errors: ["second_factor_enabled"],
    answer: "TotpSetup",
  },
  confirmTotp: {
    summary:
      "Finish enrolling an authenticator app with a code; answers the recovery codes, once",
    errors: [...JSON_BODY, "code_invalid", "second_factor_enabled"],
    body: /* @__PURE__ */ body({ code: PROOF.code }),
    answer: "RecoveryCodes",
  },
  // `login_rate_limited`: each account's own audited changes are bounded
  // per window (a script could otherwise grow the audit trail at will).
  disableTotp: {
    summary: "Remove the authenticator app and its recovery codes",
    errors: ["login_rate_limited"],
  },
  regenerateRecoveryCodes: {
    summary: "New recovery codes; the old ones die",
    errors: ["totp_not_enabled", "login_rate_limited"],
    answer: "RecoveryCodes",
  },
  countRecoveryCodes: {
    summary:
      "How many of the caller's recovery codes are left unused (0 without an authenticator app)",
    errors: [],
    answer: "RecoveryCodeCount",
  },
  verifySecondFactor: {
    summary:
      "Finish a sign-in that waits for its second factor (pending sign-in cookie)",
    errors: [...JSON_BODY, "credentials_invalid", "token_invalid"],
    body: /* @__PURE__ */ object(
      {
        code: PROOF.code,
        recovery_code: PROOF.recovery_code,
        passkey: PROOF.passkey,
      },
      { optional: ["code", "recovery_code", "passkey"], open: true },
    ),
    answer: "Identity",
    cookie: "set",
  },
  removeUserSecondFactor: {
    summary:
      "Remove every second factor of an account (a lost phone), within reach; an account without one answers 204 too, and nothing is recorded",
    errors: ["user_id_malformed", "user_not_found", "role_beyond_reach"],
    params: byId,
  },
  unlockUser: {
    summary:
      "Clear the account lock of an account (failed sign-ins counted against its address), within reach",
    errors: ["user_id_malformed", "user_not_found", "role_beyond_reach"],
    params: byId,
  },
  passkeyRegistrationOptions: {
    summary: "WebAuthn creation options for a new passkey",
    errors: [],
    answer: "PasskeyCreationOptions",
  },
  registerPasskey: {
    summary: "Register a passkey from the authenticator's response",
    // `login_rate_limited`: one's own audited changes are bounded per window.
    errors: [
      ...JSON_BODY,
      "passkey_invalid",
      "name_too_long",
      "login_rate_limited",
    ],
    body: /* @__PURE__ */ body({ response: { type: "object" }, name: string }, [
      "name",
    ]),
    answer: "Passkey",
  },
  listPasskeys: {
    summary: "The caller's passkeys",
    errors: [],
    answer: "PasskeyList",
  },
  renamePasskey: {
    summary: "Rename one of the caller's passkeys",
    errors: [
      ...JSON_BODY,
      "passkey_id_malformed",
      "passkey_not_found",
      "name_required",
      "name_too_long",
    ],
    params: byId,
    body: /* @__PURE__ */ body({ name: string }),
    answer: "Passkey",
  },
  removePasskey: {
    summary:
      "Remove one of the caller's passkeys; never the account's last way to sign in",
    errors: [
      "passkey_id_malformed",
      "passkey_not_found",
      "last_sign_in_method",
      "login_rate_limited",
    ],
    params: byId,
  },
  passkeyLoginOptions: {
    summary:
      "WebAuthn request options: for a sign-in, the pending second factor, or a re-authentication",
    errors: [],
    answer: "PasskeyRequestOptions",
  },
  loginWithPasskey: {
    summary: "Sign in with a passkey, no password",
    errors: [
      ...JSON_BODY,
      "credentials_invalid",
      "token_invalid",
      "sso_required",
    ],
    body: /* @__PURE__ */ body({ response: { type: "object" } }),
    answer: "Identity",
    cookie: "set",
  },
  listSsoProviders: {
    summary:
      "The single sign-on providers, in the order the login screen shows them",
    errors: [],
    answer: "SsoProviderList",
  },
  startSso: {
    summary:
      "Start a single sign-on (a browser navigation): 302 to the provider; with reauthenticate=1, renew the signed-in session's proof instead",
    errors: ["provider_not_found", "provider_unavailable", "session_absent"],
    params: ssoProviderId,
    query: {
      // A same-origin path (`/…`, not `//…`); anything else becomes `/`.
      return_to: { type: "string", maxLength: 1024 },
      // `1`: prompt=login and max_age=0, for the signed-in account.
      reauthenticate: { enum: ["1"] },
    },
    cookie: "sso",
    location: "The provider's authorization endpoint",
  },
  ssoCallback: {
    summary:
      "The provider's answer (a browser navigation): 303 to the return path signed in, or to /?sso_error=CODE",
    errors: ["provider_not_found", "provider_unavailable"],
    params: ssoProviderId,
    query: {
      code: string,
      state: string,
      iss: string,
      error: string,
    },
    cookie: "sso_done",
    location:
      "The return path given at the start, or `/?sso_error=CODE` (SSO_ERROR_CODES)",
  },
  ssoBackchannelLogout: {
    summary:
      "OpenID Connect Back-Channel Logout: the provider ends the sessions of a sign-in (sid) or a person (sub)",
    errors: [
      "body_malformed",
      "body_too_large",
      "body_field_required",
      "logout_token_invalid",
      "provider_not_found",
      "provider_unavailable",
    ],
    params: ssoProviderId,
    form: /* @__PURE__ */ body({ logout_token: string }),
  },
  listSsoIdentities: {
    summary: "The identities at single sign-on providers linked to the caller",
    errors: [],
    answer: "SsoIdentityList",
  },
  unlinkSsoIdentity: {
    summary:
      "Unlink one of the caller's identities; never the account's last way to sign in",
    errors: [
      "identity_id_malformed",
      "identity_not_found",
      "last_sign_in_method",
    ],
    params: byId,
  },
  listAuditEvents: {
    summary: "A page of audit events, newest first",
    errors: ["body_malformed"],
    query: {
      ...page,
      user_id: uuid,
      // The account that has this address now (not with user_id).
      email: string,
      type: { enum: AUDIT_EVENT_TYPES },
    },
    answer: "AuditEventPage",
  },
  listActivity: {
    summary: "A page of the caller's own audit events, newest first",
    errors: ["body_malformed"],
    query: page,
    answer: "AuditEventPage",
  },
  describeApi: {
    summary: "This API's OpenAPI 3.1 description",
    errors: [],
    answer: "OpenApiDocument",
  },
};

const SAFE_METHODS: ReadonlySet<Method> = /* @__PURE__ */ new Set(["GET"]);

/**
 * Every error code an operation may answer: its own, and those its guard
 * (`session_absent`, `role_insufficient`), its limiter
 * (`login_rate_limited`), the cross-origin guard on writes
 * (`request_cross_origin`) and any failure (`internal`) add.
 *
 * @param name The operation.
 * @returns The codes, without repeats.
 *
 * @example What listing accounts may answer
 * ```ts
 * import { errorsOf } from "@gatehouse/contract";
 *
 * console.assert(errorsOf("listUsers").includes("role_insufficient"));
 * console.assert(!errorsOf("listUsers").includes("request_cross_origin"));
 * ```
 */
export function errorsOf(name: OperationName): readonly ErrorCode[] {
  const spec: {
    method: Method;
    guard: string;
    limiter?: string;
    fresh?: boolean;
    beforeSecondFactor?: boolean;
  } = OPERATIONS[name];
  const codes = new Set<ErrorCode>(SHAPES[name].errors);
  if (spec.guard !== "public") codes.add("session_absent");
  if (spec.guard === "privileged") codes.add("role_insufficient");
  if (spec.fresh === true) codes.add("reauthentication_required");
  if (spec.guard !== "public" && spec.beforeSecondFactor !== true) {
    codes.add("second_factor_required");
  }
  if (spec.limiter !== undefined) codes.add("login_rate_limited");
  if (!SAFE_METHODS.has(spec.method)) codes.add("request_cross_origin");
  codes.add("internal");
  return [...codes];
}
