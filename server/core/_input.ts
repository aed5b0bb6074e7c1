// The input boundary (DESIGN.md §5): every string a request carries (body
// fields, path ids, query parameters, link tokens) is checked here, once,
// before a store or a log sees it, by the same rules on every route:
// well-formed UTF-16 (no lone surrogates), no NUL anywhere, no control
// character in emails and names, within its length limit (counted in code
// points), emails and names NFC-normalised, emails compared by their folded
// form (`fold`). Each reader returns the normalised value or throws the
// contract's error code.

import {
  AUDIT_EVENT_TYPES,
  type AuditEventType,
  EMAIL_SHAPE,
  USER_SORTS,
  type UserSort,
} from "@gatehouse/contract";
import { hashToken, isTokenShaped, isUuid } from "./_crypto.ts";
import { isCommonPassword } from "./_common_passwords.ts";
import { fold } from "./_fold.ts";
import { AuthError } from "../http/errors.ts";
import type { Limits } from "../http/limits.ts";
import type { AuditQuery, UserQuery } from "./store.ts";

export { fold };

// C0, DEL and C1 controls (\p{Cc}), and the line and paragraph separators
// (U+2028, U+2029): a line break all the same to a mail header or a log
// line, so a name holding one could not be a recipient's name. Emails also
// refuse format characters (\p{Cf}: zero-width spaces, bidirectional
// overrides), which would let two addresses look the same, and every kind
// of space.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;
const DIGITS = /^[0-9]{1,3}$/;
const MAX_ROLE_LENGTH = 100;
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;
const SORTS: ReadonlySet<string> = new Set(USER_SORTS);
const EVENT_TYPES: ReadonlySet<string> = new Set(AUDIT_EVENT_TYPES);

/** An email address as stored (trimmed, NFC) and its folded lookup key. */
export interface EmailInput {
  email: string;
  key: string;
}

/** Length in code points, the "characters" of every limit. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

function tooLong(text: string, limit: number): boolean {
  // A string over twice the limit in UTF-16 units is over it in code points.
  return text.length > 2 * limit || length(text) > limit;
}

/** An email address from a request; `email_invalid` unless well-formed. */
export function readEmail(
  raw: string,
  limits: Limits,
  field = "email",
): EmailInput {
  const email = emailOrNull(raw, limits);
  if (email === null) {
    throw new AuthError("email_invalid", {
      message: `Email address is not valid: "${raw.trim().slice(0, 64)}"`,
      meta: { field },
    });
  }
  return email;
}

/**
 * The lookup key of a sign-in email, or null when it breaks the rules: such
 * an email is an unknown email (same answer, same password work).
 */
export function signInKey(raw: string, limits: Limits): string | null {
  return emailOrNull(raw, limits)?.key ?? null;
}

// A domain of dotted labels ending in a letter-only (or punycode) label:
// what a deliverable address has and most passwords with an "@" lack.
const MAIL_DOMAIN = /@[^@.\s]+(\.[^@.\s]+)*\.(\p{L}{2,}|xn--[a-z0-9-]+)$/u;

/**
 * Whether a folded sign-in key may be written to the audit trail as the
 * address someone tried: an account's address always; otherwise only one
 * that looks deliverable. The sign-in rule (`x@y`) is looser, and what was
 * typed into the email field may be a password ("Tr0ub@dor") that every
 * administrator would then read.
 */
export function recordableAddress(key: string, isAccount: boolean): boolean {
  return isAccount || MAIL_DOMAIN.test(key);
}

function emailOrNull(raw: string, limits: Limits): EmailInput | null {
  if (raw.length > 4 * limits.maxEmailLength || !raw.isWellFormed()) {
    return null;
  }
  const email = raw.trim().normalize("NFC");
  if (tooLong(email, limits.maxEmailLength) || !EMAIL_SHAPE.test(email)) {
    return null;
  }
  return { email, key: fold(email) };
}

/** A display name: trimmed, NFC, present, short enough, printable. */
export function readName(raw: string, limits: Limits): string {
  if (!raw.isWellFormed() || CONTROL.test(raw)) {
    throw malformed(
      "name",
      "Name must not contain control characters or unpaired surrogates",
    );
  }
  const name = raw.trim().normalize("NFC");
  if (name.length === 0) {
    throw new AuthError("name_required", { meta: { field: "name" } });
  }
  if (tooLong(name, limits.maxNameLength)) {
    throw new AuthError("name_too_long", {
      message:
        `Name is too long: the limit is ${limits.maxNameLength} characters`,
      meta: { field: "name" },
    });
  }
  return name;
}

/**
 * A password someone sets: any character but NUL, well-formed, within the
 * length limits and not on the common-password list (compared folded).
 * `field` names the body field in the error's `meta.field`.
 */
export async function readNewPassword(
  raw: string,
  limits: Limits,
  field = "password",
): Promise<string> {
  if (!raw.isWellFormed() || raw.includes("\0")) {
    throw malformed(
      field,
      "Password must not contain NUL or unpaired surrogates",
    );
  }
  const n = raw.length > 2 * limits.maxPasswordLength ? Infinity : length(raw);
  if (n < limits.minPasswordLength) {
    throw new AuthError("password_too_short", {
      message:
        `Password is too short: use at least ${limits.minPasswordLength} characters`,
      meta: { field },
    });
  }
  if (n > limits.maxPasswordLength) {
    throw new AuthError("password_too_long", {
      message:
        `Password is too long: use at most ${limits.maxPasswordLength} characters`,
      meta: { field },
    });
  }
  if (await isCommonPassword(raw)) {
    throw new AuthError("password_too_common", { meta: { field } });
  }
  return raw;
}

/**
 * Whether a sign-in password could be one: well-formed, no NUL, within the
 * maximum length. One that could not is a wrong password (after the same
 * argon2 work).
 */
export function isSignInPassword(raw: string, limits: Limits): boolean {
  return raw.isWellFormed() && !raw.includes("\0") &&
    !tooLong(raw, limits.maxPasswordLength);
}

/**
 * A role name from a request ("" for none). One that no registry could
 * declare (controls, unpaired surrogates, very long) is `role_unknown`
 * without being repeated back.
 */
export function readRole(raw: string | undefined): string {
  if (raw === undefined) return "";
  if (
    !raw.isWellFormed() || CONTROL.test(raw) || raw.length > MAX_ROLE_LENGTH
  ) {
    throw new AuthError("role_unknown", { meta: { field: "role" } });
  }
  return raw;
}

/** A path id that must be a UUID (lower-cased), else `code`. */
export function readId(
  raw: string | undefined,
  code:
    | "user_id_malformed"
    | "invitation_id_malformed"
    | "session_id_malformed"
    | "passkey_id_malformed",
): string {
  if (raw === undefined || !isUuid(raw)) {
    throw new AuthError(code, { meta: { field: "id" } });
  }
  return raw.toLowerCase();
}

/**
 * The digest of a link token, or null when the string cannot be a token
 * (then the link is dead, without a store read).
 */
export function linkTokenHash(raw: string): string | null {
  return isTokenShaped(raw) ? hashToken(raw) : null;
}

/**
 * The page query of `GET /api/users`: `limit` (1–100, default 50), `cursor`
 * (the last id of the previous page), `q` (folded) and `sort` (one of the
 * contract's `USER_SORTS`). The contract has no
 * code for a bad query string, so a malformed value answers
 * `body_malformed` naming the parameter (DEVELOPERS.md).
 */
export function readUserQuery(url: URL, limits: Limits): UserQuery {
  const params = url.searchParams;
  const query: UserQuery = readPage(params);
  const q = params.get("q");
  if (q !== null) {
    if (!q.isWellFormed() || CONTROL.test(q)) {
      throw malformed(
        "q",
        'Query parameter "q" must not contain control characters',
      );
    }
    const text = q.trim().normalize("NFC");
    if (tooLong(text, limits.maxQueryLength)) {
      throw malformed(
        "q",
        `Query parameter "q" is too long: the limit is ${limits.maxQueryLength} characters`,
      );
    }
    if (text !== "") query.q = fold(text);
  }
  const sort = params.get("sort");
  if (sort !== null) {
    if (!SORTS.has(sort)) {
      throw malformed(
        "sort",
        'Query parameter "sort" must be one of "created", "name", "email", optionally after "-"',
      );
    }
    query.sort = sort as UserSort;
  }
  return query;
}

/** `limit` (1–100, default 50) and `cursor` (a UUID) of a paged query. */
function readPage(params: URLSearchParams): { limit: number; cursor?: string } {
  const query: { limit: number; cursor?: string } = { limit: DEFAULT_PAGE };
  const limit = params.get("limit");
  if (limit !== null) {
    const value = DIGITS.test(limit) ? Number(limit) : NaN;
    if (!(value >= 1 && value <= MAX_PAGE)) {
      throw malformed(
        "limit",
        `Query parameter "limit" must be a whole number from 1 to ${MAX_PAGE}`,
      );
    }
    query.limit = value;
  }
  const cursor = params.get("cursor");
  if (cursor !== null) {
    if (!isUuid(cursor)) {
      throw malformed(
        "cursor",
        'Query parameter "cursor" must be the "next_cursor" of a previous page',
      );
    }
    query.cursor = cursor.toLowerCase();
  }
  return query;
}

/**
 * The page query of `GET /api/audit` (`limit`, `cursor`, `user_id`, `type`;
 * `email` is `readAuditEmail`'s) or, with `own`, of `GET /api/auth/activity` (`limit`, `cursor`; the
 * account is the caller). A malformed value is `body_malformed` naming it.
 */
export function readAuditQuery(url: URL, own?: string): AuditQuery {
  const params = url.searchParams;
  const query: AuditQuery = readPage(params);
  if (own !== undefined) {
    query.userId = own;
    return query;
  }
  const user = params.get("user_id");
  if (user !== null) {
    if (!isUuid(user)) {
      throw malformed("user_id", 'Query parameter "user_id" must be a UUID');
    }
    query.userId = user.toLowerCase();
  }
  const type = params.get("type");
  if (type !== null) {
    if (!EVENT_TYPES.has(type)) {
      throw malformed(
        "type",
        'Query parameter "type" must be one of the audit event types',
      );
    }
    query.type = type as AuditEventType;
  }
  return query;
}

/**
 * The `email` filter of `GET /api/audit`: the folded key of an address
 * (the audit log's filter by account, resolved by the handler), or
 * undefined without one. An address that breaks the email rules, or one
 * given with `user_id` (two accounts to filter by), is `body_malformed`
 * naming `email`.
 */
export function readAuditEmail(url: URL, limits: Limits): string | undefined {
  const raw = url.searchParams.get("email");
  if (raw === null) return undefined;
  if (url.searchParams.has("user_id")) {
    throw malformed(
      "email",
      'Query parameters "email" and "user_id" cannot be given together',
    );
  }
  const key = emailOrNull(raw, limits)?.key;
  if (key === undefined) {
    throw malformed(
      "email",
      'Query parameter "email" must be an email address',
    );
  }
  return key;
}

function malformed(field: string, message: string): AuthError {
  return new AuthError("body_malformed", { message, meta: { field } });
}
