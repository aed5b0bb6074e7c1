/**
 * The query client and the session in its cache. The session lives under
 * {@linkcode sessionQueryKey}; the client from
 * {@linkcode createAuthQueryClient} drops it when any query or mutation
 * fails because the session is gone, which brings the gate's login screen
 * back without a reload.
 *
 * @module
 */

import {
  type DefaultOptions,
  MutationCache,
  QueryCache,
  QueryClient as TanStackQueryClient,
} from "@tanstack/preact-query";
import {
  clearAllButSession,
  endSessionIfRevoked,
  noteSignIn,
  sessionQueryKey,
  signInCount,
} from "./_session_cache.ts";
import type { QueryClient, QueryClientConfig } from "./_peer_types.ts";
import { tellOtherTabs } from "./_tabs.ts";
import { AuthClientError } from "./errors.ts";
import type { SessionUser } from "./types.ts";

export { sessionQueryKey };

/**
 * Options of {@linkcode createAuthQueryClient}: those of TanStack's
 * `QueryClient` except the caches, which the auth client owns.
 *
 * @example No retries (handy in tests)
 * ```ts
 * import { type AuthQueryClientOptions, createAuthQueryClient } from "@gatehouse/client";
 *
 * const options: AuthQueryClientOptions = { defaultOptions: { queries: { retry: false } } };
 * const client = createAuthQueryClient(options);
 * ```
 */
export type AuthQueryClientOptions = Omit<
  QueryClientConfig,
  "queryCache" | "mutationCache"
>;

/** Queries retry what may pass on its own (no answer, a 5xx), never a refusal. */
function retryTransient(failureCount: number, error: unknown): boolean {
  if (failureCount >= 3) return false;
  if (!(error instanceof AuthClientError)) return true;
  return error.status === 0 || error.status >= 500;
}

/**
 * Builds the query client for an app behind `AuthGate`. When a query or a
 * mutation fails with an error that means the session is gone
 * (`isSessionRevoked`: any 401 outside login on REST), the cached session
 * becomes null and the gate shows the login screen again, without a reload;
 * a mutation sent before a sign-in the tab has taken since ends nothing (its
 * 401 is about the session that sign-in replaced). Queries retry only
 * failures that may pass (no answer, 5xx).
 *
 * @param options TanStack `QueryClient` options, without the caches.
 * @returns The query client; give it to `QueryClientProvider`.
 *
 * @example Wiring the app
 * ```tsx
 * import { AuthGate, createAuthQueryClient } from "@gatehouse/client";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const client = createAuthQueryClient();
 * export const App = () => (
 *   <QueryClientProvider client={client}>
 *     <AuthGate loginScreen={() => <p>Please sign in</p>}>
 *       <main>Welcome</main>
 *     </AuthGate>
 *   </QueryClientProvider>
 * );
 * ```
 */
export function createAuthQueryClient(
  options: AuthQueryClientOptions = {},
): QueryClient {
  const onError = (error: unknown) => {
    endSessionIfRevoked(client, error);
  };
  // A mutation's answer may come after a sign-in (here, or in another tab)
  // that it went out before: it speaks of the session that sign-in ended.
  // Each mutation notes the sign-ins taken as it starts (a count: the wall
  // clock may go back). (Queries need none: a sign-in removes and cancels
  // them.)
  const sentUnder = new WeakMap<object, number>();
  const onMutate = (_variables: unknown, mutation: object) => {
    sentUnder.set(mutation, signInCount(client));
  };
  const onMutationError = (
    error: unknown,
    _variables: unknown,
    _context: unknown,
    mutation: object,
  ) => {
    endSessionIfRevoked(client, error, sentUnder.get(mutation));
  };
  const defaultOptions: DefaultOptions = {
    ...options.defaultOptions,
    queries: { retry: retryTransient, ...options.defaultOptions?.queries },
  };
  const client: QueryClient = new TanStackQueryClient({
    ...options,
    defaultOptions,
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({
      onMutate,
      onError: onMutationError,
    }),
  });
  return client;
}

/**
 * Installs an account signed in some other way (an accepted invitation, the
 * gate's after-login handler) and clears every other cached query, as a
 * logout does, so nothing of a previous account survives; and tells the
 * other tabs of the origin, whose gates read the session again.
 *
 * @param client The query client.
 * @param user The signed-in account.
 *
 * @example After accepting an invitation
 * ```ts
 * import { adoptSession, createAuthQueryClient, sessionQueryKey } from "@gatehouse/client";
 *
 * const client = createAuthQueryClient();
 * client.setQueryData(["projects"], ["of the previous account"]);
 * adoptSession(client, { id: "0190f0a0-0000-7000-8000-000000000001", email: "ada@example.com", name: "Ada", role: "" });
 * console.assert(client.getQueryData(["projects"]) === undefined);
 * console.assert(client.getQueryData(sessionQueryKey) !== undefined);
 * ```
 */
export function adoptSession(client: QueryClient, user: SessionUser): void {
  noteSignIn(client);
  clearAllButSession(client);
  void client.cancelQueries({ queryKey: sessionQueryKey, exact: true });
  client.setQueryData<SessionUser | null>(sessionQueryKey, user);
  tellOtherTabs({ type: "signed-in", userId: user.id });
}
