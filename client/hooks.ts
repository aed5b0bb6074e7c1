/**
 * The hooks: `useSession()` reads the signed-in account from the cache,
 * `useLogout()` signs out and clears the cache. Both need a
 * `QueryClientProvider` around them with a client from
 * `createAuthQueryClient()`.
 *
 * @module
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import type { UseMutationResult } from "./_peer_types.ts";
import { forgetSession, sessionQuery } from "./_session_cache.ts";
import { logout } from "./session_calls.ts";
import { tellOtherTabs } from "./_tabs.ts";
import type { SessionUser } from "./types.ts";

/**
 * The signed-in account: id, email, name and role, plus `capabilities` and
 * `grantable` when the server sends them. Null when signed out or not known
 * yet; below `AuthGate` it is always an account.
 *
 * @returns The account, or null.
 *
 * @example Greeting the user
 * ```tsx
 * import { useSession } from "@gatehouse/client";
 *
 * export function Greeting() {
 *   const user = useSession();
 *   return <p>Hello, {user?.name ?? "stranger"}</p>;
 * }
 * ```
 */
export function useSession(): SessionUser | null {
  const { data } = useQuery(sessionQuery);
  return data ?? null;
}

/**
 * A mutation that signs out: the server ends the session, then the cached
 * session becomes null (the gate shows the login screen) and every other
 * cached query is removed. Call `mutate()`; `isPending` and `error` are there
 * for the button.
 *
 * @returns The TanStack mutation.
 *
 * @example A sign-out button
 * ```tsx
 * import { useLogout } from "@gatehouse/client";
 *
 * export function SignOut() {
 *   const logout = useLogout();
 *   return (
 *     <button type="button" disabled={logout.isPending} onClick={() => logout.mutate()}>
 *       Sign out
 *     </button>
 *   );
 * }
 * ```
 */
export function useLogout(): UseMutationResult<void, Error, void> {
  const client = useQueryClient();
  return useMutation<void, Error, void>({
    mutationFn: async () => {
      await logout();
      forgetSession(client);
      tellOtherTabs({ type: "signed-out" });
    },
  });
}
