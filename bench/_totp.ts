// TOTP codes as an authenticator app makes them: npm:otpauth at the
// parameters of server/totp.ts (RFC 6238, HMAC-SHA-1, 6 digits, 30-second
// steps, a base32 secret). Made here, not with the server's own helpers,
// so that a code the bench presents is one any authenticator would show.

import * as OTPAuth from "otpauth";

/** The secret every seeded TOTP account shares (20 bytes, base32). */
export const TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/** Length of a time step, ms. */
export const TOTP_STEP_MS = 30_000;

const totp = new OTPAuth.TOTP({
  secret: OTPAuth.Secret.fromBase32(TOTP_SECRET),
  digits: 6,
  period: TOTP_STEP_MS / 1000,
  algorithm: "SHA1",
});

/** The time step of `ms` (ms since the epoch). */
export function totpStep(ms: number): number {
  return Math.floor(ms / TOTP_STEP_MS);
}

/** The code of {@linkcode TOTP_SECRET} for time step `step`. */
export function totpCode(step: number): string {
  return totp.generate({ timestamp: step * TOTP_STEP_MS });
}
