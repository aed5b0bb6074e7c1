/**
 * The canned handlers under the earlier names SPEC.md spells. Every canned
 * handler is now a factory named `<operation><Outcome>()`, the operation
 * being the contract's name (the client call's, the server handler's);
 * these names stay, each as it was (a value or a factory), deprecated.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { SessionUser, User } from "../types.ts";
import { setUserRoleOk } from "./admin_handlers.ts";
import {
  acceptInviteInvalidToken,
  acceptInviteOk,
  requestPasswordResetOk,
  resetPasswordOk,
} from "./link_handlers.ts";
import { fetchSessionAnonymous } from "./session_handlers.ts";

/**
 * @deprecated Use {@linkcode fetchSessionAnonymous}`()`.
 *
 * @example The same answer
 * ```ts
 * import { installTestEnvironment, sessionAnonymous } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionAnonymous] });
 * ```
 */
export const sessionAnonymous: HttpHandler = fetchSessionAnonymous();

/**
 * @deprecated Use {@linkcode setUserRoleOk}.
 *
 * @example The same handler
 * ```ts
 * import { roleOk } from "@gatehouse/client/testing";
 *
 * const handler = roleOk();
 * ```
 */
export const roleOk: (user?: User) => HttpHandler = setUserRoleOk;

/**
 * @deprecated Use {@linkcode acceptInviteOk}.
 *
 * @example The same handler
 * ```ts
 * import { activateOk } from "@gatehouse/client/testing";
 *
 * const handler = activateOk();
 * ```
 */
export const activateOk: (user?: SessionUser) => HttpHandler = acceptInviteOk;

/**
 * @deprecated Use {@linkcode acceptInviteInvalidToken}.
 *
 * @example The same handler
 * ```ts
 * import { activateInvalidToken } from "@gatehouse/client/testing";
 *
 * const handler = activateInvalidToken();
 * ```
 */
export const activateInvalidToken: () => HttpHandler = acceptInviteInvalidToken;

/**
 * @deprecated Use {@linkcode requestPasswordResetOk}.
 *
 * @example The same handler
 * ```ts
 * import { resetRequestOk } from "@gatehouse/client/testing";
 *
 * const handler = resetRequestOk();
 * ```
 */
export const resetRequestOk: () => HttpHandler = requestPasswordResetOk;

/**
 * @deprecated Use {@linkcode resetPasswordOk}.
 *
 * @example The same handler
 * ```ts
 * import { resetOk } from "@gatehouse/client/testing";
 *
 * const handler = resetOk();
 * ```
 */
export const resetOk: () => HttpHandler = resetPasswordOk;
