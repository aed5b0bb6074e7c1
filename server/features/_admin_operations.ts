// The user-administration operations (DESIGN.md §4, §5, §8) on one
// context: what `createAdmin` (./admin.ts) and `createGatehouse` hand out,
// imported by the first call of one of them (./_deferred.ts), not at
// start-up.

import type { UserJson, UserListJson } from "@gatehouse/contract";
import type { AuditTrail } from "../core/_audit.ts";
import type { GatehouseContext } from "../core/context.ts";
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
import { defineOperation, type Operations } from "../core/operation.ts";
import { grantersOf, withinReach } from "../core/_roles.ts";
import {
  decode,
  optionalString,
  requiredBoolean,
  requiredString,
} from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { NO_STORE, respond } from "../http/respond.ts";
import {
  listInvitationsOperation,
  revokeInvitationOperation,
} from "./invitation_admin.ts";
import { inviteOperation } from "./invitations.ts";
import { listAuditEventsOperation } from "./audit_log.ts";
import type { AuditEvent, UserRecord, UserUpdate } from "../core/store.ts";

const SELF_DISABLE = new AuthError("self_disable_refused");
const SELF_ROLE = new AuthError("self_role_refused");

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
  // The account a path names (`/users/:id`), or the error its id earns.
  const targetOf = async (params: URLPatternResult | undefined) => {
    const id = readId(params?.pathname.groups.id, "user_id_malformed");
    const target = await store.userById(id);
    if (target === null) throw new AuthError("user_not_found");
    return { id, target };
  };
  // Who may grant an invitation's role, as acceptance asks: a role change
  // ends the invitations the account's new role may not grant.
  const invitationGranters = (role: string) =>
    grantersOf(context.capabilities, context.privileged, role);
  // An account as the wire shows it, with its lock read now.
  const userJson = async (user: UserRecord) =>
    toUserJson(user, await lock.lockedUntil(fold(user.email)));
  // Applies an administrator's change to account `id`, with the events of
  // what it changed in the same commit, and answers the account as it is.
  const applied = async (
    id: string,
    update: UserUpdate,
    actor: { id: string; email: string },
    seenFrom: { ip: string; userAgent: string },
  ) => {
    const events = changeEvents(trail, actor, seenFrom);
    const user = await store.updateUser(id, { ...update, events: events.make });
    trail.committed(events.made);
    return respond(await userJson(user), { headers: NO_STORE });
  };

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
    async function createUser(
      req,
      { identity: actor, standing },
      _params,
      info,
    ) {
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
        actor: standing,
      });
      trail.committed(events);
      return respond(await userJson(user), { status: 201, headers: NO_STORE });
    },
  );

  const setUserDisabled = defineOperation(
    context,
    "setUserDisabled",
    async function setUserDisabled(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
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
        actor: standing,
      };
      if (seen !== undefined) update.expectedRole = seen;
      return await applied(id, update, actor, client(req, info));
    },
  );

  const setUserRole = defineOperation(
    context,
    "setUserRole",
    async function setUserRole(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const body = await decode(req, { maxBytes });
      const role = readRole(requiredString(body, "role"));
      await rules.assertKnown(role);
      if (id === actor.id.toLowerCase()) throw SELF_ROLE;
      await rules.assertGrantable(actor, role);
      return await applied(
        id,
        {
          role,
          reachableRoles: await rules.reachable(actor),
          keepPrivileged: rules.privileged,
          actor: standing,
          granters: invitationGranters,
        },
        actor,
        client(req, info),
      );
    },
  );

  const revokeUserSessions = defineOperation(
    context,
    "revokeUserSessions",
    async function revokeUserSessions(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
      const { id, target } = await targetOf(params);
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
        actor: standing,
      });
      trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const removeUserSecondFactor = defineOperation(
    context,
    "removeUserSecondFactor",
    async function removeUserSecondFactor(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
      const { id, target } = await targetOf(params);
      const events = [
        trail.event("second_factor.disabled", {
          actor,
          target,
          client: client(req, info),
          detail: { method: "all", by_administrator: true },
        }),
      ];
      const removed = await store.removeUserSecondFactor(id, {
        reachableRoles: await rules.reachable(actor),
        events,
        actor: standing,
      });
      // Nothing was left to remove (none there, or a racing removal took
      // it): the state asked for holds, so the answer is the same 204
      // (DELETE is idempotent), but the store wrote no event, as "two-step
      // verification turned off" would record what never happened.
      if (removed) trail.committed(events);
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );

  const unlockUser = defineOperation(
    context,
    "unlockUser",
    async function unlockUser(
      req,
      { identity: actor, standing },
      params,
      info,
    ) {
      const { id, target } = await targetOf(params);
      const reachableRoles = await rules.reachable(actor);
      if (!withinReach(reachableRoles, target.role)) {
        throw new AuthError("role_beyond_reach");
      }
      const events = [
        trail.event("login.unlocked", {
          actor,
          target,
          client: client(req, info),
        }),
      ];
      // Two writes, since the counts are counters and the store's commit
      // takes records: the event first, so that no unlock is ever missing
      // from the trail. Should the clearing then fail, the answer is a 500
      // and the account stays locked; another unlock records another event.
      // The reach is decided again in the event's commit: an account
      // promoted beyond it since the read above is not unlocked.
      await store.recordEvents(events, {
        actor: standing,
        target: { id, reachableRoles },
      });
      trail.committed(events);
      // Every count of the address ends at once, a trusted device's too:
      // the lock is cleared, whatever held it.
      await lock.clearAll(fold(target.email));
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
