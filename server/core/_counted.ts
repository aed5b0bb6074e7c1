// Refusals the login limiter counts besides a failed sign-in (401): a wrong
// current password of a signed-in person (403 `password_incorrect`, a
// password guess all the same, DESIGN.md §8), and each refusal a handler
// throws through `countedGuess` (a wrong code or passkey when proving who
// one is, the wrong code that ends a pending sign-in).
//
// Decided from data: the error's code, or the `counted` flag of the fresh
// error `countedGuess` makes for each refusal. Never from the identity of
// an error object: handlers throw shared module-level errors (the 410 of a
// dead pending sign-in is one), and a set of marked objects let the one
// counted throw of such an error mark every later throw of it in the
// process. The limiter answers the thrown error itself and asks
// `isGuess` of it (its `countsRefusal` option): the verdict travels with
// the error, in the open, and nothing marks the answer.

import { AuthError } from "../http/errors.ts";

// A refusal that counts: a copy of the error it was made from, flagged.
class CountedGuess extends AuthError {
  readonly counted = true;
}

/**
 * A guess the limiter counts, answered as `err` is (same code, message and
 * meta): a fresh error to throw, so `err` itself, often a shared constant,
 * stays as it was.
 */
export function countedGuess(err: AuthError): AuthError {
  return new CountedGuess(err.code, {
    message: err.message,
    ...(err.meta === undefined ? {} : { meta: err.meta }),
  });
}

/** Whether the limiter counts a refusal: its code, or its `counted` flag. */
export function isGuess(err: unknown): boolean {
  return err instanceof AuthError &&
    (err.code === "password_incorrect" || err instanceof CountedGuess);
}
