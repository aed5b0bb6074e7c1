/**
 * The typed errors the client throws. Every one is an
 * {@linkcode AuthClientError} carrying the wire `code`, the HTTP `status`
 * (0 when no answer came) and `meta`. Screens pick their words by class or by
 * `code`; `message` is the server's English text, for logs.
 *
 * The role errors live in `role_errors.ts`; the table from each server code
 * to its class in `_error_map.ts`.
 *
 * @module
 */

import type { ErrorCode as ContractErrorCode } from "@gatehouse/contract/errors";

/**
 * Every code the client knows: the server's codes (`ERROR_STATUS` of the
 * contract, DESIGN.md §4) and four of the client's own (`server_too_old`,
 * `invitation_failed`, `network_failed`, `response_malformed`). A newer
 * server may send codes not listed here; they still arrive as an
 * {@linkcode AuthClientError} of the nearest class.
 *
 * @example Words for a few codes
 * ```ts
 * import type { ErrorCode } from "@gatehouse/client";
 *
 * const words: Partial<Record<ErrorCode, string>> = {
 *   credentials_invalid: "Check your email and password",
 *   network_failed: "You seem to be offline",
 * };
 * ```
 */
export type ErrorCode =
  | ServerErrorCode
  | "server_too_old"
  | "invitation_failed"
  | "network_failed"
  | "response_malformed";

/**
 * A code the server writes: a key of the contract's `ERROR_STATUS`.
 *
 * @internal
 */
export type ServerErrorCode = ContractErrorCode;

/**
 * What every error class takes besides its message. Each class has defaults
 * for `code` and `status`, so a replacement transport can simply write
 * `new InvalidCredentialsError()`.
 *
 * @example Building an error in a replacement transport
 * ```ts
 * import { configureAuthTransport, resetAuthTransport, ValidationError } from "@gatehouse/client";
 *
 * configureAuthTransport({
 *   createUser: () =>
 *     Promise.reject(
 *       new ValidationError("Email address is not valid", {
 *         code: "email_invalid",
 *         meta: { field: "email" },
 *       }),
 *     ),
 * });
 * resetAuthTransport();
 * ```
 */
export interface AuthClientErrorOptions {
  /** The wire code; each class has its own default. */
  readonly code?: string;
  /** The HTTP status; 0 when no answer came. Each class has its own default. */
  readonly status?: number;
  /** Extra facts, e.g. `{field: "email"}` or `{capability: "users.manage"}`. */
  readonly meta?: Readonly<Record<string, string>>;
  /** The underlying error, if any. */
  readonly cause?: unknown;
}

/**
 * The base of every error the client throws.
 *
 * @example Reading the code of any client error
 * ```ts
 * import { AuthClientError, login } from "@gatehouse/client";
 *
 * try {
 *   await login("ada@example.com", "wrong password");
 * } catch (error) {
 *   if (error instanceof AuthClientError) console.assert(typeof error.code === "string");
 * }
 * ```
 */
export class AuthClientError extends Error {
  /** The wire code (or one of the client's own codes). */
  readonly code: string;
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** Extra facts the server sent, if any. */
  readonly meta: Readonly<Record<string, string>> | undefined;

  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(message: string, options: AuthClientErrorOptions = {}) {
    super(
      message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "AuthClientError";
    this.code = options.code ?? "internal";
    this.status = options.status ?? 0;
    this.meta = options.meta;
  }
}

/**
 * Login refused: unknown email, wrong password or disabled account (the
 * server does not say which). Code `credentials_invalid`, status 401.
 *
 * @example Telling the person to try again
 * ```ts
 * import { InvalidCredentialsError, login } from "@gatehouse/client";
 *
 * try {
 *   await login("ada@example.com", "wrong password");
 * } catch (error) {
 *   if (error instanceof InvalidCredentialsError) {
 *     // "Email or password is incorrect"
 *   }
 * }
 * ```
 */
export class InvalidCredentialsError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Email or password is incorrect",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "credentials_invalid", status: 401, ...options });
    this.name = "InvalidCredentialsError";
  }
}

/**
 * Options of {@linkcode RateLimitedError}.
 *
 * @example A refusal for the next two minutes
 * ```ts
 * import { RateLimitedError, type RateLimitedErrorOptions } from "@gatehouse/client";
 *
 * const options: RateLimitedErrorOptions = { retryAfter: 120 };
 * const error = new RateLimitedError(undefined, options);
 * ```
 */
export interface RateLimitedErrorOptions extends AuthClientErrorOptions {
  /** Seconds to wait, from the `Retry-After` header; null when not sent. */
  readonly retryAfter?: number | null;
}

/**
 * A limiter refused: too many failed sign-ins or password-reset requests,
 * or too many passkey options asked for, from this address. Code
 * `login_rate_limited`, status 429. When the account lock refused
 * (DESIGN.md §15: too many failed sign-ins to the address, from anywhere),
 * `meta.scope` is `"account"`, and `meta.until` is `"reset"` for the lock
 * only a password reset or an administrator lifts.
 *
 * @example Saying how long to wait
 * ```ts
 * import { RateLimitedError } from "@gatehouse/client";
 *
 * const error = new RateLimitedError(undefined, { retryAfter: 90 });
 * console.assert(error.retryAfter === 90 && error.status === 429);
 * ```
 */
export class RateLimitedError extends AuthClientError {
  /** Seconds to wait before trying again (`Retry-After`); null when the server did not say. */
  readonly retryAfter: number | null;
  /**
   * When trying again makes sense (ms since the epoch): `retryAfter` from
   * the moment the error was made, so words shown later still name the
   * same time; null when the server did not say.
   */
  readonly retryAt: number | null;

  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta, cause and `retryAfter` in seconds.
   */
  constructor(
    message = "Too many attempts; try again later",
    options: RateLimitedErrorOptions = {},
  ) {
    super(message, { code: "login_rate_limited", status: 429, ...options });
    this.name = "RateLimitedError";
    this.retryAfter = options.retryAfter ?? null;
    this.retryAt = this.retryAfter === null
      ? null
      : Date.now() + this.retryAfter * 1000;
  }
}

/**
 * The session is gone (expired, revoked, account disabled): any 401 outside
 * login. The query client from `createAuthQueryClient()` drops the cached
 * session when a query or mutation throws it, so the login screen returns.
 *
 * @example Checking a failed call
 * ```ts
 * import { isSessionRevoked, UnauthorizedError } from "@gatehouse/client";
 *
 * console.assert(isSessionRevoked(new UnauthorizedError()));
 * ```
 */
export class UnauthorizedError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(message = "Not signed in", options: AuthClientErrorOptions = {}) {
    super(message, { code: "session_absent", status: 401, ...options });
    this.name = "UnauthorizedError";
  }
}

/**
 * An invitation or reset link that is spent, expired or unknown. Code
 * `token_invalid`, status 410.
 *
 * @example Advising a new link
 * ```ts
 * import { resetPassword } from "@gatehouse/client/admin";
 * import { InvalidTokenError } from "@gatehouse/client";
 *
 * try {
 *   await resetPassword("spent-token", "a new long password");
 * } catch (error) {
 *   if (error instanceof InvalidTokenError) {
 *     // "This link is no longer valid: ask for a new one"
 *   }
 * }
 * ```
 */
export class InvalidTokenError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "This link is no longer valid",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "token_invalid", status: 410, ...options });
    this.name = "InvalidTokenError";
  }
}

/**
 * The server refused the input: `code` says what (`email_invalid`,
 * `password_too_short`, `body_field_required`...) and `field` which field,
 * when the server names one (`meta.field`). Status 400 (413 for
 * `body_too_large`).
 *
 * @example Marking the field
 * ```ts
 * import { ValidationError } from "@gatehouse/client";
 *
 * const error = new ValidationError(undefined, {
 *   code: "body_field_required",
 *   meta: { field: "name" },
 * });
 * console.assert(error.field === "name");
 * ```
 */
export class ValidationError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The input was refused",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "body_malformed", status: 400, ...options });
    this.name = "ValidationError";
  }

  /** The field the server named (`meta.field`), if any. */
  get field(): string | undefined {
    return this.meta?.field;
  }
}

/**
 * The email is already in use (`createUser`). Code `email_taken`, status 409.
 * `invite` never throws it: an invitation answers the same for every address.
 *
 * @example Marking the email field
 * ```ts
 * import { EmailTakenError } from "@gatehouse/client/admin";
 *
 * console.assert(new EmailTakenError().code === "email_taken");
 * ```
 */
export class EmailTakenError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Email address is already in use",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "email_taken", status: 409, ...options });
    this.name = "EmailTakenError";
  }
}

/**
 * The signed-in account may not do this (status 403): its role lacks the
 * route (`role_insufficient`) or a capability (`capability_missing`, with
 * `capability` naming it), or the write came from another origin. The role
 * errors that are refusals extend it.
 *
 * @example Naming the missing capability
 * ```ts
 * import { ForbiddenError } from "@gatehouse/client";
 *
 * const error = new ForbiddenError(undefined, {
 *   code: "capability_missing",
 *   meta: { capability: "users.manage" },
 * });
 * console.assert(error.capability === "users.manage");
 * ```
 */
export class ForbiddenError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Your role may not do this",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "role_insufficient", status: 403, ...options });
    this.name = "ForbiddenError";
  }

  /** The capability the server named (`meta.capability`), if any. */
  get capability(): string | undefined {
    return this.meta?.capability;
  }
}

/**
 * A browser write refused as cross-origin (`request_cross_origin`, 403):
 * the page and the API are not on one origin (see the README on proxying
 * `/api` in development).
 *
 * @example Recognising a set-up problem
 * ```ts
 * import { CrossOriginError, ForbiddenError } from "@gatehouse/client";
 *
 * console.assert(new CrossOriginError() instanceof ForbiddenError);
 * ```
 */
export class CrossOriginError extends ForbiddenError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Cross-origin request refused",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "request_cross_origin", ...options });
    this.name = "CrossOriginError";
  }
}

/**
 * An account tried to disable itself (`self_disable_refused`, 403).
 *
 * @example Recognising it
 * ```ts
 * import { SelfDisableError } from "@gatehouse/client/admin";
 *
 * console.assert(new SelfDisableError().code === "self_disable_refused");
 * ```
 */
export class SelfDisableError extends ForbiddenError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "You cannot disable your own account",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "self_disable_refused", ...options });
    this.name = "SelfDisableError";
  }
}

/**
 * The id matches no account (`user_not_found`, 404).
 *
 * @example Recognising it
 * ```ts
 * import { UserNotFoundError } from "@gatehouse/client/admin";
 *
 * console.assert(new UserNotFoundError().status === 404);
 * ```
 */
export class UserNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "User not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "user_not_found", status: 404, ...options });
    this.name = "UserNotFoundError";
  }
}

/**
 * The invitation is not pending (already accepted, revoked, expired, never
 * sent, or for an address that has an account since): 404
 * `invitation_not_found` from `revokeInvitation`.
 *
 * @example Recognising it
 * ```ts
 * import { InvitationNotFoundError } from "@gatehouse/client/admin";
 *
 * console.assert(new InvitationNotFoundError().code === "invitation_not_found");
 * ```
 */
export class InvitationNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Invitation not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "invitation_not_found", status: 404, ...options });
    this.name = "InvitationNotFoundError";
  }
}
