/**
 * The operations of people who are not signed in, as plain functions
 * (REST unless replaced): accepting an invitation and the two steps of a
 * password reset. They sit on the main entry, with `login`, where a
 * signed-out page finds them.
 *
 * @module
 */

import type { LinkState } from "@gatehouse/contract";
import { activeTransport, type LinkKind } from "./transport.ts";
import type { SessionUser } from "./types.ts";

export type { LinkKind, LinkState };

/**
 * Asks whether a link still works, before the person types anything; it
 * spends nothing. `ready`: ask for the password. `account_exists`: an
 * invitation whose address has an account (the link can create nothing):
 * offer to sign in or reset the password instead.
 *
 * @param token The token from the link's fragment.
 * @param kind Which page the link opened.
 * @returns What the link is good for.
 * @throws {InvalidTokenError} The link is spent, expired, revoked or unknown.
 * @throws {ServerTooOldError} The server has no such check (the spend still tells).
 *
 * @example Checking an invitation link when its page opens
 * ```ts
 * import { InvalidTokenError } from "@gatehouse/client";
 * import { checkLink } from "./link_calls.ts";
 *
 * async function stateOf(token: string): Promise<string> {
 *   try {
 *     return await checkLink(token, "invitation");
 *   } catch (error) {
 *     if (error instanceof InvalidTokenError) return "dead";
 *     return "ready"; // unknown: the spend will tell
 *   }
 * }
 * ```
 */
export function checkLink(token: string, kind: LinkKind): Promise<LinkState> {
  return activeTransport().checkLink(token, kind);
}

/**
 * Accepts an invitation: spends the link's token, sets the password and
 * signs the person in. Put the answer in the cache with `adoptSession`.
 *
 * @param token The token from the activation link's fragment.
 * @param password The password the person chose.
 * @returns The signed-in account.
 * @throws {InvalidTokenError} The link is spent, expired or unknown.
 * @throws {ValidationError} The password was refused.
 * @throws {ServerTooOldError} The server is older than 0.12.0.
 *
 * @example Accepting and entering the app
 * ```ts
 * import { acceptInvite, adoptSession } from "@gatehouse/client";
 * import type { QueryClient } from "@tanstack/preact-query";
 *
 * async function accept(client: QueryClient, token: string, password: string): Promise<void> {
 *   adoptSession(client, await acceptInvite(token, password));
 * }
 * ```
 */
export function acceptInvite(
  token: string,
  password: string,
): Promise<SessionUser> {
  return activeTransport().acceptInvite(token, password);
}

/**
 * Asks for a password-reset link by mail. The answer says nothing about the
 * address: known or not, it resolves the same.
 *
 * @param email The address to send the link to.
 * @returns Once the request is taken.
 * @throws {RateLimitedError} The limiter refused.
 * @throws {ServerTooOldError} The server is older than 0.12.0.
 *
 * @example The neutral answer
 * ```ts
 * import { requestPasswordReset } from "@gatehouse/client";
 *
 * async function ask(email: string): Promise<string> {
 *   await requestPasswordReset(email);
 *   return "If the address has an account, a link is on its way";
 * }
 * ```
 */
export function requestPasswordReset(email: string): Promise<void> {
  return activeTransport().requestPasswordReset(email);
}

/**
 * Spends a reset link's token and sets a new password. Other sessions of the
 * account end.
 *
 * @param token The token from the reset link's fragment.
 * @param password The new password.
 * @returns Once the password is set.
 * @throws {InvalidTokenError} The link is spent, expired or unknown.
 * @throws {ValidationError} The password was refused (`password_too_short`...).
 * @throws {ServerTooOldError} The server is older than 0.12.0.
 *
 * @example Setting the new password
 * ```ts
 * import { resetPassword } from "@gatehouse/client";
 *
 * const submit = (token: string, password: string): Promise<void> =>
 *   resetPassword(token, password);
 * ```
 */
export function resetPassword(token: string, password: string): Promise<void> {
  return activeTransport().resetPassword(token, password);
}
