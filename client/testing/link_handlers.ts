/**
 * Canned answers of the invitation and password-reset endpoints.
 *
 * @module
 */

import { HttpResponse } from "msw";
import type { HttpHandler } from "../_peer_types.ts";
import { writeInviteResult, writeSessionUser } from "../_wire.ts";
import type { SessionUser } from "../types.ts";
import { route } from "./_routes.ts";
import { answerError } from "./answers.ts";
import { defaultUser } from "./users.ts";

/**
 * The invitation was mailed: `{delivered: true}`.
 *
 * @returns The handler.
 *
 * @example Inviting
 * ```ts
 * import { invite } from "@gatehouse/client/admin";
 * import { installTestEnvironment, inviteDelivered } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("invite() answers delivered", async () => {
 *   env.use(inviteDelivered());
 *   const result = await invite({ email: "a@example.com", name: "A" });
 *   if (!result.delivered) throw new Error("expected delivered");
 * });
 * ```
 */
export function inviteDelivered(): HttpHandler {
  const body = writeInviteResult({ delivered: true });
  return route("invite", () => HttpResponse.json(body));
}

/**
 * The server has no mail set up and hands the link back:
 * `{delivered: false, activation_link}`.
 *
 * @param link The activation link; a fixed one by default.
 * @returns The handler.
 *
 * @example Showing the link
 * ```ts
 * import { invite } from "@gatehouse/client/admin";
 * import { installTestEnvironment, inviteUndelivered } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("invite() answers the link", async () => {
 *   env.use(inviteUndelivered("http://localhost/invite#token=abc"));
 *   const result = await invite({ email: "a@example.com", name: "A" });
 *   if (result.delivered || result.activationLink !== "http://localhost/invite#token=abc") {
 *     throw new Error("expected the link");
 *   }
 * });
 * ```
 */
export function inviteUndelivered(
  link = "http://localhost/invite#token=test-invitation-token",
): HttpHandler {
  const body = writeInviteResult({ delivered: false, activationLink: link });
  return route("invite", () => HttpResponse.json(body));
}

/**
 * Accepting the invitation succeeds: the new account is signed in.
 *
 * @param user The account; {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example Accepting
 * ```ts
 * import { acceptInvite } from "@gatehouse/client/admin";
 * import { activateOk, defaultUser, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("acceptInvite() answers the signed-in account", async () => {
 *   env.use(activateOk());
 *   const user = await acceptInvite("token", "a long new password");
 *   if (user.id !== defaultUser.id) throw new Error("expected the default user");
 * });
 * ```
 */
export function activateOk(user: SessionUser = defaultUser): HttpHandler {
  return route(
    "acceptInvite",
    () => HttpResponse.json(writeSessionUser(user)),
  );
}

/**
 * The invitation link is spent, expired or unknown: 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example A spent link
 * ```ts
 * import { InvalidTokenError } from "@gatehouse/client";
 * import { acceptInvite } from "@gatehouse/client/admin";
 * import { activateInvalidToken, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("acceptInvite() throws InvalidTokenError", async () => {
 *   env.use(activateInvalidToken());
 *   const error = await acceptInvite("spent", "a long new password").catch((e) => e);
 *   if (!(error instanceof InvalidTokenError)) throw error;
 * });
 * ```
 */
export function activateInvalidToken(): HttpHandler {
  return answerError("acceptInvite", "token_invalid");
}

/**
 * The reset request is taken: 202, whatever the address.
 *
 * @returns The handler.
 *
 * @example Asking for a link
 * ```ts
 * import { requestPasswordReset } from "@gatehouse/client/admin";
 * import { installTestEnvironment, resetRequestOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("requestPasswordReset() resolves", async () => {
 *   env.use(resetRequestOk());
 *   await requestPasswordReset("anyone@example.com");
 * });
 * ```
 */
export function resetRequestOk(): HttpHandler {
  return route(
    "requestPasswordReset",
    () => new HttpResponse(null, { status: 202 }),
  );
}

/**
 * The new password is set: 204.
 *
 * @returns The handler.
 *
 * @example Resetting
 * ```ts
 * import { resetPassword } from "@gatehouse/client/admin";
 * import { installTestEnvironment, resetOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("resetPassword() resolves", async () => {
 *   env.use(resetOk());
 *   await resetPassword("token", "a long new password");
 * });
 * ```
 */
export function resetOk(): HttpHandler {
  return route(
    "resetPassword",
    () => new HttpResponse(null, { status: 204 }),
  );
}

/**
 * The reset link is spent, expired or unknown: 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example A dead link
 * ```ts
 * import { InvalidTokenError } from "@gatehouse/client";
 * import { resetPassword } from "@gatehouse/client/admin";
 * import { installTestEnvironment, resetInvalidToken } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("resetPassword() throws InvalidTokenError", async () => {
 *   env.use(resetInvalidToken());
 *   const error = await resetPassword("dead", "a long new password").catch((e) => e);
 *   if (!(error instanceof InvalidTokenError)) throw error;
 * });
 * ```
 */
export function resetInvalidToken(): HttpHandler {
  return answerError("resetPassword", "token_invalid");
}
