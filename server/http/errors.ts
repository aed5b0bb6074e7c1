/**
 * The one error type of Gatehouse and the table that maps each wire code to
 * its HTTP status. Everything the module refuses travels as an
 * {@linkcode AuthError}; anything else is masked as `internal`.
 *
 * @module
 */

import {
  ERROR_MESSAGES,
  ERROR_STATUS as STATUS,
  type ErrorBody,
  type ErrorCode as WireErrorCode,
} from "@gatehouse/contract";

/**
 * HTTP status of every error code the module writes, read off the
 * contract's one table (`ERROR_STATUS` of `@gatehouse/contract`).
 *
 * @example The status of a code
 * ```ts
 * import { ERROR_STATUS } from "./errors.ts";
 *
 * console.assert(ERROR_STATUS.email_taken === 409);
 * ```
 */
export const ERROR_STATUS: { readonly [C in ErrorCode]: number } = STATUS;

/** A short fixed name for an error; clients match on it. */
export type ErrorCode = WireErrorCode;

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
  /**
   * Extra facts some codes carry for the client, such as `meta.field` or
   * `meta.capability`.
   */
  readonly meta: Record<string, string> | undefined;

  /**
   * Builds an error for `code`.
   *
   * @param code The wire code.
   * @param options An English message (the code's default otherwise) and `meta`.
   */
  constructor(code: ErrorCode, options: AuthErrorOptions = {}) {
    super(options.message ?? ERROR_MESSAGES[code]);
    this.name = "AuthError";
    this.code = code;
    this.status = STATUS[code];
    this.meta = options.meta;
  }
}

/** Options of {@linkcode AuthError}. */
export interface AuthErrorOptions {
  /** Message in English; defaults to the code's standard message. */
  message?: string;
  /** Extra facts for the client. */
  meta?: Record<string, string>;
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
  return [500, { error: ERROR_MESSAGES.internal, code: "internal" }, false];
}
