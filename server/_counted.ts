// Answers the login limiter counts besides a failed sign-in: a wrong
// current password of a signed-in person (403 `password_incorrect`), which
// is a password guess all the same (DESIGN.md §8). The handler marks the
// answer it made; the limiter asks. A marker on the object, not a header:
// nothing reaches the wire.

import { AuthError } from "./errors.ts";
import { answerError, type Middleware } from "./http.ts";
import type { Logger } from "./logger.ts";

const counted = new WeakSet<Response>();
const countedErrors = new WeakSet<AuthError>();

/**
 * Marks a refusal as a guess the limiter counts (a wrong second-factor
 * code, the fifth one that ends a pending sign-in); returns it to throw.
 */
export function countedGuess(err: AuthError): AuthError {
  countedErrors.add(err);
  return err;
}

/** Whether the limiter counts `res` as a password guess. */
export function isCountedRefusal(res: Response): boolean {
  return counted.has(res);
}

/**
 * Answers errors like `answeringErrors`, marking a `password_incorrect`
 * answer, and one made by {@linkcode countedGuess}, as counted.
 */
export function countingPasswordGuesses(logger: Logger): Middleware {
  return (next) =>
    async function answeringGuesses(req, params, info) {
      try {
        return await next(req, params, info);
      } catch (err) {
        const res = answerError(err, logger);
        if (
          err instanceof AuthError &&
          (err.code === "password_incorrect" || countedErrors.has(err))
        ) {
          counted.add(res);
        }
        return res;
      }
    };
}
