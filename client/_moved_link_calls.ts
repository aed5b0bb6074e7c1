// The signed-out operations under their old import path,
// `@gatehouse/client/admin`, where they used to be: the same functions as
// the main entry's, deprecated here.

import * as links from "./link_calls.ts";
import type { SessionUser } from "./types.ts";

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
