/**
 * `AuthGate`: the app when signed in, the login screen when signed out, a
 * loading or error state while the session is not known.
 *
 * @module
 */

import { useQuery, useQueryClient } from "@tanstack/preact-query";
import type { ComponentChildren, VNode } from "./_peer_types.ts";
import { useCallback, useEffect } from "preact/hooks";
import { __, DOMAIN, useLocaleUpdates } from "./_i18n.ts";
import { followOtherTabs, sessionQuery } from "./_session_cache.ts";
import { adoptSession } from "./query.ts";
import type { SessionUser } from "./types.ts";

/**
 * Props of {@linkcode AuthGate}.
 *
 * @example Replacing the loading and error states
 * ```tsx
 * import type { AuthGateProps } from "@gatehouse/client";
 *
 * const states: Omit<AuthGateProps, "loginScreen"> = {
 *   loadingScreen: () => <p>One moment…</p>,
 *   errorScreen: (_error, retry) => <button type="button" onClick={retry}>Retry</button>,
 * };
 * ```
 */
export interface AuthGateProps {
  /** The app, rendered when signed in. */
  readonly children?: ComponentChildren;
  /**
   * The login screen, rendered when signed out. It receives the handler to
   * call with the account once login succeeds; the gate then installs the
   * account (clearing the rest of the cache) and shows the app.
   */
  readonly loginScreen: (
    onLogin: (user: SessionUser) => void,
  ) => ComponentChildren;
  /**
   * Shown while the session is being read; a quiet status line by default
   * (in the screens' language, see `setScreensLocale`).
   */
  readonly loadingScreen?: () => ComponentChildren;
  /**
   * Shown when the session could not be read (network down, server error);
   * `retry` asks again. A short alert with a retry button by default (in
   * the screens' language).
   */
  readonly errorScreen?: (
    error: unknown,
    retry: () => void,
  ) => ComponentChildren;
}

// The default states speak the screens' language (setScreensLocale), as
// the login screen beside them does.
function DefaultLoading(): VNode {
  useLocaleUpdates();
  return <p role="status" aria-busy="true">{__("Loading…", DOMAIN)}</p>;
}

function DefaultError(props: { retry: () => void }): VNode {
  useLocaleUpdates();
  return (
    <div role="alert">
      <p>{__("Cannot reach the server", DOMAIN)}</p>
      <button type="button" onClick={props.retry}>
        {__("Try again", DOMAIN)}
      </button>
    </div>
  );
}

/**
 * Renders the app when signed in and `loginScreen` when signed out; while
 * the session is being read, `loadingScreen`; when it cannot be read,
 * `errorScreen`. Other tabs of the same origin follow at once
 * (BroadcastChannel): a sign-in, a sign-out or a session found gone in one
 * reaches every gate. It reads the session query of the `QueryClientProvider`
 * above it (a client from `createAuthQueryClient()`): when a call later finds
 * the session gone, the login screen comes back without a reload.
 *
 * @param props The app, the login screen and optional loading/error screens.
 * @returns The element for the current state.
 *
 * @example An app behind the gate
 * ```tsx
 * import { AuthGate, createAuthQueryClient, isSecondFactorChallenge, login, type SessionUser } from "@gatehouse/client";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * function Login(props: { onLogin: (user: SessionUser) => void }) {
 *   const submit = async (event: SubmitEvent) => {
 *     event.preventDefault();
 *     const form = new FormData(event.currentTarget as HTMLFormElement);
 *     const result = await login(String(form.get("email")), String(form.get("password")));
 *     if (!isSecondFactorChallenge(result)) props.onLogin(result);
 *   };
 *   return (
 *     <form onSubmit={submit}>
 *       <input name="email" type="email" />
 *       <input name="password" type="password" />
 *       <button type="submit">Sign in</button>
 *     </form>
 *   );
 * }
 *
 * const client = createAuthQueryClient();
 * export const App = () => (
 *   <QueryClientProvider client={client}>
 *     <AuthGate loginScreen={(onLogin) => <Login onLogin={onLogin} />}>
 *       <main>The app</main>
 *     </AuthGate>
 *   </QueryClientProvider>
 * );
 * ```
 */
export function AuthGate(props: AuthGateProps): VNode {
  const client = useQueryClient();
  const session = useQuery(sessionQuery);
  // adoptSession tells the other tabs.
  const onLogin = useCallback((user: SessionUser) => {
    adoptSession(client, user);
  }, [client]);
  // Sign-ins, sign-outs and lost sessions of the other tabs, at once.
  useEffect(() => followOtherTabs(client), [client]);
  const { refetch } = session;
  const retry = useCallback(() => void refetch(), [refetch]);

  // Known data wins over a failed refetch: a blip does not sign anyone out.
  if (session.data) return <>{props.children}</>;
  if (session.data === null) return <>{props.loginScreen(onLogin)}</>;
  if (session.isError) {
    return props.errorScreen
      ? <>{props.errorScreen(session.error, retry)}</>
      : <DefaultError retry={retry} />;
  }
  return props.loadingScreen
    ? <>{props.loadingScreen()}</>
    : <DefaultLoading />;
}
