/**
 * Canned answers of the login, logout and session endpoints: factories
 * named `<operation><Outcome>()`, as every canned handler is.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { SessionUser } from "../types.ts";
import { answer, refuse } from "./answers.ts";
import { defaultUser } from "./users.ts";

/**
 * Login succeeds as the given account.
 *
 * @param user The account login answers; {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example Signing in as an administrator
 * ```ts
 * import { login } from "@gatehouse/client";
 * import { installTestEnvironment, loginOk, userWithRole } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("login() answers the account", async () => {
 *   env.use(loginOk(userWithRole("admin")));
 *   const user = await login("admin@example.com", "any password");
 *   if (!("role" in user) || user.role !== "admin") throw new Error("expected an admin");
 * });
 * ```
 */
export function loginOk(user: SessionUser = defaultUser): HttpHandler {
  return answer("login", user);
}

/**
 * Login is refused: 401 `credentials_invalid`.
 *
 * @returns The handler.
 *
 * @example A wrong password
 * ```ts
 * import { InvalidCredentialsError, login } from "@gatehouse/client";
 * import { installTestEnvironment, loginInvalid } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginInvalid()] });
 * Deno.test("login() throws InvalidCredentialsError", async () => {
 *   const error = await login("user@example.com", "wrong").catch((e) => e);
 *   if (!(error instanceof InvalidCredentialsError)) throw error;
 * });
 * ```
 */
export function loginInvalid(): HttpHandler {
  return refuse("login", "credentials_invalid");
}

/**
 * The limiter refuses login: 429 `login_rate_limited` with `Retry-After`.
 *
 * @param retryAfter Seconds in `Retry-After`; 60 by default.
 * @returns The handler.
 *
 * @example Too many attempts
 * ```ts
 * import { login, RateLimitedError } from "@gatehouse/client";
 * import { installTestEnvironment, loginRateLimited } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginRateLimited()] });
 * Deno.test("login() throws RateLimitedError", async () => {
 *   const error = await login("user@example.com", "guess").catch((e) => e);
 *   if (!(error instanceof RateLimitedError) || error.retryAfter !== 60) throw error;
 * });
 * ```
 */
export function loginRateLimited(retryAfter = 60): HttpHandler {
  return refuse("login", "login_rate_limited", { retryAfter });
}

/**
 * The account lock refuses login (DESIGN.md §15): 429 `login_rate_limited`
 * with `Retry-After` and `meta.scope: "account"`, after too many failed
 * sign-ins to the address from anywhere; with `untilReset`, the lock past
 * 100 consecutive failures, which only a password reset or an
 * administrator lifts (`meta.until: "reset"`).
 *
 * @param retryAfter Seconds in `Retry-After`; 900 by default.
 * @param untilReset The lock that waits for a reset.
 * @returns The handler.
 *
 * @example Sign-in paused for the account
 * ```ts
 * import { login, RateLimitedError } from "@gatehouse/client";
 * import { installTestEnvironment, loginAccountLocked } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginAccountLocked(120)] });
 * Deno.test("login() throws RateLimitedError naming the account", async () => {
 *   const error = await login("user@example.com", "guess").catch((e) => e);
 *   if (!(error instanceof RateLimitedError) || error.meta?.scope !== "account") throw error;
 * });
 * ```
 */
export function loginAccountLocked(
  retryAfter = 900,
  untilReset = false,
): HttpHandler {
  return refuse("login", "login_rate_limited", {
    retryAfter,
    meta: untilReset ? { scope: "account", until: "reset" } : {
      scope: "account",
    },
  });
}

/**
 * Logout succeeds: 204.
 *
 * @returns The handler.
 *
 * @example Signing out
 * ```ts
 * import { logout } from "@gatehouse/client";
 * import { installTestEnvironment, logoutOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [logoutOk()] });
 * Deno.test("logout() resolves", async () => {
 *   await logout();
 * });
 * ```
 */
export function logoutOk(): HttpHandler {
  return answer("logout");
}

/**
 * The session check answers the given account.
 *
 * @param user The signed-in account; {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example Signed in as a member
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { fetchSessionOk, installTestEnvironment, userWithRole } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("fetchSession() answers the member", async () => {
 *   env.use(fetchSessionOk(userWithRole("member")));
 *   if ((await fetchSession())?.role !== "member") throw new Error("expected a member");
 * });
 * ```
 */
export function fetchSessionOk(user: SessionUser = defaultUser): HttpHandler {
  return answer("fetchSession", user);
}

/**
 * Nobody is signed in: 401 `session_absent`.
 *
 * @returns The handler.
 *
 * @example Signed out
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { fetchSessionAnonymous, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [fetchSessionAnonymous()] });
 * Deno.test("fetchSession() answers null", async () => {
 *   if ((await fetchSession()) !== null) throw new Error("expected null");
 * });
 * ```
 */
export function fetchSessionAnonymous(): HttpHandler {
  return refuse("fetchSession", "session_absent");
}

/**
 * The session check fails on the server: 500 `internal`.
 *
 * @returns The handler.
 *
 * @example The session cannot be read
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { fetchSessionUnavailable, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [fetchSessionUnavailable()] });
 * Deno.test("fetchSession() reports the failure", async () => {
 *   let failure: unknown = null;
 *   await fetchSession({ onFailure: (error) => (failure = error) });
 *   if (failure === null) throw new Error("expected a failure");
 * });
 * ```
 */
export function fetchSessionUnavailable(): HttpHandler {
  return refuse("fetchSession", "internal");
}
