/**
 * `@gatehouse/client/sso`: single sign-on with a company's OpenID Connect
 * provider (DESIGN.md §13), for an application that builds its own login
 * screen or account page; the shipped screens (`@gatehouse/client/screens`)
 * already offer every provider and list linked identities.
 *
 * - {@linkcode listSsoProviders}: the providers the server offers (the
 *   login screen's buttons); {@linkcode startSso}: a navigation to one of
 *   them, for a sign-in or a re-authentication.
 * - {@linkcode listSsoIdentities} and {@linkcode unlinkSsoIdentity}: the
 *   identities linked to the signed-in account.
 * - Typed errors: {@linkcode SsoRequiredError} (an address whose domain
 *   must sign in through its provider: `login`, `acceptInvite` and
 *   `resetPassword` throw it), {@linkcode ProviderNotFoundError},
 *   {@linkcode ProviderUnavailableError}, {@linkcode IdentityNotFoundError},
 *   {@linkcode LastSignInMethodError}; {@linkcode SsoErrorCode} names the
 *   codes a failed sign-in sends back in `?sso_error=`.
 *
 * The calls go through the transport of `@gatehouse/client` (REST unless
 * `configureAuthTransport` replaced them).
 *
 * @example A button per provider
 * ```ts
 * import { listSsoProviders, startSso } from "@gatehouse/client/sso";
 *
 * async function buttons(): Promise<{ label: string; go: () => Promise<void> }[]> {
 *   const providers = await listSsoProviders();
 *   return providers.map((provider) => ({
 *     label: `Sign in with ${provider.name}`,
 *     go: () => startSso(provider.id),
 *   }));
 * }
 * ```
 *
 * @module
 */

export {
  listSsoIdentities,
  listSsoProviders,
  startSso,
  unlinkSsoIdentity,
} from "./sso_calls.ts";
export {
  IdentityNotFoundError,
  LastSignInMethodError,
  ProviderNotFoundError,
  ProviderUnavailableError,
  SsoRequiredError,
} from "./sso_errors.ts";
export type {
  SsoErrorCode,
  SsoIdentity,
  SsoProvider,
  SsoStartOptions,
} from "./sso_types.ts";
