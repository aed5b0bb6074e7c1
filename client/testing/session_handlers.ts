/**
 * Canned answers of the login, logout and session endpoints.
 *
 * @module
 */

import { HttpResponse } from "msw";
import type { HttpHandler } from "../_peer_types.ts";
import { writeSessionUser } from "../_wire.ts";
import type { SessionUser } from "../types.ts";
import { route } from "./_routes.ts";
import { answerError } from "./answers.ts";
import { defaultUser } from "./users.ts";

/**
 * Login succeeds as the given account.
 *
 * @param user The account login answers.
 * @returns The handler.
 *
 * @example Signing in as an administrator
 * ```ts
 * import { login } from "@gatehouse/client";
 * import { installTestEnvironment, loginAs, userWithRole } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("login() answers the account", async () => {
 *   env.use(loginAs(userWithRole("admin")));
 *   const user = await login("admin@example.com", "any password");
 *   if (user.role !== "admin") throw new Error("expected an admin");
 * });
 * ```
 */
export function loginAs(user: SessionUser): HttpHandler {
  return route("login", () => HttpResponse.json(writeSessionUser(user)));
}

/**
 * Login succeeds as {@linkcode defaultUser}.
 *
 * @example Signing in
 * ```ts
 * import { login } from "@gatehouse/client";
 * import { defaultUser, installTestEnvironment, loginOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginOk] });
 * Deno.test("login() answers the default user", async () => {
 *   const user = await login("user@example.com", "any password");
 *   if (user.id !== defaultUser.id) throw new Error("expected the default user");
 * });
 * ```
 */
export const loginOk: HttpHandler = loginAs(defaultUser);

/**
 * Login is refused: 401 `credentials_invalid`.
 *
 * @example A wrong password
 * ```ts
 * import { InvalidCredentialsError, login } from "@gatehouse/client";
 * import { installTestEnvironment, loginInvalid } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginInvalid] });
 * Deno.test("login() throws InvalidCredentialsError", async () => {
 *   const error = await login("user@example.com", "wrong").catch((e) => e);
 *   if (!(error instanceof InvalidCredentialsError)) throw error;
 * });
 * ```
 */
export const loginInvalid: HttpHandler = answerError(
  "login",
  "credentials_invalid",
);

/**
 * The limiter refuses login: 429 `login_rate_limited` with `Retry-After: 60`.
 *
 * @example Too many attempts
 * ```ts
 * import { login, RateLimitedError } from "@gatehouse/client";
 * import { installTestEnvironment, loginRateLimited } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [loginRateLimited] });
 * Deno.test("login() throws RateLimitedError", async () => {
 *   const error = await login("user@example.com", "guess").catch((e) => e);
 *   if (!(error instanceof RateLimitedError) || error.retryAfter !== 60) throw error;
 * });
 * ```
 */
export const loginRateLimited: HttpHandler = answerError(
  "login",
  "login_rate_limited",
  { retryAfter: 60 },
);

/**
 * Logout succeeds: 204.
 *
 * @example Signing out
 * ```ts
 * import { logout } from "@gatehouse/client";
 * import { installTestEnvironment, logoutOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [logoutOk] });
 * Deno.test("logout() resolves", async () => {
 *   await logout();
 * });
 * ```
 */
export const logoutOk: HttpHandler = route(
  "logout",
  () => new HttpResponse(null, { status: 204 }),
);

/**
 * The session check answers the given account.
 *
 * @param user The signed-in account.
 * @returns The handler.
 *
 * @example Signed in as a member
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { installTestEnvironment, sessionAs, userWithRole } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("fetchSession() answers the member", async () => {
 *   env.use(sessionAs(userWithRole("member")));
 *   if ((await fetchSession())?.role !== "member") throw new Error("expected a member");
 * });
 * ```
 */
export function sessionAs(user: SessionUser): HttpHandler {
  return route("fetchSession", () => HttpResponse.json(writeSessionUser(user)));
}

/**
 * The session check answers {@linkcode defaultUser}.
 *
 * @example Signed in
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { installTestEnvironment, sessionOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionOk] });
 * Deno.test("fetchSession() answers a user", async () => {
 *   if ((await fetchSession()) === null) throw new Error("expected a user");
 * });
 * ```
 */
export const sessionOk: HttpHandler = sessionAs(defaultUser);

/**
 * Nobody is signed in: 401 `session_absent`.
 *
 * @example Signed out
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { installTestEnvironment, sessionAnonymous } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionAnonymous] });
 * Deno.test("fetchSession() answers null", async () => {
 *   if ((await fetchSession()) !== null) throw new Error("expected null");
 * });
 * ```
 */
export const sessionAnonymous: HttpHandler = answerError(
  "fetchSession",
  "session_absent",
);

/**
 * The session check fails on the server: 500 `internal`.
 *
 * @example The session cannot be read
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { installTestEnvironment, sessionUnavailable } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionUnavailable] });
 * Deno.test("fetchSession() reports the failure", async () => {
 *   let failure: unknown = null;
 *   await fetchSession({ onFailure: (error) => (failure = error) });
 *   if (failure === null) throw new Error("expected a failure");
 * });
 * ```
 */
export const sessionUnavailable: HttpHandler = answerError(
  "fetchSession",
  "internal",
);
