/**
 * `createAdmin`: the user-administration handlers of DESIGN.md §4 (list,
 * create, disable or enable, change role, invite) and §8 (pending
 * invitations, revoking one) under the role rules of §5.
 *
 * The rules that depend on stored state (`role_changed`, the target's role
 * being within reach, `last_privileged_refused`) are decided by the store in
 * the same transaction as the write, so concurrent administrators cannot
 * break them. Disabling an account kills its sessions in that transaction.
 *
 * @module
 */

import { type GatehouseContext, gatehouseContext } from "../core/context.ts";
import { handlersOf } from "../core/operation.ts";
import type { Handler } from "../http/respond.ts";
import type {
  MailOptions,
  RoleOptions,
  SharedOptions,
} from "../core/options.ts";
import { deferredAdmin } from "./_deferred.ts";

/**
 * Options of {@linkcode createAdmin}: the shared settings, who may
 * administer users, and how invitation links reach people.
 */
export interface AdminOptions extends SharedOptions, RoleOptions, MailOptions {}

/**
 * What {@linkcode createAdmin} returns. Each handler comes behind its
 * guard: a missing session answers 401 `session_absent`, a role outside the
 * privileged list 403 `role_insufficient`. Behind `auth.requireSession` (or
 * given an identity with `withIdentity`) the session is not read again.
 */
export interface Admin {
  /** `GET /api/users?limit&cursor&q&sort`: 200 `{users, next_cursor, total?}`. */
  listUsers: Handler;
  /** `POST /api/users` `{email, name, password, role?}`: 201 User. */
  createUser: Handler;
  /** `PATCH /api/users/{id}` `{disabled, role?}`: 200 User. */
  setUserDisabled: Handler;
  /** `PUT /api/users/{id}/role` `{role}`: 200 User. */
  setUserRole: Handler;
  /**
   * `POST /api/users/invite` `{email, name, role?}`: 200 `{delivered: true}`
   * or `{delivered: false, activation_link}`, the same for new and existing
   * addresses. Same role rules as `createUser`.
   */
  invite: Handler;
  /**
   * `GET /api/users/invitations`: 200 `{invitations}`, the pending ones
   * (unspent, unexpired, for an address without an account), newest first.
   */
  listInvitations: Handler;
  /**
   * `DELETE /api/users/invitations/{id}`: 204, and the link is dead.
   * `invitation_not_found` (404) for an unknown, spent or expired one, or
   * one whose address has an account since (it is no longer pending),
   * `role_beyond_reach` (403) for one whose role the actor could not grant,
   * `invitation_id_malformed` (400) for an id that is not a UUID.
   */
  revokeInvitation: Handler;
  /**
   * `DELETE /api/users/{id}/sessions`: 204, every session of that account
   * ended without disabling it (same reach rules as disable).
   * `user_not_found` (404),
   * `role_beyond_reach` (403), `user_id_malformed` (400).
   */
  revokeUserSessions: Handler;
  /**
   * `DELETE /api/users/{id}/second-factor`: 204, every second factor of the
   * account removed (a lost phone); reach rules as for disable. An account
   * without a second factor answers 204 too, and no event is recorded.
   */
  removeUserSecondFactor: Handler;
  /**
   * `DELETE /api/users/{id}/lock`: 204, the account lock of the account's
   * address cleared (every count of failed sign-ins, a trusted device's
   * too; DESIGN.md §15), recorded as `login.unlocked`; reach rules as for
   * disable. `user_not_found` (404), `role_beyond_reach` (403),
   * `user_id_malformed` (400).
   */
  unlockUser: Handler;
  /** `GET /api/audit?limit&cursor&user_id&type`: 200 `{events, next_cursor}`, newest first. */
  listAuditEvents: Handler;
  /** The privileged roles, as copied at construction. */
  readonly privileged: readonly string[];
}

/**
 * Builds the user-administration handlers.
 *
 * This is the hand-composition path: `createGatehouse` builds it from the
 * same options as everything else, so the privileged roles and the
 * registry cannot differ between sign-in and administration.
 *
 * @param config Store, privileged roles, registry and collaborators.
 * @returns The four handlers, `invite`, `listInvitations` and
 *   `revokeInvitation`.
 *
 * @example Listing accounts as an administrator
 * ```ts
 * import { createAdmin, withIdentity } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const admin = createAdmin({ store, privileged: ["admin"] });
 * // Behind `auth.requireSession`, which attaches the identity.
 * const req = withIdentity(new Request("http://localhost/api/users"), {
 *   id: "0190f0a0-0000-7000-8000-000000000001",
 *   email: "root@example.com",
 *   name: "Root",
 *   role: "admin",
 * });
 * const res = await admin.listUsers(req);
 * console.assert(res.status === 200);
 * kv.close();
 * ```
 */
export function createAdmin(config: AdminOptions): Admin {
  if (config.store === undefined || config.store === null) {
    throw new TypeError("Invalid admin config: a store is required");
  }
  return adminOn(gatehouseContext(config));
}

/** The administration service on a context built already. */
export function adminOn(context: GatehouseContext): Admin {
  // The operations themselves (./_admin_operations.ts) are imported by the
  // first call of one: `createAdmin` is exported by the package's main
  // entry, which every application loads at start-up.
  return {
    ...handlersOf(deferredAdmin(context)),
    privileged: context.privileged,
  };
}
