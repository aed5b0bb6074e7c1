/**
 * The errors of single sign-on (DESIGN.md §13). Each is an
 * `AuthClientError` with the server's code; the table from code to class is
 * in `_error_map.ts`. (`identity_id_malformed` and `logout_token_invalid`
 * are `ValidationError`s, like every refused input.)
 *
 * @module
 */

import { AuthClientError, type AuthClientErrorOptions } from "./errors.ts";
import { ServerError } from "./service_errors.ts";

/**
 * The address belongs to a domain whose accounts must sign in through
 * their organisation's provider (`sso_required`, 403): a password, a
 * passkey, an invitation link or a reset link cannot start a session for
 * it. `provider` is the provider's id (`meta.provider`), when the server
 * names it: offer its button.
 *
 * @example Sending the person to their provider
 * ```ts
 * import { login } from "@gatehouse/client";
 * import { SsoRequiredError, startSso } from "@gatehouse/client/sso";
 *
 * async function signIn(email: string, password: string) {
 *   try {
 *     return await login(email, password);
 *   } catch (error) {
 *     if (error instanceof SsoRequiredError && error.provider !== undefined) {
 *       await startSso(error.provider);
 *     }
 *     throw error;
 *   }
 * }
 * ```
 */
export class SsoRequiredError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "This address signs in with its organisation's single sign-on",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "sso_required", status: 403, ...options });
    this.name = "SsoRequiredError";
  }

  /** The id of the provider the address must sign in with, if named. */
  get provider(): string | undefined {
    return this.meta?.provider;
  }
}

/**
 * No provider has this id (`provider_not_found`, 404): the deployment's
 * configuration changed since the page was loaded.
 *
 * @example Recognising it
 * ```ts
 * import { ProviderNotFoundError } from "@gatehouse/client/sso";
 *
 * console.assert(new ProviderNotFoundError().status === 404);
 * ```
 */
export class ProviderNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Sign-in provider not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "provider_not_found", status: 404, ...options });
    this.name = "ProviderNotFoundError";
  }
}

/**
 * The provider cannot be reached (`provider_unavailable`, 503): the server
 * could not discover it and keeps trying. A `ServerError`: try again
 * later, or sign in another way.
 *
 * @example Recognising it
 * ```ts
 * import { ServerError } from "@gatehouse/client";
 * import { ProviderUnavailableError } from "@gatehouse/client/sso";
 *
 * console.assert(new ProviderUnavailableError() instanceof ServerError);
 * ```
 */
export class ProviderUnavailableError extends ServerError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "The sign-in provider cannot be reached; try again later",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "provider_unavailable", status: 503, ...options });
    this.name = "ProviderUnavailableError";
  }
}

/**
 * The identity is not one linked to the signed-in account
 * (`identity_not_found`, 404): it was unlinked meanwhile.
 *
 * @example Recognising it
 * ```ts
 * import { IdentityNotFoundError } from "@gatehouse/client/sso";
 *
 * console.assert(new IdentityNotFoundError().code === "identity_not_found");
 * ```
 */
export class IdentityNotFoundError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message = "Linked identity not found",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "identity_not_found", status: 404, ...options });
    this.name = "IdentityNotFoundError";
  }
}

/**
 * Unlinking this identity would leave the account no way to sign in
 * (`last_sign_in_method`, 409): it has no password, no passkey and no
 * other linked identity. Add a passkey or a password first.
 *
 * @example Recognising it
 * ```ts
 * import { LastSignInMethodError } from "@gatehouse/client/sso";
 *
 * console.assert(new LastSignInMethodError().status === 409);
 * ```
 */
export class LastSignInMethodError extends AuthClientError {
  /**
   * Builds the error.
   *
   * @param message English text for logs.
   * @param options Code, status, meta and cause.
   */
  constructor(
    message =
      "This is the account's last way to sign in: add a password or a passkey first",
    options: AuthClientErrorOptions = {},
  ) {
    super(message, { code: "last_sign_in_method", status: 409, ...options });
    this.name = "LastSignInMethodError";
  }
}
