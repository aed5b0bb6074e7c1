/**
 * The contract's error codes, in two tables keyed alike: the status of every
 * code ({@linkcode ERROR_STATUS}, the one code→status table: the server's
 * `AuthError`, the client's error classes and its test harness all read it)
 * and the default English message the server sends
 * ({@linkcode ERROR_MESSAGES}). A new code is one row in each; the type of
 * the second makes a missing row an error. They are apart so that a client
 * bundle, which needs statuses, carries no messages.
 *
 * @module
 */

/**
 * The HTTP status of every error code (DESIGN.md §4).
 *
 * @example The status of a code
 * ```ts
 * import { ERROR_STATUS } from "@gatehouse/contract";
 *
 * console.assert(ERROR_STATUS.token_invalid === 410);
 * ```
 */
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
  session_id_malformed: 400,
  passkey_id_malformed: 400,
  identity_id_malformed: 400,
  role_unknown: 400,
  locale_unknown: 400,
  code_invalid: 400,
  passkey_invalid: 400,
  logout_token_invalid: 400,
  credentials_invalid: 401,
  session_absent: 401,
  role_insufficient: 403,
  capability_missing: 403,
  role_beyond_reach: 403,
  self_disable_refused: 403,
  self_role_refused: 403,
  request_cross_origin: 403,
  password_incorrect: 403,
  reauthentication_required: 403,
  second_factor_required: 403,
  sso_required: 403,
  user_not_found: 404,
  invitation_not_found: 404,
  session_not_found: 404,
  passkey_not_found: 404,
  provider_not_found: 404,
  identity_not_found: 404,
  email_taken: 409,
  role_changed: 409,
  last_privileged_refused: 409,
  second_factor_enabled: 409,
  totp_not_enabled: 409,
  last_sign_in_method: 409,
  token_invalid: 410,
  body_too_large: 413,
  login_rate_limited: 429,
  internal: 500,
  mail_failed: 502,
  provider_unavailable: 503,
} as const;

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
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * The default `error` text of every code (sentence case, no trailing
 * period); for people, it may change between versions.
 *
 * @example The message of a code
 * ```ts
 * import { ERROR_MESSAGES } from "@gatehouse/contract";
 *
 * console.assert(ERROR_MESSAGES.session_absent === "Not signed in");
 * ```
 */
export const ERROR_MESSAGES: { readonly [C in ErrorCode]: string } = {
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
  session_id_malformed: "Session id is not a UUID",
  passkey_id_malformed: "Passkey id is not a UUID",
  identity_id_malformed: "Identity id is not a UUID",
  role_unknown: "Role is not known",
  locale_unknown: "Language is not one the mail is written in",
  code_invalid: "The code is not valid",
  passkey_invalid: "The passkey could not be verified",
  logout_token_invalid: "The logout token is not valid",
  credentials_invalid: "Email or password is incorrect",
  session_absent: "Not signed in",
  role_insufficient: "Your role may not use this route",
  capability_missing: "Your role lacks a required capability",
  role_beyond_reach: "You may not hand out that role or change that account",
  self_disable_refused: "You cannot disable your own account",
  self_role_refused: "You cannot change your own role",
  request_cross_origin: "Cross-origin request refused",
  password_incorrect: "The password is incorrect",
  reauthentication_required:
    "Confirm it is you: enter your password (or a code) again",
  second_factor_required:
    "Your role needs a second factor: set one up before anything else",
  sso_required: "This address signs in with its organisation's single sign-on",
  user_not_found: "User not found",
  invitation_not_found: "Invitation not found",
  session_not_found: "Session not found",
  passkey_not_found: "Passkey not found",
  provider_not_found: "Sign-in provider not found",
  identity_not_found: "Linked identity not found",
  email_taken: "Email address is already in use",
  role_changed: "The account's role changed; reload it and try again",
  last_privileged_refused:
    "Cannot remove the last account that may administer users",
  second_factor_enabled: "A second factor is already enabled",
  totp_not_enabled: "No authenticator app is enabled for this account",
  last_sign_in_method:
    "This is the account's last way to sign in: add a password or a passkey first",
  token_invalid: "This link is no longer valid",
  body_too_large: "Request body is too large",
  login_rate_limited: "Too many attempts; try again later",
  internal: "Internal server error",
  mail_failed: "The mail could not be sent",
  provider_unavailable:
    "The sign-in provider cannot be reached; try again later",
};

/**
 * Tells whether `code` is one of the contract's codes.
 *
 * @param code Any string, e.g. the `code` of an answer.
 * @returns True for a code of {@linkcode ERROR_STATUS}.
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
  return Object.hasOwn(ERROR_STATUS, code);
}
