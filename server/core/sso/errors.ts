// The answers of the single sign-on protocol layer when it refuses: a code
// from DESIGN.md §13 that the callback route puts in `?sso_error=` (and in
// the `login.failed` audit event), plus a reason for the operator's log.
// Refusals are values, not exceptions: the callback turns every one into the
// same redirect, so a typed result keeps that path free of try/catch.

import { SSO_ERROR_CODES } from "@gatehouse/contract";

/**
 * Every `sso_error` code the callback can answer (DESIGN.md §13): the
 * contract's list, which the client reads too.
 */
export { SSO_ERROR_CODES };

/**
 * Why a single sign-on callback failed, as the browser is told in
 * `?sso_error=CODE`.
 */
export type SsoErrorCode = typeof SSO_ERROR_CODES[number];

/**
 * A refusal of the protocol layer.
 *
 * @typeParam Code The codes the refusing step can answer.
 */
export interface SsoRefusal<Code extends string = SsoErrorCode> {
  /** Always false: tells a refusal from a success. */
  ok: false;
  /** The wire code (`?sso_error=`, audit `detail.reason`). */
  code: Code;
  /**
   * What failed, for the operator's log: a sentence with no secret in it
   * (no client secret, code, token or verifier). Never shown to the browser.
   */
  reason: string;
}

/**
 * A refusal with `code` and `reason`.
 *
 * @param code The wire code.
 * @param reason What failed, for the log.
 * @returns The refusal value.
 *
 * @example A state that was already spent
 * ```ts
 * import { refuse } from "./errors.ts";
 *
 * const refusal = refuse("sso_state_invalid", "The state was already spent");
 * console.assert(refusal.ok === false && refusal.code === "sso_state_invalid");
 * ```
 */
export function refuse<Code extends string>(
  code: Code,
  reason: string,
): SsoRefusal<Code> {
  return { ok: false, code, reason };
}

/**
 * Whether `value` is one of the {@linkcode SSO_ERROR_CODES} (for a client
 * or route that reads `?sso_error=` back).
 *
 * @param value Any string.
 * @returns True for a known code.
 *
 * @example
 * ```ts
 * import { isSsoErrorCode } from "./errors.ts";
 *
 * console.assert(isSsoErrorCode("sso_denied"));
 * console.assert(!isSsoErrorCode("<script>"));
 * ```
 */
export function isSsoErrorCode(value: string): value is SsoErrorCode {
  return (SSO_ERROR_CODES as readonly string[]).includes(value);
}
