/**
 * Canned answers of the invitation and password-reset endpoints.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { SessionUser } from "../types.ts";
import { answer, refuse } from "./answers.ts";
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
  return answer("invite", { delivered: true });
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
  return answer("invite", { delivered: false, activationLink: link });
}

/**
 * Accepting the invitation succeeds: the new account is signed in.
 *
 * @param user The account; {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example Accepting
 * ```ts
 * import { acceptInvite } from "@gatehouse/client";
 * import { acceptInviteOk, defaultUser, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("acceptInvite() answers the signed-in account", async () => {
 *   env.use(acceptInviteOk());
 *   const user = await acceptInvite("token", "a long new password");
 *   if (user.id !== defaultUser.id) throw new Error("expected the default user");
 * });
 * ```
 */
export function acceptInviteOk(user: SessionUser = defaultUser): HttpHandler {
  return answer("acceptInvite", user);
}

/**
 * The invitation link is spent, expired or unknown: 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example A spent link
 * ```ts
 * import { acceptInvite, InvalidTokenError } from "@gatehouse/client";
 * import { acceptInviteInvalidToken, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("acceptInvite() throws InvalidTokenError", async () => {
 *   env.use(acceptInviteInvalidToken());
 *   const error = await acceptInvite("spent", "a long new password").catch((e) => e);
 *   if (!(error instanceof InvalidTokenError)) throw error;
 * });
 * ```
 */
export function acceptInviteInvalidToken(): HttpHandler {
  return refuse("acceptInvite", "token_invalid");
}

/**
 * The reset request is taken: 202, whatever the address.
 *
 * @returns The handler.
 *
 * @example Asking for a link
 * ```ts
 * import { requestPasswordReset } from "@gatehouse/client";
 * import { installTestEnvironment, requestPasswordResetOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("requestPasswordReset() resolves", async () => {
 *   env.use(requestPasswordResetOk());
 *   await requestPasswordReset("anyone@example.com");
 * });
 * ```
 */
export function requestPasswordResetOk(): HttpHandler {
  return answer("requestPasswordReset");
}

/**
 * The new password is set: 204.
 *
 * @returns The handler.
 *
 * @example Resetting
 * ```ts
 * import { resetPassword } from "@gatehouse/client";
 * import { installTestEnvironment, resetPasswordOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("resetPassword() resolves", async () => {
 *   env.use(resetPasswordOk());
 *   await resetPassword("token", "a long new password");
 * });
 * ```
 */
export function resetPasswordOk(): HttpHandler {
  return answer("resetPassword");
}

/**
 * The reset link is spent, expired or unknown: 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example A dead link
 * ```ts
 * import { InvalidTokenError, resetPassword } from "@gatehouse/client";
 * import { installTestEnvironment, resetPasswordInvalidToken } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("resetPassword() throws InvalidTokenError", async () => {
 *   env.use(resetPasswordInvalidToken());
 *   const error = await resetPassword("dead", "a long new password").catch((e) => e);
 *   if (!(error instanceof InvalidTokenError)) throw error;
 * });
 * ```
 */
export function resetPasswordInvalidToken(): HttpHandler {
  return refuse("resetPassword", "token_invalid");
}

/**
 * The link still works: `{status: "ready"}`, for the check a link's page
 * makes when it opens (either kind).
 *
 * @returns The handler.
 *
 * @example A live invitation link
 * ```ts
 * import { checkLink } from "../link_calls.ts";
 * import { checkLinkReady, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("checkLink() answers ready", async () => {
 *   env.use(checkLinkReady());
 *   if ((await checkLink("token", "invitation")) !== "ready") throw new Error("expected ready");
 * });
 * ```
 */
export function checkLinkReady(): HttpHandler {
  return answer("checkLink", { status: "ready" });
}

/**
 * An invitation whose address has an account:
 * `{status: "account_exists"}`.
 *
 * @returns The handler.
 *
 * @example An invitation for someone who can sign in already
 * ```ts
 * import { checkLink } from "../link_calls.ts";
 * import { checkLinkAccountExists, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("checkLink() answers account_exists", async () => {
 *   env.use(checkLinkAccountExists());
 *   if ((await checkLink("token", "invitation")) !== "account_exists") throw new Error("expected account_exists");
 * });
 * ```
 */
export function checkLinkAccountExists(): HttpHandler {
  return answer("checkLink", { status: "account_exists" });
}

/**
 * The link is dead (spent, expired, revoked, unknown): 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example A revoked link
 * ```ts
 * import { InvalidTokenError } from "@gatehouse/client";
 * import { checkLink } from "../link_calls.ts";
 * import { checkLinkInvalidToken, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("checkLink() throws InvalidTokenError", async () => {
 *   env.use(checkLinkInvalidToken());
 *   const error = await checkLink("revoked", "invitation").catch((e) => e);
 *   if (!(error instanceof InvalidTokenError)) throw error;
 * });
 * ```
 */
export function checkLinkInvalidToken(): HttpHandler {
  return refuse("checkLink", "token_invalid");
}
