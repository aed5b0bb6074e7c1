// Shared words and checks of the two "choose a password" forms.

import type { Problem } from "./_error_message.ts";
import { type FieldLimits, newPasswordProblem } from "./_validation.ts";
import { _n, DOMAIN, sprintf } from "./i18n.ts";

/** The server's default lower bound (DESIGN.md §4); a prop changes the hint. */
export const DEFAULT_MIN_PASSWORD = 12;

/** "At least 12 characters." */
export function passwordHint(min: number): string {
  return sprintf(
    _n("At least %d character.", "At least %d characters.", min, DOMAIN),
    min,
  );
}

/** Every problem of the password and its repetition; null when both are fine. */
export function passwordProblems(
  password: string,
  confirm: string,
  limits: FieldLimits,
): Record<string, Problem> | null {
  const problems: Record<string, Problem> = {};
  const first = newPasswordProblem(password, limits);
  if (first !== null) problems.password = first;
  if (confirm === "") problems.confirm = "required";
  else if (first === null && confirm !== password) {
    problems.confirm = "mismatch";
  }
  return Object.keys(problems).length === 0 ? null : problems;
}
