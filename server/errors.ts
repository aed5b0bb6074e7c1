/**
 * The one error type of Gatehouse and the table that maps each wire code to
 * its HTTP status. Everything the module refuses travels as an
 * {@linkcode AuthError}; anything else is masked as `internal`.
 *
 * @module
 */

/** HTTP status of every error code the module writes, in one table. */
export const ERROR_STATUS = {
  body_malformed: 400,
  body_field_required: 400,
  email_invalid: 400,
  name_required: 400,
  name_too_long: 400,
  password_too_short: 400,
  password_too_long: 400,
  password_too_common: 400,
  user_id_malformed: 400,
  invitation_id_malformed: 400,
  role_unknown: 400,
  credentials_invalid: 401,
  session_absent: 401,
  role_insufficient: 403,
  capability_missing: 403,
  role_beyond_reach: 403,
  self_disable_refused: 403,
  self_role_refused: 403,
  request_cross_origin: 403,
  user_not_found: 404,
  invitation_not_found: 404,
  email_taken: 409,
  role_changed: 409,
  last_privileged_refused: 409,
  token_invalid: 410,
  body_too_large: 413,
  login_rate_limited: 429,
  internal: 500,
} as const;

/** A short fixed name for an error; clients match on it. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Extra facts some codes carry, such as `meta.field` or `meta.capability`. */
export type ErrorMeta = Record<string, string>;

/** The JSON body of every error answer: `{error, code, meta?}`. */
export interface ErrorBody {
  /** A message in English, for people; it may change between versions. */
  error: string;
  /** The fixed code clients match on. */
  code: string;
  /** Present for some codes, e.g. `{field: "email"}`. */
  meta?: ErrorMeta;
}

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  body_malformed: "Request body is not valid JSON",
  body_field_required: "Request body is missing a required field",
  email_invalid: "Email address is not valid",
  name_required: "Name is required",
  name_too_long: "Name is too long",
  password_too_short: "Password is too short",
  password_too_long: "Password is too long",
  password_too_common:
    "Password is too common: choose one that is harder to guess",
  user_id_malformed: "User id is not a UUID",
  invitation_id_malformed: "Invitation id is not a UUID",
  role_unknown: "Role is not known",
  credentials_invalid: "Email or password is incorrect",
  session_absent: "Not signed in",
  role_insufficient: "Your role may not use this route",
  capability_missing: "Your role lacks a required capability",
  role_beyond_reach: "You may not hand out that role or change that account",
  self_disable_refused: "You cannot disable your own account",
  self_role_refused: "You cannot change your own role",
  request_cross_origin: "Cross-origin request refused",
  user_not_found: "User not found",
  invitation_not_found: "Invitation not found",
  email_taken: "Email address is already in use",
  role_changed: "The account's role changed; reload it and try again",
  last_privileged_refused:
    "Cannot remove the last account that may administer users",
  token_invalid: "This link is no longer valid",
  body_too_large: "Request body is too large",
  login_rate_limited: "Too many attempts; try again later",
  internal: "Internal server error",
};

/**
 * An error the module answers on the wire: it carries the code, the status
 * from {@linkcode ERROR_STATUS} and optional `meta`.
 *
 * @example Refusing a request from a custom handler
 * ```ts
 * import { AuthError } from "@gatehouse/server";
 *
 * const err = new AuthError("name_required");
 * console.assert(err.status === 400);
 * ```
 */
export class AuthError extends Error {
  /** The wire code. */
  readonly code: ErrorCode;
  /** The HTTP status for {@linkcode AuthError.code}. */
  readonly status: number;
  /** Extra facts for the client, e.g. `{field: "role"}`. */
  readonly meta: ErrorMeta | undefined;

  /**
   * Builds an error for `code`.
   *
   * @param code The wire code.
   * @param options An English message (the code's default otherwise) and `meta`.
   */
  constructor(code: ErrorCode, options: AuthErrorOptions = {}) {
    super(options.message ?? DEFAULT_MESSAGES[code]);
    this.name = "AuthError";
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.meta = options.meta;
  }
}

/** Options of {@linkcode AuthError}. */
export interface AuthErrorOptions {
  /** Message in English; defaults to the code's standard message. */
  message?: string;
  /** Extra facts for the client. */
  meta?: ErrorMeta;
}

/**
 * Maps an error to its status and JSON body. An {@linkcode AuthError} keeps its
 * code (`ok` is true); anything else becomes `internal` with a fixed message,
 * so no backend detail leaks (`ok` is false: log the original).
 *
 * Custom handlers chain their own cases before this one.
 *
 * @param err Whatever was thrown.
 * @returns `[status, body, ok]`.
 *
 * @example Answering a thrown error
 * ```ts
 * import { errorResponseForAuthError, respondError } from "@gatehouse/server";
 *
 * const [status, body, ok] = errorResponseForAuthError(new Error("pg down"));
 * console.assert(status === 500 && body.code === "internal" && !ok);
 * const response = respondError(status, body);
 * ```
 */
export function errorResponseForAuthError(
  err: unknown,
): [status: number, body: ErrorBody, ok: boolean] {
  if (err instanceof AuthError) {
    const body: ErrorBody = { error: err.message, code: err.code };
    if (err.meta !== undefined) body.meta = err.meta;
    return [err.status, body, true];
  }
  return [500, { error: DEFAULT_MESSAGES.internal, code: "internal" }, false];
}
