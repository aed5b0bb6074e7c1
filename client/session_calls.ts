/**
 * The session operations of the transport, as plain functions: whoever the
 * transport is (REST unless replaced), these are the calls your code makes.
 *
 * @module
 */

import { activeTransport } from "./transport.ts";
import { reportFailure } from "./_report.ts";
import type { FetchSessionOptions, SessionUser } from "./types.ts";
import type { SecondFactorChallenge } from "./security_types.ts";

/**
 * The signed-in account, or null when signed out. It never throws: when the
 * session cannot be read (network down, server error) it resolves to null
 * and hands the error to `options.onFailure`. The gate's session query passes
 * one, so such a failure shows the gate's error state, not the login screen.
 *
 * @param options `onFailure`, to tell "signed out" from "could not ask".
 * @returns The account or null.
 *
 * @example Who is signed in
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 *
 * const user = await fetchSession();
 * console.log(user === null ? "signed out" : `signed in as ${user.name}`);
 * ```
 */
export async function fetchSession(
  options: FetchSessionOptions = {},
): Promise<SessionUser | null> {
  try {
    return await activeTransport().fetchSession(options);
  } catch (error) {
    // A replacement transport broke the rule; keep it for the caller.
    reportFailure(options.onFailure, error);
    return null;
  }
}

/**
 * Signs in with an email and a password. When the account has a second
 * factor, the answer is a {@linkcode SecondFactorChallenge} instead (no
 * session yet): finish with `verifySecondFactor`. Tell the two apart with
 * `isSecondFactorChallenge`.
 *
 * @param email The account email.
 * @param password The password.
 * @returns The signed-in account, or the challenge of the second step.
 * @throws {InvalidCredentialsError} Unknown email, wrong password or disabled account.
 * @throws {RateLimitedError} The limiter refused; `retryAfter` says for how long.
 *
 * @example Signing in from a form
 * ```ts
 * import { InvalidCredentialsError, isSecondFactorChallenge, login, RateLimitedError } from "@gatehouse/client";
 *
 * async function submit(email: string, password: string): Promise<string> {
 *   try {
 *     const user = await login(email, password);
 *     if (isSecondFactorChallenge(user)) return "Enter the code of your app";
 *     return `Welcome, ${user.name}`;
 *   } catch (error) {
 *     if (error instanceof InvalidCredentialsError) return "Email or password is incorrect";
 *     if (error instanceof RateLimitedError) return `Try again in ${error.retryAfter ?? 60} s`;
 *     throw error;
 *   }
 * }
 * ```
 */
export function login(
  email: string,
  password: string,
): Promise<SessionUser | SecondFactorChallenge> {
  return activeTransport().login(email, password);
}

/**
 * Signs out (the server deletes the session and clears the cookie). Signing
 * out twice is not an error. In components prefer `useLogout()`, which also
 * clears the cache.
 *
 * @returns Once signed out.
 *
 * @example Signing out outside Preact
 * ```ts
 * import { logout } from "@gatehouse/client";
 *
 * const signOut: () => Promise<void> = logout;
 * ```
 */
export function logout(): Promise<void> {
  return activeTransport().logout();
}

/**
 * Tells whether `error` means the session is gone (REST: an
 * UnauthorizedError, that is any 401 outside login). The query client of
 * `createAuthQueryClient()` asks this of every failed query and mutation.
 *
 * @param error Whatever a call threw.
 * @returns True when the session is gone.
 *
 * @example Sorting a failure
 * ```ts
 * import { isSessionRevoked, UnauthorizedError, ValidationError } from "@gatehouse/client";
 *
 * console.assert(isSessionRevoked(new UnauthorizedError()));
 * console.assert(!isSessionRevoked(new ValidationError()));
 * ```
 */
export function isSessionRevoked(error: unknown): boolean {
  return activeTransport().isSessionRevoked(error);
}
