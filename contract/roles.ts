/**
 * The capabilities the contract itself names. Roles are the server's
 * business; the client asks what an account may do, never what its role is.
 *
 * @module
 */

/**
 * The capability of accounts that may administer users: the server admits
 * them to the administration routes, and the client's screens show those
 * routes to identities that carry it (`can(user, USERS_MANAGE)`).
 * `createGatehouse` gives it to exactly the roles it lets administer users,
 * so the server and the client cannot disagree.
 *
 * @example Declaring an administrator role
 * ```ts
 * import { USERS_MANAGE } from "@gatehouse/contract";
 *
 * const roles = { admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] }, member: {} };
 * ```
 */
export const USERS_MANAGE = "users.manage";
