/**
 * The numeric limits of the HTTP contract, with their defaults. Every one can
 * be overridden through the `limits` option of `createAuth`, `createAdmin`
 * and `createAccountLinks`.
 *
 * @module
 */

/** Limits on input sizes, link lifetimes and sessions per account. */
export interface Limits {
  /** Largest accepted request body, in bytes. Default 16 KiB. */
  maxBodyBytes: number;
  /** Longest accepted name, in characters. Default 100. */
  maxNameLength: number;
  /** Shortest accepted password, in characters. Default 12. */
  minPasswordLength: number;
  /** Longest accepted password, in characters. Default 256. */
  maxPasswordLength: number;
  /** Longest accepted email address, in characters. Default 254. */
  maxEmailLength: number;
  /** Longest accepted search text (`q` of the user list), in characters. Default 100. */
  maxQueryLength: number;
  /**
   * Live sessions an account may hold at once. Default 50: a sign-in past
   * it ends the account's oldest session in the same commit.
   */
  maxSessionsPerAccount: number;
  /** Lifetime of an invitation link, in milliseconds. Default 7 days. */
  invitationTtl: number;
  /** Lifetime of a password-reset link, in milliseconds. Default 1 hour. */
  resetTtl: number;
  /**
   * Consecutive failed second-factor codes (TOTP or recovery codes, at
   * sign-in or re-authentication) an account takes within
   * `accountLockWindow`, from any address and over any number of pending
   * sign-ins, before its code checks answer 429 `login_rate_limited` until
   * the window ends (DESIGN.md §15). Default 10.
   */
  accountLockThreshold: number;
  /**
   * The window of `accountLockThreshold`, in milliseconds, from the first
   * counted failure. Default 15 minutes.
   */
  accountLockWindow: number;
}

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/**
 * The defaults of DESIGN.md §4.
 *
 * @example Tightening one limit
 * ```ts
 * import { type Limits } from "@gatehouse/server";
 * import { DEFAULT_LIMITS } from "./limits.ts";
 *
 * const limits: Limits = { ...DEFAULT_LIMITS, minPasswordLength: 16 };
 * ```
 */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxBodyBytes: 16 * 1024,
  maxNameLength: 100,
  minPasswordLength: 12,
  maxPasswordLength: 256,
  maxEmailLength: 254,
  maxQueryLength: 100,
  maxSessionsPerAccount: 50,
  invitationTtl: 7 * DAY,
  resetTtl: HOUR,
  accountLockThreshold: 10,
  accountLockWindow: 15 * 60 * 1000,
});

/** Default session lifetime: 7 days, in milliseconds. */
export const DEFAULT_SESSION_TTL: number = 7 * DAY;

/** Default idle timeout of a session: 24 hours, in milliseconds. */
export const DEFAULT_IDLE_TIMEOUT: number = DAY;

/** Default re-authentication window: 30 minutes, in milliseconds. */
export const DEFAULT_REAUTHENTICATION_WINDOW: number = 30 * 60 * 1000;

/** Default time audit events are kept: 90 days, in milliseconds. */
export const DEFAULT_AUDIT_RETENTION: number = 90 * DAY;

/** Merges caller overrides onto the defaults, refusing nonsense at once. */
export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  const limits = { ...DEFAULT_LIMITS, ...overrides };
  for (const [key, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(
        `Invalid limit: "${key}" must be a positive number, got ${value}`,
      );
    }
  }
  if (!Number.isInteger(limits.maxSessionsPerAccount)) {
    throw new RangeError(
      'Invalid limit: "maxSessionsPerAccount" must be a whole number',
    );
  }
  if (!Number.isInteger(limits.accountLockThreshold)) {
    throw new RangeError(
      'Invalid limit: "accountLockThreshold" must be a whole number',
    );
  }
  if (limits.accountLockWindow < 1000) {
    throw new RangeError(
      'Invalid limit: "accountLockWindow" must be at least 1000 ms',
    );
  }
  if (limits.minPasswordLength > limits.maxPasswordLength) {
    throw new RangeError(
      "Invalid limits: minPasswordLength exceeds maxPasswordLength",
    );
  }
  return limits;
}
