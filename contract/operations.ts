/**
 * Every operation of the HTTP API as data: its canonical name, method, path,
 * guard, limiter and success status. The server's routes, the client's REST
 * transport, the client's test harness and the OpenAPI description are all
 * derived from {@linkcode OPERATIONS}; what each takes, answers and refuses is
 * in `shapes.ts`, keyed by the same names (apart, so that a client bundle
 * holds the routes and not the rest).
 *
 * @module
 */

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
 * failed sign-ins (`login`), reset requests (`reset`), attempts with dead
 * links (`link`, each of which costs an argon2 hash), or WebAuthn challenges
 * written for anyone who asks (`challenge`: each request counts, since each
 * writes a record, not only failures).
 */
export type Limiter = "login" | "reset" | "link" | "challenge";

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
  /** The status of its success. */
  readonly success: number;
  /**
   * A sensitive write: it needs a proof of identity (password, second
   * factor or passkey) younger than the re-authentication window, else 403
   * `reauthentication_required` (DESIGN.md §8).
   */
  readonly fresh?: boolean;
  /**
   * Reachable by an account whose role requires a second factor it has not
   * enrolled yet; every other signed-in operation answers it 403
   * `second_factor_required` (DESIGN.md §9).
   */
  readonly beforeSecondFactor?: boolean;
}

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
    success: 200,
  },
  logout: {
    method: "POST",
    path: "/api/auth/logout",
    guard: "public",
    success: 204,
  },
  fetchSession: {
    method: "GET",
    path: "/api/auth/session",
    guard: "session",
    success: 200,
    beforeSecondFactor: true,
  },
  listUsers: {
    method: "GET",
    path: "/api/users",
    guard: "privileged",
    success: 200,
  },
  createUser: {
    method: "POST",
    path: "/api/users",
    guard: "privileged",
    success: 201,
    fresh: true,
  },
  setUserDisabled: {
    method: "PATCH",
    path: "/api/users/:id",
    guard: "privileged",
    success: 200,
    fresh: true,
  },
  setUserRole: {
    method: "PUT",
    path: "/api/users/:id/role",
    guard: "privileged",
    success: 200,
    fresh: true,
  },
  invite: {
    method: "POST",
    path: "/api/users/invite",
    guard: "privileged",
    success: 200,
    fresh: true,
  },
  listInvitations: {
    method: "GET",
    path: "/api/users/invitations",
    guard: "privileged",
    success: 200,
  },
  revokeInvitation: {
    method: "DELETE",
    path: "/api/users/invitations/:id",
    guard: "privileged",
    success: 204,
    fresh: true,
  },
  acceptInvite: {
    method: "POST",
    path: "/api/auth/invite/accept",
    guard: "public",
    limiter: "link",
    success: 200,
  },
  requestPasswordReset: {
    method: "POST",
    path: "/api/auth/password-reset",
    guard: "public",
    limiter: "reset",
    success: 202,
  },
  resetPassword: {
    method: "POST",
    path: "/api/auth/password-reset/confirm",
    guard: "public",
    limiter: "link",
    success: 204,
  },
  checkLink: {
    method: "POST",
    path: "/api/auth/links/check",
    guard: "public",
    limiter: "link",
    success: 200,
  },
  changePassword: {
    method: "POST",
    path: "/api/auth/password",
    guard: "session",
    limiter: "login",
    success: 204,
  },
  // One's own name and the language of one's mail (DESIGN.md §14).
  updateAccount: {
    method: "PATCH",
    path: "/api/auth/account",
    guard: "session",
    success: 200,
  },
  reauthenticate: {
    method: "POST",
    path: "/api/auth/reauthenticate",
    guard: "session",
    limiter: "login",
    success: 204,
    beforeSecondFactor: true,
  },
  listSessions: {
    method: "GET",
    path: "/api/auth/sessions",
    guard: "session",
    success: 200,
    beforeSecondFactor: true,
  },
  revokeSession: {
    method: "DELETE",
    path: "/api/auth/sessions/:id",
    guard: "session",
    success: 204,
    beforeSecondFactor: true,
  },
  revokeOtherSessions: {
    method: "DELETE",
    path: "/api/auth/sessions",
    guard: "session",
    success: 204,
    beforeSecondFactor: true,
  },
  revokeUserSessions: {
    method: "DELETE",
    path: "/api/users/:id/sessions",
    guard: "privileged",
    success: 204,
    fresh: true,
  },
  setupTotp: {
    method: "POST",
    path: "/api/auth/totp/setup",
    guard: "session",
    success: 200,
    fresh: true,
    beforeSecondFactor: true,
  },
  confirmTotp: {
    method: "POST",
    path: "/api/auth/totp/confirm",
    guard: "session",
    limiter: "login",
    success: 200,
    beforeSecondFactor: true,
  },
  disableTotp: {
    method: "DELETE",
    path: "/api/auth/totp",
    guard: "session",
    success: 204,
    fresh: true,
  },
  regenerateRecoveryCodes: {
    method: "POST",
    path: "/api/auth/recovery-codes",
    guard: "session",
    success: 200,
    fresh: true,
  },
  countRecoveryCodes: {
    method: "GET",
    path: "/api/auth/recovery-codes",
    guard: "session",
    success: 200,
    beforeSecondFactor: true,
  },
  verifySecondFactor: {
    method: "POST",
    path: "/api/auth/second-factor",
    guard: "public",
    limiter: "login",
    success: 200,
  },
  removeUserSecondFactor: {
    method: "DELETE",
    path: "/api/users/:id/second-factor",
    guard: "privileged",
    success: 204,
    fresh: true,
  },
  // Clears the account lock of an account's address (DESIGN.md §15).
  unlockUser: {
    method: "DELETE",
    path: "/api/users/:id/lock",
    guard: "privileged",
    success: 204,
    fresh: true,
  },
  // No limiter: it writes a challenge too, but only for a session that
  // proved its password (or a factor) within the re-authentication window
  // (`fresh`); the session guard refuses everyone else before the handler.
  // Each write is tied to a named, revocable account, and its record dies
  // in 5 minutes like the others.
  passkeyRegistrationOptions: {
    method: "POST",
    path: "/api/auth/passkeys/register/options",
    guard: "session",
    success: 200,
    fresh: true,
    beforeSecondFactor: true,
  },
  registerPasskey: {
    method: "POST",
    path: "/api/auth/passkeys",
    guard: "session",
    success: 201,
    beforeSecondFactor: true,
  },
  listPasskeys: {
    method: "GET",
    path: "/api/auth/passkeys",
    guard: "session",
    success: 200,
    beforeSecondFactor: true,
  },
  renamePasskey: {
    method: "PATCH",
    path: "/api/auth/passkeys/:id",
    guard: "session",
    success: 200,
  },
  removePasskey: {
    method: "DELETE",
    path: "/api/auth/passkeys/:id",
    guard: "session",
    success: 204,
    fresh: true,
  },
  // Public, and every call writes a challenge: limited by requests (the
  // `challenge` limiter), or anyone could make the store grow at will.
  passkeyLoginOptions: {
    method: "POST",
    path: "/api/auth/passkeys/login/options",
    guard: "public",
    limiter: "challenge",
    success: 200,
  },
  loginWithPasskey: {
    method: "POST",
    path: "/api/auth/passkeys/login",
    guard: "public",
    limiter: "login",
    success: 200,
  },
  // Single sign-on with a company's OpenID Connect provider (DESIGN.md
  // §13). The login screen's buttons:
  listSsoProviders: {
    method: "GET",
    path: "/api/auth/sso",
    guard: "public",
    success: 200,
  },
  // A browser navigation, not a fetch: 302 to the provider. Public, and
  // every call writes a flow: limited by requests, as the passkey options
  // are. With `reauthenticate=1` it needs a session (checked by the
  // handler: a sign-in needs none).
  startSso: {
    method: "GET",
    path: "/api/auth/sso/:id/start",
    guard: "public",
    limiter: "challenge",
    success: 302,
  },
  // Where the provider sends the browser back: 303 to the return path, or
  // to `/?sso_error=CODE`. No limiter: without the flow its start wrote
  // (and limited) it does nothing and records nothing.
  ssoCallback: {
    method: "GET",
    path: "/api/auth/sso/:id/callback",
    guard: "public",
    success: 303,
  },
  // Called by the provider's server (OIDC Back-Channel Logout 1.0), with a
  // form body: no browser, no Origin, no session.
  ssoBackchannelLogout: {
    method: "POST",
    path: "/api/auth/sso/:id/backchannel-logout",
    guard: "public",
    success: 200,
  },
  listSsoIdentities: {
    method: "GET",
    path: "/api/auth/sso/identities",
    guard: "session",
    success: 200,
  },
  unlinkSsoIdentity: {
    method: "DELETE",
    path: "/api/auth/sso/identities/:id",
    guard: "session",
    success: 204,
    fresh: true,
  },
  listAuditEvents: {
    method: "GET",
    path: "/api/audit",
    guard: "privileged",
    success: 200,
  },
  listActivity: {
    method: "GET",
    path: "/api/auth/activity",
    guard: "session",
    success: 200,
    beforeSecondFactor: true,
  },
  describeApi: {
    method: "GET",
    path: "/api/openapi.json",
    guard: "public",
    success: 200,
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
export const OPERATION_NAMES: readonly OperationName[] = /* @__PURE__ */ Object
  .freeze(Object.keys(OPERATIONS) as OperationName[]);

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
