/**
 * The administration operations of the transport, as plain functions (REST
 * unless replaced): accounts and invitations. The operations of signed-out
 * people (accepting an invitation, password resets) are in `link_calls.ts`,
 * on the main entry.
 *
 * @module
 */

import { EmailTakenError } from "./errors.ts";
import { InvitationFailedError } from "./service_errors.ts";
import { activeTransport } from "./transport.ts";
import type {
  InviteResult,
  NewInvitation,
  NewUser,
  PendingInvitation,
  SetUserDisabledOptions,
  User,
  UserPage,
  UserQuery,
} from "./types.ts";

/**
 * A page of accounts, oldest first (`GET /api/users`).
 *
 * @param query `limit`, `cursor` (the previous page's `nextCursor`) and `q`.
 * @returns The page.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {ForbiddenError} The signed-in account may not list accounts.
 *
 * @example The first twenty accounts matching "ada"
 * ```ts
 * import { listUsers, type UserPage } from "@gatehouse/client/admin";
 *
 * const search = (q: string): Promise<UserPage> => listUsers({ q, limit: 20 });
 * ```
 */
export function listUsers(query: UserQuery = {}): Promise<UserPage> {
  return activeTransport().listUsers(query);
}

/**
 * Creates an account (`POST /api/users`), with a role or none.
 *
 * @param user Email, name, password and optional role.
 * @returns The new account.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {EmailTakenError} The email is in use.
 * @throws {ValidationError} Bad input; `code` and `field` say what.
 * @throws {RoleUnknownError} No registry declares the role.
 * @throws {RoleBeyondReachError} The signed-in account may not hand out the role.
 * @throws {RoleRefusedError} The signed-in account may not hand out roles at all.
 *
 * @example Creating a member
 * ```ts
 * import { createUser, EmailTakenError, type User } from "@gatehouse/client/admin";
 *
 * async function add(email: string, name: string, password: string): Promise<User | "taken"> {
 *   try {
 *     return await createUser({ email, name, password, role: "member" });
 *   } catch (error) {
 *     if (error instanceof EmailTakenError) return "taken";
 *     throw error;
 *   }
 * }
 * ```
 */
export function createUser(user: NewUser): Promise<User> {
  return activeTransport().createUser(user);
}

/**
 * Disables or enables an account (`PATCH /api/users/{id}`). Disabling ends
 * its sessions at once. Pass the role you showed as `seenRole` so the server
 * refuses if it changed meanwhile.
 *
 * @param id The account id.
 * @param disabled True to disable, false to enable.
 * @param options `seenRole`: the role the account had when shown.
 * @returns The account as it is now.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {RoleChangedError} The role changed since it was shown.
 * @throws {SelfDisableError} The account is the signed-in one.
 * @throws {LastPrivilegedError} It is the last account that may administer users.
 * @throws {RoleBeyondReachError} The signed-in account may not change this account.
 *
 * @example Enabling an account again
 * ```ts
 * import { setUserDisabled, type User } from "@gatehouse/client/admin";
 *
 * const enable = (user: User): Promise<User> =>
 *   setUserDisabled(user.id, false, { seenRole: user.role });
 * ```
 */
export function setUserDisabled(
  id: string,
  disabled: boolean,
  options: SetUserDisabledOptions = {},
): Promise<User> {
  return activeTransport().setUserDisabled(id, disabled, options);
}

/**
 * Changes an account's role (`PUT /api/users/{id}/role`).
 *
 * @param id The account id.
 * @param role The new role; empty for none.
 * @returns The account as it is now.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {RoleRefusedError} The signed-in account may not change roles.
 * @throws {SelfRoleError} The account is the signed-in one.
 * @throws {LastPrivilegedError} It would remove the last administrator.
 * @throws {RoleUnknownError} No registry declares the role.
 * @throws {RoleBeyondReachError} The signed-in account may not hand out that role or change that account.
 * @throws {ServerTooOldError} The server is 0.8.0 or older (it calls this write `rank`).
 *
 * @example Promoting an account
 * ```ts
 * import { setUserRole, type User } from "@gatehouse/client/admin";
 *
 * const promote = (user: User): Promise<User> => setUserRole(user.id, "admin");
 * ```
 */
export function setUserRole(id: string, role: string): Promise<User> {
  return activeTransport().setUserRole(id, role);
}

/**
 * Invites a person (`POST /api/users/invite`): the server mails an
 * activation link, or hands it back when it has no mail set up. The answer
 * is the same whether the address already has an account or not; this call
 * never throws EmailTakenError.
 *
 * @param invitation Email, name and optional role.
 * @returns `{delivered: true}` or `{delivered: false, activationLink}`.
 * @throws {ValidationError} Bad input.
 * @throws {InvitationFailedError} Not delivered and no link came back.
 * @throws {RoleUnknownError} No registry declares the role.
 * @throws {RoleBeyondReachError} The signed-in account may not hand out the role.
 * @throws {ServerTooOldError} The server is older than 0.12.0.
 *
 * @example Inviting and showing the link when it was not mailed
 * ```ts
 * import { invite } from "@gatehouse/client/admin";
 *
 * async function send(email: string, name: string): Promise<string | null> {
 *   const result = await invite({ email, name, role: "member" });
 *   return result.delivered ? null : result.activationLink;
 * }
 * ```
 */
export async function invite(
  invitation: NewInvitation,
): Promise<InviteResult> {
  let result: InviteResult;
  try {
    result = await activeTransport().invite(invitation);
  } catch (error) {
    // Whatever the transport, an invitation never reveals a taken address.
    if (error instanceof EmailTakenError) {
      throw new InvitationFailedError(undefined, { status: error.status });
    }
    throw error;
  }
  if (!result.delivered && !result.activationLink) {
    throw new InvitationFailedError();
  }
  return result;
}

/**
 * The pending invitations, newest first (`GET /api/users/invitations`):
 * neither accepted, revoked nor expired.
 *
 * @returns The invitations.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {ForbiddenError} The signed-in account may not administer users.
 *
 * @example Who has not answered yet
 * ```ts
 * import { listInvitations } from "@gatehouse/client/admin";
 *
 * async function waitingFor(): Promise<string[]> {
 *   return (await listInvitations()).map((invitation) => invitation.email);
 * }
 * ```
 */
export function listInvitations(): Promise<PendingInvitation[]> {
  return activeTransport().listInvitations();
}

/**
 * Revokes a pending invitation (`DELETE /api/users/invitations/{id}`): its
 * link dies at once.
 *
 * @param id The invitation's id (from {@linkcode listInvitations}).
 * @returns Once it is revoked.
 * @throws {UnauthorizedError} The session is gone.
 * @throws {InvitationNotFoundError} It is no longer pending.
 * @throws {RoleBeyondReachError} The signed-in account could not have sent it.
 *
 * @example Revoking, and not minding one already gone
 * ```ts
 * import { InvitationNotFoundError, revokeInvitation } from "@gatehouse/client/admin";
 *
 * async function revoke(id: string): Promise<void> {
 *   await revokeInvitation(id).catch((error) => {
 *     if (!(error instanceof InvitationNotFoundError)) throw error;
 *   });
 * }
 * ```
 */
export function revokeInvitation(id: string): Promise<void> {
  return activeTransport().revokeInvitation(id);
}
