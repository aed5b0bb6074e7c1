/**
 * The role errors (SPEC.md "Errors"): what the server says when a role is
 * handed out or an account's role or state is changed against its rules.
 *
 * @module
 */

import {
  AuthClientError,
  type AuthClientErrorOptions,
  ForbiddenError,
  ValidationError,
} from "./errors.ts";

/**
 * The signed-in account may not change roles: `role_insufficient` or
 * `capability_missing` answered to a call that hands out a role
 * (`setUserRole`, or `createUser`/`invite` with a role). Status 403.
 *
 * @example Hiding the role menu
 * ```ts
 * import { ForbiddenError, RoleRefusedError } from "@gatehouse/client/admin";
 *
 * console.assert(new RoleRefusedError() instanceof ForbiddenError);
 * ```
 */
export class RoleRefusedError extends ForbiddenError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Your account may not change roles",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, options);
    this.name = "RoleRefusedError";
  }
}

/**
 * An account tried to change its own role (`self_role_refused`, 403).
 *
 * @example Recognising it
 * ```ts
 * import { SelfRoleError } from "@gatehouse/client/admin";
 *
 * console.assert(new SelfRoleError().code === "self_role_refused");
 * ```
 */
export class SelfRoleError extends ForbiddenError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "You cannot change your own role",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "self_role_refused", ...options });
    this.name = "SelfRoleError";
  }
}

/**
 * The change would leave no account that may administer users
 * (`last_privileged_refused`, 409).
 *
 * @example Recognising it
 * ```ts
 * import { LastPrivilegedError } from "@gatehouse/client/admin";
 *
 * console.assert(new LastPrivilegedError().status === 409);
 * ```
 */
export class LastPrivilegedError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Cannot remove the last account that may administer users",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, {
      code: "last_privileged_refused",
      status: 409,
      ...options,
    });
    this.name = "LastPrivilegedError";
  }
}

/**
 * No role registry declares the role (`role_unknown`, 400, `meta.field` is
 * `role`). It is also a {@linkcode ValidationError}.
 *
 * @example Marking the role field
 * ```ts
 * import { RoleUnknownError, ValidationError } from "@gatehouse/client/admin";
 *
 * const error = new RoleUnknownError(undefined, { meta: { field: "role" } });
 * console.assert(error instanceof ValidationError && error.field === "role");
 * ```
 */
export class RoleUnknownError extends ValidationError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Role is not known",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, {
      code: "role_unknown",
      meta: { field: "role" },
      ...options,
    });
    this.name = "RoleUnknownError";
  }
}

/**
 * The signed-in account may not hand out that role or change that account
 * (`role_beyond_reach`, 403).
 *
 * @example Recognising it
 * ```ts
 * import { RoleBeyondReachError } from "@gatehouse/client/admin";
 *
 * console.assert(new RoleBeyondReachError().code === "role_beyond_reach");
 * ```
 */
export class RoleBeyondReachError extends ForbiddenError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "You may not hand out that role or change that account",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "role_beyond_reach", ...options });
    this.name = "RoleBeyondReachError";
  }
}

/**
 * The account's role changed before the write landed (`role_changed`, 409):
 * reload the account and decide again.
 *
 * @example Reloading after a refused disable
 * ```ts
 * import { RoleChangedError, setUserDisabled, type User } from "@gatehouse/client/admin";
 *
 * async function disable(user: User, reload: () => void): Promise<void> {
 *   try {
 *     await setUserDisabled(user.id, true, { seenRole: user.role });
 *   } catch (error) {
 *     if (error instanceof RoleChangedError) return reload();
 *     throw error;
 *   }
 * }
 * ```
 */
export class RoleChangedError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The account's role changed; reload it and try again",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "role_changed", status: 409, ...options });
    this.name = "RoleChangedError";
  }
}
