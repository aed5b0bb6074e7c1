// Recovery codes: ten random codes shown once at enrolment (and at each
// regeneration), stored as SHA-256 digests. A plain digest, not argon2, is
// enough because each code holds 80 random bits: no dictionary or brute
// force reaches that, so a slow hash would add cost to the sign-in and
// nothing to the safety (DEVELOPERS.md, "Recovery codes").

import { hashToken } from "./_crypto.ts";

/** How many recovery codes an enrolment or a regeneration hands out. */
export const RECOVERY_CODE_COUNT = 10;

// Crockford's base32 alphabet, lower case: 32 symbols (so a random byte's
// low five bits pick one uniformly), without i, l, o and u, which people
// misread.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const LENGTH = 16; // 16 symbols × 5 bits = 80 bits
const GROUP = 4;
const READ_AS: Record<string, string> = { i: "1", l: "1", o: "0" };

/**
 * Ten new recovery codes, formatted for people (`xxxx-xxxx-xxxx-xxxx`).
 *
 * @returns The codes, to show once; store their {@linkcode hashRecoveryCode}.
 *
 * @example New codes and their digests
 * ```ts
 * import { hashRecoveryCode, newRecoveryCodes } from "./recovery_codes.ts";
 *
 * const codes = newRecoveryCodes();
 * console.assert(codes.length === 10);
 * const hashes = codes.map((code) => hashRecoveryCode(code)!);
 * console.assert(hashes.every((hash) => hash.length === 43));
 * ```
 */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
}

function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(LENGTH));
  const symbols = Array.from(bytes, (byte) => ALPHABET[byte & 31]).join("");
  return symbols.match(new RegExp(`.{${GROUP}}`, "g"))!.join("-");
}

/**
 * A typed recovery code in its one canonical form: lower case, without
 * spaces or dashes, with `i`, `l` and `o` read as `1`, `1` and `0`; null
 * when it cannot be a recovery code.
 *
 * @param input What the person typed.
 * @returns The canonical code, or null.
 *
 * @example Forgiving case, spaces and look-alikes
 * ```ts
 * import { normaliseRecoveryCode } from "./recovery_codes.ts";
 *
 * console.assert(
 *   normaliseRecoveryCode(" ABCD-EFGH 0123-4567 ") === "abcdefgh01234567",
 * );
 * console.assert(normaliseRecoveryCode("abcd-efgh-0123-45O7") === "abcdefgh01234507");
 * console.assert(normaliseRecoveryCode("too short") === null);
 * ```
 */
export function normaliseRecoveryCode(input: string): string | null {
  const code = input.toLowerCase().replace(/[\s-]+/g, "")
    .replace(/[ilo]/g, (c) => READ_AS[c]!);
  if (code.length !== LENGTH) return null;
  for (const c of code) if (!ALPHABET.includes(c)) return null;
  return code;
}

/**
 * The digest a store keeps of a recovery code (SHA-256 of its canonical
 * form, base64url), or null when the input cannot be a recovery code.
 *
 * @param input A code as generated or as typed.
 * @returns The digest, or null.
 *
 * @example The same digest however it is typed
 * ```ts
 * import { hashRecoveryCode } from "./recovery_codes.ts";
 *
 * console.assert(
 *   hashRecoveryCode("abcd-efgh-0123-4567") ===
 *     hashRecoveryCode("ABCDEFGH 01234567"),
 * );
 * ```
 */
export function hashRecoveryCode(input: string): string | null {
  const code = normaliseRecoveryCode(input);
  return code === null ? null : hashToken(code);
}
