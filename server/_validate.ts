// Field rules of the HTTP contract: email, name, password, role, user id.
// Each returns the normalised value or throws the contract's error code.

import { AuthError } from "./errors.ts";
import type { Limits } from "./limits.ts";
import { isUuid } from "./_crypto.ts";

// One "@", no whitespace or control characters, something on both sides.
// Deliberately loose: the only real check of an address is mail reaching it.
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u;

/** Trims an email address and checks its shape and length. */
export function validEmail(raw: string, limits: Limits): string {
  const email = raw.trim();
  if (email.length > limits.maxEmailLength || !EMAIL.test(email)) {
    throw new AuthError("email_invalid", {
      message: `Email address is not valid: "${email.slice(0, 64)}"`,
      meta: { field: "email" },
    });
  }
  return email;
}

/** The form of an email used for lookups: trimmed and lower-cased. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Trims a name and checks it is present and short enough. */
export function validName(raw: string, limits: Limits): string {
  const name = raw.trim();
  if (name.length === 0) {
    throw new AuthError("name_required", { meta: { field: "name" } });
  }
  if ([...name].length > limits.maxNameLength) {
    throw new AuthError("name_too_long", {
      message:
        `Name is too long: the limit is ${limits.maxNameLength} characters`,
      meta: { field: "name" },
    });
  }
  return name;
}

/** Checks a new password's length, in characters (code points). */
export function validPassword(password: string, limits: Limits): string {
  const length = [...password].length;
  if (length < limits.minPasswordLength) {
    throw new AuthError("password_too_short", {
      message:
        `Password is too short: use at least ${limits.minPasswordLength} characters`,
      meta: { field: "password" },
    });
  }
  if (length > limits.maxPasswordLength) {
    throw new AuthError("password_too_long", {
      message:
        `Password is too long: use at most ${limits.maxPasswordLength} characters`,
      meta: { field: "password" },
    });
  }
  return password;
}

/** Checks a path id is a UUID; answers `user_id_malformed` otherwise. */
export function validUserId(id: string | undefined): string {
  if (id === undefined || !isUuid(id)) {
    throw new AuthError("user_id_malformed", { meta: { field: "id" } });
  }
  return id.toLowerCase();
}
