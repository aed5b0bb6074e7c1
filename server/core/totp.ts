// TOTP (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps, one step of drift
// either way) through npm:otpauth, and the enrolment's QR code as SVG
// through npm:uqr. No HMAC or base32 is written here. What makes a code
// single use (a step accepted once per account) is the store's
// `useTotpStep`; this module only says which step a code belongs to.

import { Secret, TOTP } from "otpauth";
import { renderSVG } from "uqr";

/** Seconds per time step. */
export const TOTP_PERIOD = 30;
const DIGITS = 6;
// Steps of clock drift accepted either way.
const WINDOW = 1;
const CODE = /^\d{6}$/;

/** What an authenticator app needs to enrol: shown once, at setup. */
export interface TotpSetup {
  /** The secret, base32 (for typing it in by hand). */
  secret: string;
  /** The `otpauth://totp/...` URL the QR code holds. */
  otpauthUrl: string;
  /** The QR code of `otpauthUrl`, an SVG document. */
  qrSvg: string;
}

/** Who the enrolment is for, as the authenticator app shows it. */
export interface TotpAccount {
  /** The application's name, e.g. "Gatehouse". */
  issuer: string;
  /** The account's label, usually its email. */
  label: string;
}

/**
 * A new random TOTP secret: 20 bytes (160 bits, RFC 4226's recommended
 * length), base32.
 *
 * @returns The secret, base32 without padding.
 *
 * @example A secret for a new enrolment
 * ```ts
 * import { newTotpSecret } from "./totp.ts";
 *
 * console.assert(/^[A-Z2-7]{32}$/.test(newTotpSecret()));
 * ```
 */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/**
 * The enrolment an authenticator app reads: the secret, its `otpauth://`
 * URL and that URL's QR code as SVG.
 *
 * @param secret The base32 secret (see {@linkcode newTotpSecret}).
 * @param account The issuer and the label the app shows.
 * @returns The setup, as `POST /api/auth/totp/setup` answers it.
 *
 * @example Showing the QR code
 * ```ts
 * import { newTotpSecret, totpSetup } from "./totp.ts";
 *
 * const setup = totpSetup(newTotpSecret(), {
 *   issuer: "Gatehouse",
 *   label: "ada@example.com",
 * });
 * console.assert(setup.otpauthUrl.startsWith("otpauth://totp/"));
 * console.assert(setup.qrSvg.startsWith("<svg"));
 * ```
 */
export function totpSetup(secret: string, account: TotpAccount): TotpSetup {
  const otpauthUrl = totpOf(secret, account).toString();
  return { secret, otpauthUrl, qrSvg: renderSVG(otpauthUrl, { ecc: "M" }) };
}

/**
 * The time step of `now` (ms): what a code made at that instant belongs to.
 *
 * @param now Milliseconds since the epoch.
 * @returns The step number.
 *
 * @example The step of the epoch's first minute
 * ```ts
 * import { totpStepAt } from "./totp.ts";
 *
 * console.assert(totpStepAt(59_999) === 1);
 * ```
 */
export function totpStepAt(now: number): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/**
 * The time step whose code `code` is, within one step of `now` either way,
 * or null (malformed, wrong, or too far from `now`). Spaces are ignored.
 * The caller then spends the step with the store's `useTotpStep`, which
 * refuses a step not later than the last one accepted (replay).
 *
 * @param secret The base32 secret.
 * @param code The code the person typed.
 * @param now Milliseconds since the epoch (the server's clock, injected).
 * @returns The matching step, or null.
 *
 * @example Checking a code made one step ago
 * ```ts
 * import { newTotpSecret, totpCode, totpStepAt, totpStepOf } from "./totp.ts";
 *
 * const secret = newTotpSecret();
 * const now = Date.now();
 * const code = totpCode(secret, now - 30_000);
 * console.assert(totpStepOf(secret, code, now) === totpStepAt(now) - 1);
 * console.assert(totpStepOf(secret, "12345", now) === null);
 * ```
 */
export function totpStepOf(
  secret: string,
  code: string,
  now: number,
): number | null {
  const token = code.replace(/\s+/g, "");
  if (!CODE.test(token)) return null;
  const delta = totpOf(secret).validate({
    token,
    timestamp: now,
    window: WINDOW,
  });
  return delta === null ? null : totpStepAt(now) + delta;
}

/**
 * The code of `secret` at `now`, as an authenticator app shows it; for
 * tests and tools (a server only checks codes).
 *
 * @param secret The base32 secret.
 * @param now Milliseconds since the epoch.
 * @returns Six digits.
 *
 * @example The code of this instant
 * ```ts
 * import { newTotpSecret, totpCode } from "./totp.ts";
 *
 * console.assert(/^\d{6}$/.test(totpCode(newTotpSecret(), Date.now())));
 * ```
 */
export function totpCode(secret: string, now: number): string {
  return totpOf(secret).generate({ timestamp: now });
}

function totpOf(secret: string, account?: TotpAccount): TOTP {
  return new TOTP({
    ...(account ?? {}),
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: DIGITS,
    period: TOTP_PERIOD,
  });
}
