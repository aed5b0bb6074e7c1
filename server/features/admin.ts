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

import type { UserJson, UserListJson } from "@gatehouse/contract";
import type { AuditTrail } from "../core/_audit.ts";
import { type GatehouseContext, gatehouseContext } from "../core/context.ts";
import { uuidv7 } from "../core/_crypto.ts";
import { fold } from "../core/_fold.ts";
import {
  readEmail,
  readId,
  readName,
  readNewPassword,
  readRole,
  readUserQuery,
} from "../core/_input.ts";
import {
  defineOperation,
  handlersOf,
  type Operations,
} from "../core/operation.ts";
import { withinReach } from "../core/_roles.ts";
import {
  decode,
  optionalString,
  requiredBoolean,
  requiredString,
} from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { type Handler, NO_STORE, respond } from "../http/respond.ts";
import {
  listInvitationsOperation,
  revokeInvitationOperation,
} from "./invitation_admin.ts";
import { inviteOperation } from "./invitations.ts";
import { listAuditEventsOperation } from "./audit_log.ts";
import type {
  MailOptions,
  RoleOptions,
  SharedOptions,
} from "../core/options.ts";
import type { AuditEvent, UserRecord, UserUpdate } from "../core/store.ts";

/**
 * Options of {@linkcode createAdmin}: the shared settings, who may
 * administer users, and how invitation links reach people.
 */
export interface AdminOptions extends SharedOptions, RoleOptions, MailOptions {}

/**
 * @deprecated Use {@linkcode AdminOptions}: every options type is `*Options`.
 */
export type AdminConfig = AdminOptions;

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
   * (unspent, unexpired), newest first.
   */
  listInvitations: Handler;
  /**
   * `DELETE /api/users/invitations/{id}`: 204, and the link is dead.
   * `invitation_not_found` (404) for an unknown, spent or expired one,
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

const SELF_DISABLE = new AuthError("self_disable_refused");
const SELF_ROLE = new AuthError("self_role_refused");

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
  return {
    ...handlersOf(adminOperations(context)),
    privileged: context.privileged,
  };
}

/** The administration operations, on one context. */
export function adminOperations(context: GatehouseContext): Operations<
  | "listUsers"
  | "createUser"
  | "setUserDisabled"
  | "setUserRole"
  | "invite"
  | "listInvitations"
  | "revokeInvitation"
  | "revokeUserSessions"
  | "removeUserSecondFactor"
  | "unlockUser"
  | "listAuditEvents"
> {
  const { store, rules, hasher, limits, now, trail } = context;
  const maxBytes = limits.maxBodyBytes;
  const client = context.client;
  const lock = context.accountLock;
  // An account as the wire shows it, with its lock read now.
  const userJson = async (user: UserRecord) =>
    toUserJson(user, await lock.lockedUntil(fold(user.email)));

  const listUsers = defineOperation(
    context,
    "listUsers",
    async function listUsers(req) {
      const page = await store.listUsers(
        readUserQuery(new URL(req.url), limits),
      );
      const body: UserListJson = {
        users: await Promise.all(page.users.map(userJson)),
        next_cursor: page.nextCursor,
        ...(page.total === undefined ? {} : { total: page.total }),
      };
      return respond(body, { headers: NO_STORE });
    },
  );

  const createUser = defineOperation(
    context,
    "createUser",
    async function createUser(req, actor, _params, info) {
      const body = await decode(req, { maxBytes });
      const { email, key } = readEmail(requiredString(body, "email"), limits);
      const name = readName(requiredString(body, "name"), limits);
      const password = await readNewPassword(
        requiredString(body, "password"),
        limits,
      );
      const role = readRole(optionalString(body, "role"));
      await rules.assertKnown(role);
      await rules.assertGrantable(actor, role);
      const passwordHash = await hasher.hash(password);
      const createdAt = now();
      const id = uuidv7(createdAt);
      const events = [
        trail.event("user.created", {
          actor,
          target: { id, email },
          client: client(req, info),
          detail: { role },
        }),
      ];
      const user = await store.createUser({
        id,
        email,
        emailKey: key,
        name,
        role,
        passwordHash,
        createdAt,
        events,
      });
      trail.committed(events);
      return respond(await userJson(user), { status: 201, headers: NO_STORE });
    },
  );

  const setUserDisabled = defineOperation(
    context,
    "setUserDisabled",
    async function setUserDisabled(req, actor, params, info) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const body = await decode(req, { maxBytes });
      const disabled = requiredBoolean(body, "disabled");
      const seen = optionalString(body, "role");
      if (seen !== undefined) readRole(seen);
      // "Never itself", whichever way: an account signed in is enabled anyway.
      if (id === actor.id.toLowerCase()) throw SELF_DISABLE;
      const update: UserUpdate = {
        disabled,
        reachableRoles: await rules.reachable(actor),
        keepPrivileged: rules.privileged,
      };
      if (seen !== undefined) update.expectedRole = seen;
      const events = changeEvents(trail, actor, client(req, info));
      const user = await store.updateUser(id, {
        ...update,
        events: events.make,
      });
      trail.committed(events.made);
      return respond(await userJson(user), { headers: NO_STORE });
    },
  );

  const setUserRole = defineOperation(
    context,
    "setUserRole",
    async function setUserRole(req, actor, params, info) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const body = await decode(req, { maxBytes });
      const role = readRole(requiredString(body, "role"));
      await rules.assertKnown(role);
      if (id === actor.id.toLowerCase()) throw SELF_ROLE;
      await rules.assertGrantable(actor, role);
      const events = changeEvents(trail, actor, client(req, info));
      const user = await store.updateUser(id, {
        role,
        reachableRoles: await rules.reachable(actor),
        keepPrivileged: rules.privileged,
        events: events.make,
      });
      trail.committed(events.made);
      return respond(await userJson(user), { headers: NO_STORE });
    },
  );

  const revokeUserSessions = defineOperation(
    context,
    "revokeUserSessions",
    async function revokeUserSessions(req, actor, params, info) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const target = await store.userById(id);
      if (target === null) throw new AuthError("user_not_found");
      const events = [
        trail.event("user.sessions_revoked", {
          actor,
          target,
          client: client(req, info),
        }),
      ];
      await store.revokeUserSessions(id, {
        reachableRoles: await rules.reachable(actor),
        events,
      });
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const removeUserSecondFactor = defineOperation(
    context,
    "removeUserSecondFactor",
    async function removeUserSecondFactor(req, actor, params, info) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const target = await store.userById(id);
      if (target === null) throw new AuthError("user_not_found");
      const reachable = await rules.reachable(actor);
      const factors = await store.accountFactors(id);
      if (factors === null) throw new AuthError("user_not_found");
      if (!factors.totpEnabled && factors.passkeyCount === 0) {
        // Nothing to remove: the state asked for holds already, so the
        // answer is the same 204 (DELETE is idempotent), but no event, as
        // "two-step verification turned off" would record what never
        // happened. The reach rule still decides first, so an account
        // beyond reach does not tell whether it has a second factor.
        if (!withinReach(reachable, target.role)) {
          throw new AuthError("role_beyond_reach");
        }
        return new Response(null, { status: 204, headers: NO_STORE });
      }
      const events = [
        trail.event("second_factor.disabled", {
          actor,
          target,
          client: client(req, info),
          detail: { method: "all", by_administrator: true },
        }),
      ];
      await store.removeUserSecondFactor(id, {
        reachableRoles: reachable,
        events,
      });
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const unlockUser = defineOperation(
    context,
    "unlockUser",
    async function unlockUser(req, actor, params, info) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const target = await store.userById(id);
      if (target === null) throw new AuthError("user_not_found");
      if (!withinReach(await rules.reachable(actor), target.role)) {
        throw new AuthError("role_beyond_reach");
      }
      // Every count of the address ends at once, a trusted device's too:
      // the lock is cleared, whatever held it.
      await lock.clearAll(fold(target.email));
      const events = [
        trail.event("login.unlocked", {
          actor,
          target,
          client: client(req, info),
        }),
      ];
      await store.recordEvents(events);
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  return {
    listUsers,
    createUser,
    setUserDisabled,
    setUserRole,
    invite: inviteOperation(context),
    listInvitations: listInvitationsOperation(context),
    revokeInvitation: revokeInvitationOperation(context),
    revokeUserSessions,
    removeUserSecondFactor,
    unlockUser,
    listAuditEvents: listAuditEventsOperation(context),
  };
}

// The events of an account change, made by the store from the account
// before and after it (so `user.role_changed` names the role the commit
// replaced); `made` holds what the committed attempt made.
function changeEvents(
  trail: AuditTrail,
  actor: { id: string; email: string },
  client: { ip: string; userAgent: string },
) {
  const result = {
    made: [] as AuditEvent[],
    make(before: UserRecord, after: UserRecord): AuditEvent[] {
      const events: AuditEvent[] = [];
      const parts = { actor, target: before, client };
      if (before.disabled !== after.disabled) {
        events.push(
          trail.event(after.disabled ? "user.disabled" : "user.enabled", {
            ...parts,
            detail: { role: after.role },
          }),
        );
      }
      if (before.role !== after.role) {
        events.push(trail.event("user.role_changed", {
          ...parts,
          detail: { old_role: before.role, new_role: after.role },
        }));
      }
      result.made = events;
      return events;
    },
  };
  return result;
}

/**
 * An account as the wire shows it, with until when its address is locked
 * (ms; null when it is not).
 */
export function toUserJson(
  user: UserRecord,
  lockedUntil: number | null,
): UserJson {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    created_at: new Date(user.createdAt).toISOString(),
    ...(user.secondFactor === undefined
      ? {}
      : { second_factor: { ...user.secondFactor } }),
    locked_until: lockedUntil === null
      ? null
      : new Date(lockedUntil).toISOString(),
  };
}
