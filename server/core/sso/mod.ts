/**
 * Single sign-on with a company's OpenID Connect provider (DESIGN.md §13):
 * the protocol layer the SSO routes stand on. Configuration
 * ({@linkcode resolveSsoProviders}), discovery at start-up
 * ({@linkcode discoverSsoProvider}, or {@linkcode ssoConnection} to retry a
 * provider that is down), the start ({@linkcode startSsoFlow}), the callback
 * ({@linkcode finishSsoFlow}), the first-link checks
 * ({@linkcode firstLinkRefusal}), roles from the provider, and back-channel
 * logout tokens ({@linkcode verifyLogoutToken}). Flows are kept through an
 * {@linkcode SsoFlowStore} the caller passes in.
 *
 * @module
 */

export { finishSsoFlow } from "./callback.ts";
export type {
  FinishSsoOptions,
  SsoCallbackRefusal,
  SsoCallbackResult,
  SsoSignIn,
} from "./callback.ts";
export { emailDomain, identityFromClaims, needsUserinfo } from "./claims.ts";
export type { SsoClaims, SsoIdentity } from "./claims.ts";
export { ssoConnection } from "./connection.ts";
export type { SsoConnection, SsoConnectionOptions } from "./connection.ts";
export {
  discoverSsoProvider,
  SSO_CLOCK_TOLERANCE,
  SsoDiscoveryError,
} from "./discovery.ts";
export type { DiscoverSsoOptions, SsoClient } from "./discovery.ts";
export { isSsoErrorCode, refuse, SSO_ERROR_CODES } from "./errors.ts";
export type { SsoErrorCode, SsoRefusal } from "./errors.ts";
export { SSO_COOKIE, SSO_FLOW_TTL } from "./flow.ts";
export type { SsoFlow, SsoFlowStore, SsoPurpose } from "./flow.ts";
export { firstLinkRefusal } from "./linking.ts";
export {
  BACKCHANNEL_LOGOUT_EVENT,
  LOGOUT_TOKEN_MAX_AGE,
  verifyLogoutToken,
} from "./logout_token.ts";
export type {
  LogoutTokenErrorCode,
  SsoLogout,
  SsoLogoutAccepted,
  SsoLogoutResult,
  VerifyLogoutOptions,
} from "./logout_token.ts";
export { noRedirectFetch, SsoRedirectError } from "./no_redirect_fetch.ts";
export type { SsoFetch } from "./no_redirect_fetch.ts";
export {
  isLoopbackHost,
  resolveSsoProviders,
  ssoRedirectUri,
} from "./provider_config.ts";
export type {
  ResolveSsoOptions,
  SsoOptions,
  SsoProvider,
  SsoProviderOptions,
} from "./provider_config.ts";
export { RETURN_TO_MAX_LENGTH, safeReturnPath } from "./return_to.ts";
export { mappedRole, roleForNewAccount, roleForSync } from "./role_map.ts";
export { startSsoFlow } from "./start.ts";
export type { SsoStart, StartSsoOptions } from "./start.ts";
