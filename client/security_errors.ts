/**
 * The errors of account security, second factors and passkeys (DESIGN.md
 * §8–§9). Each is an `AuthClientError` with the server's code; the table
 * from code to class is in `_error_map.ts`.
 *
 * @module
 */

import {
  AuthClientError,
  type AuthClientErrorOptions,
  ValidationError,
} from "./errors.ts";

/**
 * The password given as proof is wrong (`password_incorrect`, 403): the
 * current password of a change (`field` is `current_password`) or the
 * password of a re-authentication (`field` is `password`). It counts toward
 * the login limiter.
 *
 * @example Marking the field
 * ```ts
 * import { PasswordIncorrectError } from "@gatehouse/client";
 *
 * const error = new PasswordIncorrectError(undefined, { meta: { field: "current_password" } });
 * console.assert(error.field === "current_password");
 * ```
 */
export class PasswordIncorrectError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The password is incorrect",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "password_incorrect", status: 403, ...options });
    this.name = "PasswordIncorrectError";
  }

  /** The field the server named (`meta.field`), if any. */
  get field(): string | undefined {
    return this.meta?.field;
  }
}

/**
 * A sensitive write needs a recent proof of identity
 * (`reauthentication_required`, 403): call `reauthenticate` and try again.
 * The screens do it with a dialog (`useReauthentication`).
 *
 * @example Proving it again, then retrying
 * ```ts
 * import { reauthenticate, ReauthenticationRequiredError } from "@gatehouse/client";
 *
 * async function again<T>(call: () => Promise<T>, password: string): Promise<T> {
 *   try {
 *     return await call();
 *   } catch (error) {
 *     if (!(error instanceof ReauthenticationRequiredError)) throw error;
 *     await reauthenticate({ password });
 *     return await call();
 *   }
 * }
 * ```
 */
export class ReauthenticationRequiredError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Confirm it is you: enter your password (or a code) again",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, {
      code: "reauthentication_required",
      status: 403,
      ...options,
    });
    this.name = "ReauthenticationRequiredError";
  }
}

/**
 * The account's role needs a second factor it has not enrolled
 * (`second_factor_required`, 403): only enrolment works until it does.
 *
 * @example Sending the person to enrolment
 * ```ts
 * import { SecondFactorRequiredError } from "@gatehouse/client";
 *
 * console.assert(new SecondFactorRequiredError().status === 403);
 * ```
 */
export class SecondFactorRequiredError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message =
      "Your role needs a second factor: set one up before anything else",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "second_factor_required", status: 403, ...options });
    this.name = "SecondFactorRequiredError";
  }
}

/**
 * A code of the authenticator app (or a recovery code) is not valid
 * (`code_invalid`, 400). Its `field` is the server's, or `code`.
 *
 * @example Marking the code field
 * ```ts
 * import { CodeInvalidError } from "@gatehouse/client";
 *
 * console.assert(new CodeInvalidError().field === "code");
 * ```
 */
export class CodeInvalidError extends ValidationError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The code is not valid",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "code_invalid", status: 400, ...options });
    this.name = "CodeInvalidError";
  }

  /** The field the server named, or `code`. */
  override get field(): string {
    return this.meta?.field ?? "code";
  }
}

/**
 * A passkey's answer could not be verified (`passkey_invalid`, 400).
 *
 * @example Recognising it
 * ```ts
 * import { PasskeyInvalidError } from "@gatehouse/client";
 *
 * console.assert(new PasskeyInvalidError().code === "passkey_invalid");
 * ```
 */
export class PasskeyInvalidError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The passkey could not be verified",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "passkey_invalid", status: 400, ...options });
    this.name = "PasskeyInvalidError";
  }
}

/**
 * The session id is not one of the caller's live sessions
 * (`session_not_found`, 404): it ended meanwhile, or is another account's.
 *
 * @example Recognising it
 * ```ts
 * import { SessionNotFoundError } from "@gatehouse/client";
 *
 * console.assert(new SessionNotFoundError().status === 404);
 * ```
 */
export class SessionNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Session not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "session_not_found", status: 404, ...options });
    this.name = "SessionNotFoundError";
  }
}

/**
 * The passkey id is not one of the caller's (`passkey_not_found`, 404).
 *
 * @example Recognising it
 * ```ts
 * import { PasskeyNotFoundError } from "@gatehouse/client";
 *
 * console.assert(new PasskeyNotFoundError().code === "passkey_not_found");
 * ```
 */
export class PasskeyNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Passkey not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "passkey_not_found", status: 404, ...options });
    this.name = "PasskeyNotFoundError";
  }
}

/**
 * An authenticator app is already enabled (`second_factor_enabled`, 409):
 * a setup or a confirmation came twice.
 *
 * @example Recognising it
 * ```ts
 * import { SecondFactorEnabledError } from "@gatehouse/client";
 *
 * console.assert(new SecondFactorEnabledError().status === 409);
 * ```
 */
export class SecondFactorEnabledError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "A second factor is already enabled",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "second_factor_enabled", status: 409, ...options });
    this.name = "SecondFactorEnabledError";
  }
}

/**
 * No authenticator app is enabled (`totp_not_enabled`, 409): recovery codes
 * or a code as proof need one.
 *
 * @example Recognising it
 * ```ts
 * import { TotpNotEnabledError } from "@gatehouse/client";
 *
 * console.assert(new TotpNotEnabledError().code === "totp_not_enabled");
 * ```
 */
export class TotpNotEnabledError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "No authenticator app is enabled for this account",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "totp_not_enabled", status: 409, ...options });
    this.name = "TotpNotEnabledError";
  }
}
