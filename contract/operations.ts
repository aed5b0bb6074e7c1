/**
 * Every operation of the HTTP API as data: its canonical name, method, path,
 * guard, limiter, success status and the refusals of its own. The server's
 * routes, the client's REST transport, the client's test harness and the
 * OpenAPI description are all derived from {@linkcode OPERATIONS}; the
 * shapes of bodies and answers are in `shapes.ts`, keyed by the same names.
 *
 * @module
 */

import type { ErrorCode } from "./errors.ts";

/** An HTTP method the API uses. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call an operation: anyone (`public`), a signed-in account
 * (`session`), or a signed-in account whose role may administer users
 * (`privileged`).
 */
export type Guard = "public" | "session" | "privileged";

/**
 * The login rate limiter an operation sits behind, by the count it adds to:
 * failed sign-ins (`login`), reset requests (`reset`), or attempts with dead
 * links (`link`, each of which costs an argon2 hash).
 */
export type Limiter = "login" | "reset" | "link";

/** One operation of the API. */
export interface OperationSpec {
  /** The HTTP method. */
  readonly method: Method;
  /** The path in URLPattern syntax; path values are `:name` (`/api/users/:id`). */
  readonly path: string;
  /** Who may call it. */
  readonly guard: Guard;
  /** The rate limiter in front of it, if any. */
  readonly limiter?: Limiter;
  /** One line for people (the OpenAPI summary). */
  readonly summary: string;
  /** The status of its success. */
  readonly success: number;
  /**
   * The refusals of its own. Those that follow from the guard, the limiter,
   * the method and the mount are added by {@linkcode errorsOf}.
   */
  readonly errors: readonly ErrorCode[];
}

// What decoding a JSON body may refuse (the bounded `decode`).
const JSON_BODY = [
  "body_malformed",
  "body_too_large",
  "body_field_required",
] as const satisfies readonly ErrorCode[];

// What a new password may be refused for.
const NEW_PASSWORD = [
  "password_too_short",
  "password_too_long",
  "password_too_common",
] as const satisfies readonly ErrorCode[];

// What a name and an email may be refused for.
const PERSON = [
  "email_invalid",
  "name_required",
  "name_too_long",
] as const satisfies readonly ErrorCode[];

/**
 * The operations of the HTTP API (DESIGN.md §4), by canonical name: the
 * same name is the server's handler, the key in `routes`, the client's
 * call, and the prefix of the client's canned test handlers.
 *
 * @example The method and path of an operation
 * ```ts
 * import { OPERATIONS } from "@gatehouse/contract";
 *
 * const { method, path } = OPERATIONS.setUserRole;
 * console.assert(method === "PUT" && path === "/api/users/:id/role");
 * ```
 */
export const OPERATIONS = {
  login: {
    method: "POST",
    path: "/api/auth/login",
    guard: "public",
    limiter: "login",
    summary: "Sign in with an email and a password",
    success: 200,
    errors: [...JSON_BODY, "credentials_invalid"],
  },
  logout: {
    method: "POST",
    path: "/api/auth/logout",
    guard: "public",
    summary: "Sign out (also without a session)",
    success: 204,
    errors: [],
  },
  fetchSession: {
    method: "GET",
    path: "/api/auth/session",
    guard: "session",
    summary: "The identity of the signed-in account",
    success: 200,
    errors: [],
  },
  listUsers: {
    method: "GET",
    path: "/api/users",
    guard: "privileged",
    summary: "A page of accounts, oldest first",
    success: 200,
    errors: ["body_malformed"],
  },
  createUser: {
    method: "POST",
    path: "/api/users",
    guard: "privileged",
    summary: "Create an account with a first password",
    success: 201,
    errors: [
      ...JSON_BODY,
      ...PERSON,
      ...NEW_PASSWORD,
      "role_unknown",
      "role_beyond_reach",
      "email_taken",
    ],
  },
  setUserDisabled: {
    method: "PATCH",
    path: "/api/users/:id",
    guard: "privileged",
    summary: "Disable or enable an account",
    success: 200,
    errors: [
      ...JSON_BODY,
      "user_id_malformed",
      "self_disable_refused",
      "role_beyond_reach",
      "user_not_found",
      "role_changed",
      "last_privileged_refused",
    ],
  },
  setUserRole: {
    method: "PUT",
    path: "/api/users/:id/role",
    guard: "privileged",
    summary: "Change the role of an account",
    success: 200,
    errors: [
      ...JSON_BODY,
      "user_id_malformed",
      "role_unknown",
      "self_role_refused",
      "role_beyond_reach",
      "user_not_found",
      "last_privileged_refused",
    ],
  },
  invite: {
    method: "POST",
    path: "/api/users/invite",
    guard: "privileged",
    summary: "Invite a person by email to set their own password",
    success: 200,
    errors: [...JSON_BODY, ...PERSON, "role_unknown", "role_beyond_reach"],
  },
  listInvitations: {
    method: "GET",
    path: "/api/users/invitations",
    guard: "privileged",
    summary: "The pending invitations, newest first",
    success: 200,
    errors: [],
  },
  revokeInvitation: {
    method: "DELETE",
    path: "/api/users/invitations/:id",
    guard: "privileged",
    summary: "Revoke a pending invitation; its link dies",
    success: 204,
    errors: ["invitation_not_found", "role_beyond_reach"],
  },
  acceptInvite: {
    method: "POST",
    path: "/api/auth/invite/accept",
    guard: "public",
    limiter: "link",
    summary: "Accept an invitation: set the password and sign in",
    success: 200,
    errors: [...JSON_BODY, ...NEW_PASSWORD, "token_invalid"],
  },
  requestPasswordReset: {
    method: "POST",
    path: "/api/auth/password-reset",
    guard: "public",
    limiter: "reset",
    summary:
      "Ask for a password-reset link (the same answer for every address)",
    success: 202,
    errors: [...JSON_BODY, "email_invalid"],
  },
  resetPassword: {
    method: "POST",
    path: "/api/auth/password-reset/confirm",
    guard: "public",
    limiter: "link",
    summary: "Set a new password with a reset link",
    success: 204,
    errors: [...JSON_BODY, ...NEW_PASSWORD, "token_invalid"],
  },
  describeApi: {
    method: "GET",
    path: "/api/openapi.json",
    guard: "public",
    summary: "This API's OpenAPI 3.1 description",
    success: 200,
    errors: [],
  },
} as const satisfies Record<string, OperationSpec>;

/**
 * The canonical name of an operation.
 *
 * @example Naming an operation
 * ```ts
 * import type { OperationName } from "@gatehouse/contract";
 *
 * const name: OperationName = "listUsers";
 * ```
 */
export type OperationName = keyof typeof OPERATIONS;

/**
 * Every operation name, in the order of {@linkcode OPERATIONS}.
 *
 * @example Counting the routes
 * ```ts
 * import { OPERATION_NAMES } from "@gatehouse/contract";
 *
 * console.assert(OPERATION_NAMES.includes("login"));
 * ```
 */
export const OPERATION_NAMES: readonly OperationName[] = Object.freeze(
  Object.keys(OPERATIONS) as OperationName[],
);

const SAFE_METHODS: ReadonlySet<Method> = new Set(["GET"]);

/**
 * Every error code an operation may answer: its own, and those its guard
 * (`session_absent`, `role_insufficient`), its limiter
 * (`login_rate_limited`), the cross-origin guard on writes
 * (`request_cross_origin`) and any failure (`internal`) add.
 *
 * @param name The operation.
 * @returns The codes, without repeats.
 *
 * @example What listing accounts may answer
 * ```ts
 * import { errorsOf } from "@gatehouse/contract";
 *
 * console.assert(errorsOf("listUsers").includes("role_insufficient"));
 * console.assert(!errorsOf("listUsers").includes("request_cross_origin"));
 * ```
 */
export function errorsOf(name: OperationName): readonly ErrorCode[] {
  const spec: OperationSpec = OPERATIONS[name];
  const codes = new Set<ErrorCode>(spec.errors);
  if (spec.guard !== "public") codes.add("session_absent");
  if (spec.guard === "privileged") codes.add("role_insufficient");
  if (spec.limiter !== undefined) codes.add("login_rate_limited");
  if (!SAFE_METHODS.has(spec.method)) codes.add("request_cross_origin");
  codes.add("internal");
  return [...codes];
}

/**
 * The path of an operation with its path values filled in (each encoded).
 *
 * @param name The operation.
 * @param values The path values by name, e.g. `{id}`.
 * @returns The path, e.g. `/api/users/0190…/role`.
 * @throws {TypeError} When a path value is missing.
 *
 * @example The role write of one account
 * ```ts
 * import { pathOf } from "@gatehouse/contract";
 *
 * console.assert(pathOf("setUserRole", { id: "a b" }) === "/api/users/a%20b/role");
 * ```
 */
export function pathOf(
  name: OperationName,
  values: Readonly<Record<string, string>> = {},
): string {
  return OPERATIONS[name].path.replace(/:([A-Za-z_]\w*)/g, (_, key) => {
    const value = values[key];
    if (value === undefined) {
      throw new TypeError(`Missing path value "${key}" for ${name}`);
    }
    return encodeURIComponent(value);
  });
}
