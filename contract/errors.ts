/**
 * Every error code of the HTTP contract with its status and default English
 * message, in one table. The server's `AuthError` and the client's status
 * knowledge both read it.
 *
 * @module
 */

/** A code's status and the English message the server sends by default. */
export interface ErrorDefinition {
  /** The HTTP status of every answer with this code. */
  readonly status: number;
  /** The default `error` text (sentence case, no trailing period). */
  readonly message: string;
}

/**
 * Every error code, its status and its default message (DESIGN.md §4). A
 * new code is one more row here; the server, the client and the OpenAPI
 * description pick it up from this table.
 *
 * @example The status of a code
 * ```ts
 * import { ERRORS } from "@gatehouse/contract";
 *
 * console.assert(ERRORS.token_invalid.status === 410);
 * ```
 */
export const ERRORS = {
  body_malformed: { status: 400, message: "Request body is not valid JSON" },
  body_field_required: {
    status: 400,
    message: "Request body is missing a required field",
  },
  email_invalid: { status: 400, message: "Email address is not valid" },
  name_required: { status: 400, message: "Name is required" },
  name_too_long: { status: 400, message: "Name is too long" },
  password_too_short: { status: 400, message: "Password is too short" },
  password_too_long: { status: 400, message: "Password is too long" },
  password_too_common: {
    status: 400,
    message: "Password is too common; choose another",
  },
  user_id_malformed: { status: 400, message: "User id is not a UUID" },
  role_unknown: { status: 400, message: "Role is not known" },
  credentials_invalid: {
    status: 401,
    message: "Email or password is incorrect",
  },
  session_absent: { status: 401, message: "Not signed in" },
  role_insufficient: {
    status: 403,
    message: "Your role may not use this route",
  },
  capability_missing: {
    status: 403,
    message: "Your role lacks a required capability",
  },
  role_beyond_reach: {
    status: 403,
    message: "You may not hand out that role or change that account",
  },
  self_disable_refused: {
    status: 403,
    message: "You cannot disable your own account",
  },
  self_role_refused: {
    status: 403,
    message: "You cannot change your own role",
  },
  request_cross_origin: {
    status: 403,
    message: "Cross-origin request refused",
  },
  user_not_found: { status: 404, message: "User not found" },
  invitation_not_found: { status: 404, message: "Invitation not found" },
  email_taken: { status: 409, message: "Email address is already in use" },
  role_changed: {
    status: 409,
    message: "The account's role changed; reload it and try again",
  },
  last_privileged_refused: {
    status: 409,
    message: "Cannot remove the last account that may administer users",
  },
  token_invalid: { status: 410, message: "This link is no longer valid" },
  body_too_large: { status: 413, message: "Request body is too large" },
  login_rate_limited: {
    status: 429,
    message: "Too many attempts; try again later",
  },
  internal: { status: 500, message: "Internal server error" },
} as const satisfies Record<string, ErrorDefinition>;

/**
 * A short fixed name for an error; clients match on it.
 *
 * @example Matching a code
 * ```ts
 * import type { ErrorCode } from "@gatehouse/contract";
 *
 * const retryable: ErrorCode[] = ["login_rate_limited", "internal"];
 * ```
 */
export type ErrorCode = keyof typeof ERRORS;

/**
 * The status of every error code, read off {@linkcode ERRORS}.
 *
 * @example A code's status
 * ```ts
 * import { ERROR_STATUS } from "@gatehouse/contract";
 *
 * console.assert(ERROR_STATUS.session_absent === 401);
 * ```
 */
export const ERROR_STATUS: { readonly [C in ErrorCode]: number } = Object
  .freeze(
    Object.fromEntries(
      Object.entries(ERRORS).map(([code, { status }]) => [code, status]),
    ) as { [C in ErrorCode]: number },
  );

/**
 * Tells whether `code` is one of the contract's codes.
 *
 * @param code Any string, e.g. the `code` of an answer.
 * @returns True for a code of {@linkcode ERRORS}.
 *
 * @example Recognising a code from a newer server
 * ```ts
 * import { isErrorCode } from "@gatehouse/contract";
 *
 * console.assert(isErrorCode("email_taken"));
 * console.assert(!isErrorCode("from_a_newer_server"));
 * ```
 */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERRORS, code);
}
