/**
 * Single sign-on with a company's OpenID Connect provider (DESIGN.md §13),
 * as plain functions over the transport (REST unless replaced): the
 * providers the login screen offers, the start of a sign-in (or of a
 * re-authentication) at one of them, and the identities linked to the
 * signed-in account.
 *
 * @module
 */

import { activeTransport } from "./transport.ts";
import type { SsoIdentity, SsoProvider, SsoStartOptions } from "./sso_types.ts";

/**
 * The single sign-on providers (`GET /api/auth/sso`), in the order the
 * login screen shows them; none when the server has none.
 *
 * @returns The providers.
 *
 * @example The buttons' names
 * ```ts
 * import { listSsoProviders } from "@gatehouse/client/sso";
 *
 * const names = async () => (await listSsoProviders()).map((p) => p.name);
 * ```
 */
export function listSsoProviders(): Promise<SsoProvider[]> {
  return activeTransport().listSsoProviders();
}

/**
 * Leaves the page for a provider's sign-in: a navigation to `GET
 * /api/auth/sso/{id}/start`. The browser comes back to `returnTo` (the
 * page's own path by default) signed in, or, with `reauthenticate`, with
 * the session's proof of identity renewed; on failure to
 * `/?sso_error=CODE` (the login screen says why).
 *
 * @param provider The provider's id.
 * @param options `returnTo` and `reauthenticate`.
 * @returns Once the navigation is asked for.
 * @throws {TypeError} Outside a browser page, unless the transport navigates otherwise.
 *
 * @example A button of your own
 * ```ts
 * import { startSso } from "@gatehouse/client/sso";
 *
 * const signInWithAcme = () => startSso("acme", { returnTo: "/projects" });
 * ```
 */
export function startSso(
  provider: string,
  options?: SsoStartOptions,
): Promise<void> {
  return activeTransport().startSso(provider, options);
}

/**
 * The identities at providers linked to the signed-in account (`GET
 * /api/auth/sso/identities`).
 *
 * @returns The identities.
 * @throws {UnauthorizedError} The session is gone.
 *
 * @example Whether the account signs in with a provider
 * ```ts
 * import { listSsoIdentities } from "@gatehouse/client/sso";
 *
 * const linked = async () => (await listSsoIdentities()).length > 0;
 * ```
 */
export function listSsoIdentities(): Promise<SsoIdentity[]> {
  return activeTransport().listSsoIdentities();
}

/**
 * Unlinks one of the signed-in account's identities (`DELETE
 * /api/auth/sso/identities/{id}`): it no longer signs the account in.
 *
 * @param id The identity's id (from `listSsoIdentities`).
 * @returns Once unlinked.
 * @throws {LastSignInMethodError} It is the account's last way to sign in.
 * @throws {IdentityNotFoundError} No such identity of this account.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { unlinkSsoIdentity } from "@gatehouse/client/sso";
 *
 * const unlink = (id: string) => unlinkSsoIdentity(id);
 * ```
 */
export function unlinkSsoIdentity(id: string): Promise<void> {
  return activeTransport().unlinkSsoIdentity(id);
}
