/**
 * `@gatehouse/client`: the browser side of Gatehouse, for Preact.
 *
 * - {@linkcode AuthGate} renders the app when signed in and your login
 *   screen when signed out, with loading and error states in between.
 * - {@linkcode createAuthQueryClient} builds the TanStack query client that
 *   drops the session when any call finds it gone; {@linkcode useSession},
 *   {@linkcode useLogout}, {@linkcode can}, {@linkcode adoptSession} and
 *   {@linkcode sessionQueryKey} work with it; {@linkcode useRecoveryCodeCount}
 *   reads how many recovery codes are left.
 * - {@linkcode fetchSession}, {@linkcode login}, {@linkcode logout} and
 *   {@linkcode isSessionRevoked} are the session operations of the
 *   transport: REST by default, replaceable with
 *   {@linkcode configureAuthTransport}. {@linkcode acceptInvite},
 *   {@linkcode requestPasswordReset} and {@linkcode resetPassword} are the
 *   operations of signed-out people, beside them.
 * - {@linkcode USERS_MANAGE}: the capability of accounts that may
 *   administer users (`can(user, USERS_MANAGE)`), the same one the server
 *   admits to administration.
 * - Account security (DESIGN.md §8–§10): {@linkcode changePassword},
 *   {@linkcode reauthenticate}, {@linkcode listSessions},
 *   {@linkcode revokeSession}, {@linkcode revokeOtherSessions},
 *   {@linkcode listActivity}; second factors and passkeys
 *   ({@linkcode setupTotp}, {@linkcode confirmTotp},
 *   {@linkcode verifySecondFactor}, {@linkcode registerPasskey},
 *   {@linkcode loginWithPasskey}, …). `login` answers a
 *   {@linkcode SecondFactorChallenge} when a second step is due.
 * - Typed errors: {@linkcode InvalidCredentialsError},
 *   {@linkcode RateLimitedError}, {@linkcode UnauthorizedError},
 *   {@linkcode InvalidTokenError}, {@linkcode ValidationError} and more, all
 *   {@linkcode AuthClientError}s with the server's `code`.
 *
 * User administration (accounts, invitations, the audit log and the audit
 * event types `listActivity` answers too) is in `@gatehouse/client/admin`;
 * single sign-on in `@gatehouse/client/sso`; the screens in
 * `@gatehouse/client/screens`; the test harness in
 * `@gatehouse/client/testing`.
 *
 * @example The app behind the gate
 * ```tsx
 * import { AuthGate, createAuthQueryClient, useLogout, useSession } from "@gatehouse/client";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * function Home() {
 *   const user = useSession();
 *   const logout = useLogout();
 *   return (
 *     <main>
 *       <p>Signed in as {user?.name}</p>
 *       <button type="button" onClick={() => logout.mutate()}>Sign out</button>
 *     </main>
 *   );
 * }
 *
 * const client = createAuthQueryClient();
 * export const App = () => (
 *   <QueryClientProvider client={client}>
 *     <AuthGate loginScreen={() => <p>Your login screen here</p>}>
 *       <Home />
 *     </AuthGate>
 *   </QueryClientProvider>
 * );
 * ```
 *
 * @module
 */

export { can } from "./can.ts";
export { USERS_MANAGE } from "@gatehouse/contract/roles";
export {
  AuthClientError,
  type AuthClientErrorOptions,
  CrossOriginError,
  type ErrorCode,
  ForbiddenError,
  InvalidCredentialsError,
  InvalidTokenError,
  RateLimitedError,
  type RateLimitedErrorOptions,
  UnauthorizedError,
  ValidationError,
} from "./errors.ts";
export { AuthGate, type AuthGateProps } from "./gate.tsx";
export { useLogout, useRecoveryCodeCount, useSession } from "./hooks.ts";
export {
  adoptSession,
  type AuthQueryClientOptions,
  createAuthQueryClient,
  sessionQueryKey,
} from "./query.ts";
export { restTransport, type RestTransportOptions } from "./rest.ts";
export {
  changePassword,
  listActivity,
  listSessions,
  reauthenticate,
  revokeOtherSessions,
  revokeSession,
  updateAccount,
} from "./account_calls.ts";
export {
  confirmTotp,
  disableTotp,
  listPasskeys,
  loginWithPasskey,
  regenerateRecoveryCodes,
  registerPasskey,
  removePasskey,
  renamePasskey,
  setupTotp,
  verifySecondFactor,
} from "./second_factor_calls.ts";
export {
  CodeInvalidError,
  PasskeyInvalidError,
  PasskeyNotFoundError,
  PasswordIncorrectError,
  ReauthenticationRequiredError,
  SecondFactorEnabledError,
  SecondFactorRequiredError,
  SessionNotFoundError,
  TotpNotEnabledError,
} from "./security_errors.ts";
export {
  type AccountSession,
  type AccountUpdate,
  type ActivityQuery,
  isSecondFactorChallenge,
  type Passkey,
  type PasskeyOptions,
  type PasswordChange,
  type Proof,
  type SecondFactorChallenge,
  type SecondFactorMethod,
  type SecondFactorProof,
  type TotpSetup,
} from "./security_types.ts";
export {
  NetworkError,
  ServerError,
  UnexpectedResponseError,
} from "./service_errors.ts";
export {
  fetchSession,
  isSessionRevoked,
  login,
  logout,
} from "./session_calls.ts";
export {
  acceptInvite,
  type LinkKind,
  requestPasswordReset,
  resetPassword,
} from "./link_calls.ts";
export {
  type AuthTransport,
  configureAuthTransport,
  resetAuthTransport,
} from "./transport.ts";
export type {
  FetchSessionOptions,
  SecondFactorState,
  SessionUser,
} from "./types.ts";
