/**
 * What an administrator does for another account's security, and the
 * audit log (DESIGN.md §8–§10), over the transport (REST unless replaced).
 *
 * @module
 */

import { activeTransport } from "./transport.ts";
import type { AuditEventPage, AuditQuery } from "./security_types.ts";

/**
 * Ends every session of another account without disabling it (`DELETE
 * /api/users/{id}/sessions`).
 *
 * @param id The account id.
 * @returns Once ended.
 * @throws {UserNotFoundError} No such account.
 * @throws {RoleBeyondReachError} The account is beyond the caller's reach.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { revokeUserSessions } from "@gatehouse/client/admin";
 *
 * const signOutEverywhere = (id: string) => revokeUserSessions(id);
 * ```
 */
export function revokeUserSessions(id: string): Promise<void> {
  return activeTransport().revokeUserSessions(id);
}

/**
 * Removes every second factor of another account, for a lost phone
 * (`DELETE /api/users/{id}/second-factor`).
 *
 * @param id The account id.
 * @returns Once removed.
 * @throws {UserNotFoundError} No such account.
 * @throws {RoleBeyondReachError} The account is beyond the caller's reach.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { removeUserSecondFactor } from "@gatehouse/client/admin";
 *
 * const lostPhone = (id: string) => removeUserSecondFactor(id);
 * ```
 */
export function removeUserSecondFactor(id: string): Promise<void> {
  return activeTransport().removeUserSecondFactor(id);
}

/**
 * Clears the account lock of another account (`DELETE
 * /api/users/{id}/lock`): the failed sign-ins counted against its address,
 * so browsers without a trusted-device cookie may sign in again at once
 * (DESIGN.md §15).
 *
 * @param id The account id.
 * @returns Once cleared.
 * @throws {UserNotFoundError} No such account.
 * @throws {RoleBeyondReachError} The account is beyond the caller's reach.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example Unlocking the accounts the list shows locked
 * ```ts
 * import { type User, unlockUser } from "@gatehouse/client/admin";
 *
 * const unlockAll = (users: readonly User[]) =>
 *   Promise.all(users.filter((u) => u.lockedUntil).map((u) => unlockUser(u.id)));
 * ```
 */
export function unlockUser(id: string): Promise<void> {
  return activeTransport().unlockUser(id);
}

/**
 * A page of the audit log, newest first (`GET /api/audit`), filtered by
 * account (as actor or target; by id or by address) and type. The server
 * answers only the events within the caller's reach (README, "Audit
 * trail").
 *
 * @param query `limit`, `cursor`, `userId` or `email`, and `type`.
 * @returns The page.
 * @throws {ForbiddenError} The caller may not read the audit log.
 * @throws {ValidationError} `email` is not an address, or comes with `userId` (`field` "email").
 *
 * @example One account's role changes
 * ```ts
 * import { listAuditEvents } from "@gatehouse/client/admin";
 *
 * const changes = (email: string) => listAuditEvents({ email, type: "user.role_changed" });
 * ```
 */
export function listAuditEvents(
  query: AuditQuery = {},
): Promise<AuditEventPage> {
  return activeTransport().listAuditEvents(query);
}
