/**
 * The deprecated names of `@gatehouse/client`, all in one place, each kept
 * only because SPEC.md spells it: `fetchUsers` (a transport operation of
 * SPEC's list), and `acceptInvite`, `requestPasswordReset` and
 * `resetPassword` where they first lived, in `@gatehouse/client/admin`.
 * `DeprecatedTransportNames` is the type of the transport's old `fetchUsers`
 * member (`configureAuthTransport` still accepts it). `client/admin.ts`
 * re-exports them all; they go with the next breaking release. The canned
 * handlers of `@gatehouse/client/testing` under SPEC.md's earlier names are
 * in `testing/deprecated.ts`, so that no other entry loads the harness.
 *
 * @module
 */

import { listUsers } from "./admin_calls.ts";
import * as links from "./link_calls.ts";
import type { SessionUser, UserPage, UserQuery } from "./types.ts";

export type { DeprecatedTransportNames } from "./transport.ts";

/**
 * @deprecated Use {@linkcode listUsers}: the same call, named as its
 * operation.
 *
 * @example The earlier name
 * ```ts
 * import { fetchUsers, listUsers } from "@gatehouse/client/admin";
 *
 * console.assert(fetchUsers === listUsers);
 * ```
 */
export const fetchUsers: (query?: UserQuery) => Promise<UserPage> = listUsers;

// The signed-out operations under their old import path,
// `@gatehouse/client/admin`, where they used to be: the same functions as
// the main entry's.

/**
 * @deprecated Import `acceptInvite` from `@gatehouse/client`: it is an
 * operation of signed-out people, not of administration.
 *
 * @example The same function
 * ```ts
 * import { acceptInvite } from "@gatehouse/client";
 * import { acceptInvite as moved } from "@gatehouse/client/admin";
 *
 * console.assert(moved === acceptInvite);
 * ```
 */
export const acceptInvite: (
  token: string,
  password: string,
) => Promise<SessionUser> = links.acceptInvite;

/**
 * @deprecated Import `requestPasswordReset` from `@gatehouse/client`.
 *
 * @example The same function
 * ```ts
 * import { requestPasswordReset } from "@gatehouse/client";
 * import { requestPasswordReset as moved } from "@gatehouse/client/admin";
 *
 * console.assert(moved === requestPasswordReset);
 * ```
 */
export const requestPasswordReset: (email: string) => Promise<void> =
  links.requestPasswordReset;

/**
 * @deprecated Import `resetPassword` from `@gatehouse/client`.
 *
 * @example The same function
 * ```ts
 * import { resetPassword } from "@gatehouse/client";
 * import { resetPassword as moved } from "@gatehouse/client/admin";
 *
 * console.assert(moved === resetPassword);
 * ```
 */
export const resetPassword: (token: string, password: string) => Promise<void> =
  links.resetPassword;
