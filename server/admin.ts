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

import { adminRules } from "./_admin_rules.ts";
import { uuidv7 } from "./_crypto.ts";
import {
  readEmail,
  readId,
  readName,
  readNewPassword,
  readRole,
  readUserQuery,
} from "./_input.ts";
import { linkBase } from "./_links.ts";
import type { CapabilityRegistry } from "./capabilities.ts";
import {
  decode,
  optionalString,
  requiredBoolean,
  requiredString,
} from "./decode.ts";
import { AuthError } from "./errors.ts";
import { answerError, type Handler, respond } from "./http.ts";
import { type Limits, resolveLimits } from "./limits.ts";
import {
  listInvitationsHandler,
  revokeInvitationHandler,
} from "./invitation_admin.ts";
import { inviteHandler } from "./invitations.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import type { Mailer } from "./mailer.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import type { Store, UserRecord, UserUpdate } from "./store.ts";

/** Configuration of {@linkcode createAdmin}. */
export interface AdminConfig {
  /** Where accounts live. Required. */
  store: Store;
  /**
   * Roles that may administer accounts; copied now. Empty admits every role.
   * Also the roles "last privileged account" protects.
   */
  privileged?: readonly string[];
  /** Optional role registry: which roles exist and who may grant which. */
  capabilities?: CapabilityRegistry;
  /** Password hasher for new accounts; argon2id at OWASP parameters by default. */
  hasher?: PasswordHasher;
  /** Where failures are logged; `console` by default. */
  logger?: Logger;
  /** Overrides of the input limits (body size, lengths). */
  limits?: Partial<Limits>;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
  /**
   * Sends invitations. Without one, `invite` answers the activation link to
   * the administrator (`{delivered: false, activation_link}`).
   */
  mailer?: Mailer;
  /**
   * The site's public base URL, the origin of every mailed link (required
   * with a mailer). Without it, a link handed back to the administrator uses
   * the request's origin, and a warning is logged once.
   */
  publicUrl?: string;
}

/**
 * What {@linkcode createAdmin} returns. Mount each handler behind
 * `auth.requireSession`; each also refuses a missing session (401
 * `session_absent`) and a role outside the privileged list (403
 * `role_insufficient`) itself.
 */
export interface Admin {
  /** `GET /api/users?limit&cursor&q`: 200 `{users, next_cursor}`. */
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
  /** The privileged roles, as copied at construction. */
  readonly privileged: readonly string[];
}

/** An account on the wire (DESIGN.md §4). */
export interface UserJson {
  /** A UUID. */
  id: string;
  /** As stored: trimmed, original case. */
  email: string;
  /** Display name. */
  name: string;
  /** The role; empty for none. */
  role: string;
  /** Whether the account is disabled. */
  disabled: boolean;
  /** Creation time, ISO 8601. */
  created_at: string;
}

/** A page of accounts on the wire. */
export interface UserListJson {
  /** The accounts, oldest first. */
  users: UserJson[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

const NO_STORE = { "cache-control": "no-store" };
const SELF_DISABLE = new AuthError("self_disable_refused");
const SELF_ROLE = new AuthError("self_role_refused");

/**
 * Builds the user-administration handlers.
 *
 * @param config Store, privileged roles, registry and collaborators.
 * @returns The four handlers, `invite`, `listInvitations` and
 *   `revokeInvitation`.
 *
 * @example Mounting administration behind the session guard
 * ```ts
 * import { createAdmin, createAuth, type Handler } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const privileged = ["admin"];
 * const auth = createAuth({ store, privileged });
 * const admin = createAdmin({ store, privileged });
 *
 * const routes: Array<[string, URLPattern, Handler]> = [
 *   ["GET", new URLPattern({ pathname: "/api/users" }), admin.listUsers],
 *   ["POST", new URLPattern({ pathname: "/api/users" }), admin.createUser],
 *   ["POST", new URLPattern({ pathname: "/api/users/invite" }), admin.invite],
 *   ["GET", new URLPattern({ pathname: "/api/users/invitations" }), admin.listInvitations],
 *   ["DELETE", new URLPattern({ pathname: "/api/users/invitations/:id" }), admin.revokeInvitation],
 *   ["PATCH", new URLPattern({ pathname: "/api/users/:id" }), admin.setUserDisabled],
 *   ["PUT", new URLPattern({ pathname: "/api/users/:id/role" }), admin.setUserRole],
 * ];
 * const app: Handler = (req, _params, info) => {
 *   for (const [method, pattern, handler] of routes) {
 *     const match = method === req.method && pattern.exec(req.url);
 *     if (match) return auth.requireSession(handler)(req, match, info);
 *   }
 *   return new Response("Not found", { status: 404 });
 * };
 * const res = await app(new Request("http://localhost/api/users"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 */
export function createAdmin(config: AdminConfig): Admin {
  const store = config.store;
  if (store === undefined || store === null) {
    throw new TypeError("Invalid admin config: a store is required");
  }
  const rules = adminRules(config.privileged ?? [], config.capabilities);
  const logger = config.logger ?? defaultLogger;
  const hasher = config.hasher ?? argon2Hasher({ logger });
  const limits = resolveLimits(config.limits);
  const now = config.now ?? Date.now;
  const maxBytes = limits.maxBodyBytes;

  const listUsers: Handler = async function listUsers(req) {
    try {
      rules.actor(req);
      const page = await store.listUsers(
        readUserQuery(new URL(req.url), limits),
      );
      const body: UserListJson = {
        users: page.users.map(toUserJson),
        next_cursor: page.nextCursor,
      };
      return respond(body, { headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };

  const createUser: Handler = async function createUser(req) {
    try {
      const actor = rules.actor(req);
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
      const createdAt = now();
      const user = await store.createUser({
        id: uuidv7(createdAt),
        email,
        emailKey: key,
        name,
        role,
        passwordHash: await hasher.hash(password),
        createdAt,
      });
      return respond(toUserJson(user), { status: 201, headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };

  const setUserDisabled: Handler = async function setUserDisabled(
    req,
    params,
  ) {
    try {
      const actor = rules.actor(req);
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
      const user = await store.updateUser(id, update);
      return respond(toUserJson(user), { headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };

  const setUserRole: Handler = async function setUserRole(req, params) {
    try {
      const actor = rules.actor(req);
      const id = readId(params?.pathname.groups.id, "user_id_malformed");
      const body = await decode(req, { maxBytes });
      const role = readRole(requiredString(body, "role"));
      await rules.assertKnown(role);
      if (id === actor.id.toLowerCase()) throw SELF_ROLE;
      await rules.assertGrantable(actor, role);
      const user = await store.updateUser(id, {
        role,
        reachableRoles: await rules.reachable(actor),
        keepPrivileged: rules.privileged,
      });
      return respond(toUserJson(user), { headers: NO_STORE });
    } catch (err) {
      return answerError(err, logger);
    }
  };

  const invite = inviteHandler({
    store,
    rules,
    limits,
    logger,
    now,
    mailer: config.mailer,
    publicUrl: linkBase(config.publicUrl, config.mailer),
  });

  const invitations = { store, rules, logger, now };
  return {
    listUsers,
    createUser,
    setUserDisabled,
    setUserRole,
    invite,
    listInvitations: listInvitationsHandler(invitations),
    revokeInvitation: revokeInvitationHandler(invitations),
    privileged: rules.privileged,
  };
}

/** An account as the wire shows it. */
export function toUserJson(user: UserRecord): UserJson {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    created_at: new Date(user.createdAt).toISOString(),
  };
}
