/**
 * `@gatehouse/client/testing`: the test harness of the client.
 *
 * - {@linkcode installTestEnvironment}: a DOM (happy-dom), a fake HTTP
 *   server (msw) and cleanup between tests, for one test file.
 * - Accounts: {@linkcode defaultUser} (no role), {@linkcode userWithRole}
 *   (a stable id per role), {@linkcode userWithCapabilities},
 *   {@linkcode accountOf}; {@linkcode seedSession} puts one in the cache.
 * - Canned handlers for each outcome of each endpoint, such as
 *   {@linkcode loginOk}, {@linkcode loginRateLimited},
 *   {@linkcode sessionAnonymous}, {@linkcode roleOk},
 *   {@linkcode inviteDelivered}, {@linkcode inviteUndelivered},
 *   {@linkcode activateOk}, {@linkcode activateInvalidToken},
 *   {@linkcode resetRequestOk}, {@linkcode resetOk}; {@linkcode answerError}
 *   for any other error code, {@linkcode serverTooOld} and
 *   {@linkcode networkFailure}.
 *
 * @example The gate shows the login screen when signed out
 * ```tsx
 * import { AuthGate, createAuthQueryClient } from "@gatehouse/client";
 * import { installTestEnvironment, sessionAnonymous } from "@gatehouse/client/testing";
 * import { render } from "@testing-library/preact";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const env = installTestEnvironment({ handlers: [sessionAnonymous] });
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
  roleOk,
  setDisabledOk,
  usersOk,
} from "./admin_handlers.ts";
export {
  answerError,
  type AnswerErrorOptions,
  networkFailure,
  serverTooOld,
} from "./answers.ts";
export {
  activateInvalidToken,
  activateOk,
  inviteDelivered,
  inviteUndelivered,
  resetInvalidToken,
  resetOk,
  resetRequestOk,
} from "./link_handlers.ts";
export type { Endpoint } from "./_routes.ts";
export {
  loginAs,
  loginInvalid,
  loginOk,
  loginRateLimited,
  logoutOk,
  sessionAnonymous,
  sessionAs,
  sessionOk,
  sessionUnavailable,
} from "./session_handlers.ts";
export {
  accountOf,
  defaultUser,
  seedSession,
  userWithCapabilities,
  userWithRole,
} from "./users.ts";
