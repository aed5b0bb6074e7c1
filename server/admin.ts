/**
 * `createAdmin`: the user-administration handlers of DESIGN.md §4 (list,
 * create, disable or enable, change role) under the role rules of §5.
 *
 * The rules that depend on stored state (`role_changed`, the target's role
 * being within reach, `last_privileged_refused`) are decided by the store in
 * the same transaction as the write, so concurrent administrators cannot
 * break them. Disabling an account kills its sessions in that transaction.
 *
 * @module
 */

import { adminRules } from "./_admin_rules.ts";
import { isUuid, uuidv7 } from "./_crypto.ts";
import { linkBase } from "./_links.ts";
import {
  validEmail,
  validName,
  validPassword,
  validUserId,
} from "./_validate.ts";
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
import { inviteHandler } from "./invitations.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import type { Mailer } from "./mailer.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import type { Store, UserQuery, UserRecord, UserUpdate } from "./store.ts";

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
  /** How many accounts match over every page, when the store counts them. */
  total?: number;
}

const NO_STORE = { "cache-control": "no-store" };
const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;
const DIGITS = /^[0-9]{1,3}$/;
const MAX_SEARCH = 100;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const SORTS: ReadonlySet<string> = new Set(
  ["created", "name", "email"].flatMap((field) => [field, `-${field}`]),
);
const SELF_DISABLE = new AuthError("self_disable_refused");
const SELF_ROLE = new AuthError("self_role_refused");

/**
 * Builds the user-administration handlers.
 *
 * @param config Store, privileged roles, registry and collaborators.
 * @returns The four handlers and `invite`.
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
      const page = await store.listUsers(pageQuery(new URL(req.url)));
      const body: UserListJson = {
        users: page.users.map(toUserJson),
        next_cursor: page.nextCursor,
        ...(page.total === undefined ? {} : { total: page.total }),
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
      const email = validEmail(requiredString(body, "email"), limits);
      const name = validName(requiredString(body, "name"), limits);
      const password = validPassword(requiredString(body, "password"), limits);
      const role = optionalString(body, "role") ?? "";
      await rules.assertKnown(role);
      await rules.assertGrantable(actor, role);
      const createdAt = now();
      const user = await store.createUser({
        id: uuidv7(createdAt),
        email,
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
      const id = validUserId(params?.pathname.groups.id);
      const body = await decode(req, { maxBytes });
      const disabled = requiredBoolean(body, "disabled");
      const seen = optionalString(body, "role");
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
      const id = validUserId(params?.pathname.groups.id);
      const body = await decode(req, { maxBytes });
      const role = requiredString(body, "role");
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

  return {
    listUsers,
    createUser,
    setUserDisabled,
    setUserRole,
    invite,
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

// `limit` (1–100, default 50), `cursor` (the last id of the previous page),
// `q` and `sort` (created, name or email, `-` for descending). The contract has no code for a bad query string, so malformed
// values answer `body_malformed` naming the parameter (DEVELOPERS.md).
function pageQuery(url: URL): UserQuery {
  const params = url.searchParams;
  const query: UserQuery = { limit: DEFAULT_PAGE };
  const limit = params.get("limit");
  if (limit !== null) {
    const value = DIGITS.test(limit) ? Number(limit) : NaN;
    if (!(value >= 1 && value <= MAX_PAGE)) {
      throw malformedParameter(
        "limit",
        `Query parameter "limit" must be a whole number from 1 to ${MAX_PAGE}`,
      );
    }
    query.limit = value;
  }
  const cursor = params.get("cursor");
  if (cursor !== null) {
    if (!isUuid(cursor)) {
      throw malformedParameter(
        "cursor",
        'Query parameter "cursor" must be the "next_cursor" of a previous page',
      );
    }
    query.cursor = cursor.toLowerCase();
  }
  // A search reaches the store only as safe text (DESIGN.md §5's input
  // boundary): at most 100 characters, no control character.
  const q = params.get("q")?.trim().normalize("NFC");
  if (q) {
    if ([...q].length > MAX_SEARCH || CONTROL.test(q)) {
      throw malformedParameter(
        "q",
        `Query parameter "q" must be at most ${MAX_SEARCH} characters, without control characters`,
      );
    }
    query.q = q;
  }
  const sort = params.get("sort");
  if (sort !== null) {
    if (!SORTS.has(sort)) {
      throw malformedParameter(
        "sort",
        'Query parameter "sort" must be one of "created", "name", "email", optionally after "-"',
      );
    }
    query.sort = sort as NonNullable<UserQuery["sort"]>;
  }
  return query;
}

function malformedParameter(field: string, message: string): AuthError {
  return new AuthError("body_malformed", { message, meta: { field } });
}
