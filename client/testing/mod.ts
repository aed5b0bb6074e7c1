/**
 * `@gatehouse/client/testing`: the test harness of the client.
 *
 * - {@linkcode installTestEnvironment}: a DOM (happy-dom), a fake HTTP
 *   server (msw) and cleanup between tests, for one test file.
 * - Accounts: {@linkcode defaultUser} (no role), {@linkcode userWithRole}
 *   (a stable id per role), {@linkcode userWithCapabilities},
 *   {@linkcode accountOf}; {@linkcode seedSession} puts one in the cache.
 * - Any outcome of any operation of the contract: {@linkcode answer}`(operation,
 *   body)` answers its success (the body in the client's camelCase shapes,
 *   written as the wire's JSON by the contract's schema), {@linkcode refuse}`(operation,
 *   code)` its refusal with the code's status; {@linkcode serverTooOld} and
 *   {@linkcode networkFailure} answer a missing route and no answer.
 * - Canned handlers, one-liners over those, named
 *   `<operation><Outcome>()` after the contract's operation (the client
 *   call's name): {@linkcode loginOk}, {@linkcode loginInvalid},
 *   {@linkcode loginRateLimited}, {@linkcode logoutOk},
 *   {@linkcode fetchSessionOk}, {@linkcode fetchSessionAnonymous},
 *   {@linkcode listUsersOk}, {@linkcode createUserOk},
 *   {@linkcode setUserDisabledOk}, {@linkcode setUserRoleOk},
 *   {@linkcode inviteDelivered}, {@linkcode inviteUndelivered},
 *   {@linkcode listInvitationsOk}, {@linkcode revokeInvitationOk},
 *   {@linkcode acceptInviteOk}, {@linkcode requestPasswordResetOk},
 *   {@linkcode resetPasswordOk}, the account-security ones
 *   ({@linkcode changePasswordOk}, {@linkcode reauthenticateOk},
 *   {@linkcode listSessionsOk}, {@linkcode loginSecondFactor},
 *   {@linkcode setupTotpOk}, {@linkcode listAuditEventsOk}, …, with
 *   `<operation>Refused(code)` for their refusals), single sign-on's
 *   ({@linkcode listSsoProvidersOk}, {@linkcode listSsoIdentitiesOk},
 *   {@linkcode unlinkSsoIdentityRefused}, {@linkcode ssoCallbackError}, …),
 *   with sample data ({@linkcode currentSession}, {@linkcode auditEventOf},
 *   {@linkcode sampleSsoProvider}, …). SPEC.md's
 *   earlier names (`sessionAnonymous`, `activateOk()`, `resetRequestOk()`,
 *   `resetOk()`, `roleOk()`, …) remain, deprecated.
 *
 * @example The gate shows the login screen when signed out
 * ```tsx
 * import { AuthGate, createAuthQueryClient } from "@gatehouse/client";
 * import { fetchSessionAnonymous, installTestEnvironment } from "@gatehouse/client/testing";
 * import { render } from "@testing-library/preact";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const env = installTestEnvironment({ handlers: [fetchSessionAnonymous()] });
 *
 * Deno.test("AuthGate shows the login screen when signed out", async () => {
 *   const view = render(
 *     <QueryClientProvider client={createAuthQueryClient()}>
 *       <AuthGate loginScreen={() => <p>Please sign in</p>}>
 *         <p>The app</p>
 *       </AuthGate>
 *     </QueryClientProvider>,
 *   );
 *   await view.findByText("Please sign in");
 * });
 * ```
 *
 * @module
 */

export {
  installTestEnvironment,
  type TestEnvironment,
  type TestEnvironmentOptions,
} from "./environment.ts";
export {
  createUserOk,
  listInvitationsOk,
  listUsersOk,
  revokeInvitationBeyondReach,
  revokeInvitationNotFound,
  revokeInvitationOk,
  setUserDisabledOk,
  setUserRoleOk,
} from "./admin_handlers.ts";
export {
  answer,
  type AnswerOptions,
  networkFailure,
  refuse,
  type RefuseOptions,
  serverTooOld,
} from "./answers.ts";
export {
  activateInvalidToken,
  activateOk,
  resetOk,
  resetRequestOk,
  roleOk,
  sessionAnonymous,
} from "./deprecated.ts";
export {
  acceptInviteInvalidToken,
  acceptInviteOk,
  checkLinkAccountExists,
  checkLinkInvalidToken,
  checkLinkReady,
  inviteDelivered,
  inviteUndelivered,
  requestPasswordResetOk,
  resetPasswordInvalidToken,
  resetPasswordOk,
} from "./link_handlers.ts";
export type { Endpoint } from "./_routes.ts";
export {
  changePasswordIncorrect,
  changePasswordOk,
  changePasswordRateLimited,
  changePasswordRefused,
  listActivityOk,
  listAuditEventsOk,
  listSessionsOk,
  reauthenticateOk,
  reauthenticateRateLimited,
  reauthenticateRefused,
  removeUserSecondFactorOk,
  removeUserSecondFactorRefused,
  revokeOtherSessionsOk,
  revokeSessionNotFound,
  revokeSessionOk,
  revokeUserSessionsOk,
  revokeUserSessionsRefused,
  unlockUserOk,
  unlockUserRefused,
  updateAccountOk,
  updateAccountRefused,
} from "./account_handlers.ts";
export {
  confirmTotpOk,
  confirmTotpRefused,
  countRecoveryCodesOk,
  countRecoveryCodesUnauthorized,
  disableTotpOk,
  disableTotpReauthenticationRequired,
  listPasskeysOk,
  loginSecondFactor,
  loginWithPasskeyOk,
  loginWithPasskeyRefused,
  passkeyLoginOptionsOk,
  passkeyLoginOptionsRateLimited,
  passkeyRegistrationOptionsOk,
  passkeyRegistrationOptionsReauthenticationRequired,
  regenerateRecoveryCodesOk,
  regenerateRecoveryCodesRefused,
  registerPasskeyOk,
  registerPasskeyRefused,
  removePasskeyOk,
  removePasskeyRefused,
  renamePasskeyOk,
  renamePasskeyRefused,
  setupTotpOk,
  setupTotpRefused,
  verifySecondFactorExpired,
  verifySecondFactorInvalid,
  verifySecondFactorOk,
  verifySecondFactorRateLimited,
} from "./second_factor_handlers.ts";
export {
  auditEventOf,
  currentSession,
  otherSession,
  samplePasskey,
  sampleRecoveryCodes,
  sampleTotpSetup,
} from "./security_data.ts";
export {
  fetchSessionAnonymous,
  fetchSessionOk,
  fetchSessionUnavailable,
  loginAccountLocked,
  loginInvalid,
  loginOk,
  loginRateLimited,
  logoutOk,
} from "./session_handlers.ts";
export {
  listSsoIdentitiesOk,
  listSsoProvidersOk,
  sampleSsoIdentity,
  sampleSsoProvider,
  ssoBackchannelLogoutOk,
  ssoBackchannelLogoutRefused,
  ssoCallbackError,
  ssoCallbackOk,
  startSsoOk,
  startSsoRefused,
  unlinkSsoIdentityOk,
  unlinkSsoIdentityRefused,
} from "./sso_handlers.ts";
export {
  accountOf,
  defaultUser,
  seedSession,
  userWithCapabilities,
  userWithRole,
} from "./users.ts";
