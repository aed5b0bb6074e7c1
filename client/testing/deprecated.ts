/**
 * The canned handlers under their earlier names. Every canned handler is
 * now a factory named `<operation><Outcome>()`, the operation being the
 * contract's name (the client call's, the server handler's); these names
 * stay, each as it was (a value or a factory), deprecated.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { SessionUser, User } from "../types.ts";
import {
  listUsersOk,
  setUserDisabledOk,
  setUserRoleOk,
} from "./admin_handlers.ts";
import {
  acceptInviteInvalidToken,
  acceptInviteOk,
  requestPasswordResetOk,
  resetPasswordInvalidToken,
  resetPasswordOk,
} from "./link_handlers.ts";
import {
  fetchSessionAnonymous,
  fetchSessionOk,
  fetchSessionUnavailable,
  loginOk,
} from "./session_handlers.ts";

/**
 * @deprecated Use {@linkcode loginOk}`(user)`.
 *
 * @example The same handler
 * ```ts
 * import { loginAs, userWithRole } from "@gatehouse/client/testing";
 *
 * const handler = loginAs(userWithRole("admin"));
 * ```
 */
export const loginAs: (user: SessionUser) => HttpHandler = loginOk;

/**
 * @deprecated Use {@linkcode fetchSessionOk}`()`.
 *
 * @example The same answer
 * ```ts
 * import { installTestEnvironment, sessionOk } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionOk] });
 * ```
 */
export const sessionOk: HttpHandler = fetchSessionOk();

/**
 * @deprecated Use {@linkcode fetchSessionOk}`(user)`.
 *
 * @example The same handler
 * ```ts
 * import { sessionAs, userWithRole } from "@gatehouse/client/testing";
 *
 * const handler = sessionAs(userWithRole("member"));
 * ```
 */
export const sessionAs: (user: SessionUser) => HttpHandler = fetchSessionOk;

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
 * @deprecated Use {@linkcode fetchSessionUnavailable}`()`.
 *
 * @example The same answer
 * ```ts
 * import { installTestEnvironment, sessionUnavailable } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [sessionUnavailable] });
 * ```
 */
export const sessionUnavailable: HttpHandler = fetchSessionUnavailable();

/**
 * @deprecated Use {@linkcode listUsersOk}.
 *
 * @example The same handler
 * ```ts
 * import { usersOk } from "@gatehouse/client/testing";
 *
 * const handler = usersOk();
 * ```
 */
export const usersOk: (
  users?: readonly User[],
  nextCursor?: string | null,
) => HttpHandler = listUsersOk;

/**
 * @deprecated Use {@linkcode setUserDisabledOk}.
 *
 * @example The same handler
 * ```ts
 * import { setDisabledOk } from "@gatehouse/client/testing";
 *
 * const handler = setDisabledOk();
 * ```
 */
export const setDisabledOk: (user?: User) => HttpHandler = setUserDisabledOk;

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

/**
 * @deprecated Use {@linkcode resetPasswordInvalidToken}.
 *
 * @example The same handler
 * ```ts
 * import { resetInvalidToken } from "@gatehouse/client/testing";
 *
 * const handler = resetInvalidToken();
 * ```
 */
export const resetInvalidToken: () => HttpHandler = resetPasswordInvalidToken;
