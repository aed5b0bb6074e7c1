/**
 * `can(user, capability)`: the one question screens ask about rights. They
 * never compare role names: roles are the server's business, capabilities
 * are what a role may do.
 *
 * @module
 */

import type { SessionUser } from "./types.ts";

/**
 * Tells whether the user holds a capability. A missing user (signed out,
 * still loading) holds none, and so does a user without a `capabilities`
 * list (a server without a role registry).
 *
 * @param user The signed-in account, or null/undefined.
 * @param capability The capability, e.g. `users.manage`.
 * @returns True when `user.capabilities` lists it.
 *
 * @example Showing the users link to those who may manage users
 * ```ts
 * import { can } from "@gatehouse/client";
 *
 * const admin = { id: "1", email: "a@example.com", name: "A", role: "admin", capabilities: ["users.manage"] };
 * console.assert(can(admin, "users.manage"));
 * console.assert(!can(null, "users.manage"));
 * ```
 */
export function can(
  user: SessionUser | null | undefined,
  capability: string,
): boolean {
  return user?.capabilities?.includes(capability) ?? false;
}
