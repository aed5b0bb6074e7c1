// The forms' own checks, run on every field before anything is sent, so all
// of a form's problems show at once (the server stops at its first). They
// mirror the server's rules (DESIGN.md §4) and name their limits; the server
// stays the authority and its refusals still show next to their field.

import { EMAIL_SHAPE } from "@gatehouse/contract";

/**
 * A problem the form finds itself, before asking the server: a missing
 * value, two passwords that differ, a malformed address, or a length outside
 * a limit (which the message names).
 */
export type Problem =
  | "required"
  | "mismatch"
  | "email"
  | { readonly max: number }
  | { readonly min: number };

/** The field limits the messages name; the server's defaults. */
export interface FieldLimits {
  /** Most characters in a name. */
  readonly name: number;
  /** Most characters in an email address. */
  readonly email: number;
  /** Fewest characters in a password. */
  readonly passwordMin: number;
  /** Most characters in a password. */
  readonly passwordMax: number;
}

/** DESIGN.md §4's defaults. */
export const DEFAULT_LIMITS: FieldLimits = Object.freeze({
  name: 100,
  email: 254,
  passwordMin: 12,
  passwordMax: 256,
});

/** The limits with the server's password minimum a screen was given. */
export function limitsWith(passwordMin: number | undefined): FieldLimits {
  return passwordMin === undefined
    ? DEFAULT_LIMITS
    : { ...DEFAULT_LIMITS, passwordMin };
}

const length = (value: string) => [...value].length;

/** A name: present and not too long. */
export function nameProblem(
  value: string,
  limits: FieldLimits,
): Problem | null {
  const name = value.trim();
  if (name === "") return "required";
  return length(name) > limits.name ? { max: limits.name } : null;
}

/** An email address: present, shaped like one, not too long. */
export function emailProblem(
  value: string,
  limits: FieldLimits,
): Problem | null {
  const email = value.trim();
  if (email === "") return "required";
  if (length(email) > limits.email) return { max: limits.email };
  return EMAIL_SHAPE.test(email) ? null : "email";
}

/** A password being chosen: present and within the length limits. */
export function newPasswordProblem(
  value: string,
  limits: FieldLimits,
): Problem | null {
  if (value === "") return "required";
  const n = length(value);
  if (n < limits.passwordMin) return { min: limits.passwordMin };
  return n > limits.passwordMax ? { max: limits.passwordMax } : null;
}

/** A value that must only be present (a password being typed to sign in). */
export function requiredProblem(value: string): Problem | null {
  return value.trim() === "" ? "required" : null;
}

/** The problems found, by field; null when every field is fine. */
export function problemsOf(
  checks: Readonly<Record<string, Problem | null>>,
): Record<string, Problem> | null {
  const problems: Record<string, Problem> = {};
  for (const [field, problem] of Object.entries(checks)) {
    if (problem !== null) problems[field] = problem;
  }
  return Object.keys(problems).length === 0 ? null : problems;
}
