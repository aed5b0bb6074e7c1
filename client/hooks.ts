/**
 * The hooks: `useSession()` reads the signed-in account from the cache,
 * `useLogout()` signs out and clears the cache, `useRecoveryCodeCount()`
 * reads how many recovery codes are left. They need a
 * `QueryClientProvider` around them with a client from
 * `createAuthQueryClient()`.
 *
 * @module
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useEffect } from "preact/hooks";
import type { UseMutationResult } from "./_peer_types.ts";
import { onRecoveryCodesChanged } from "./_recovery_code_changes.ts";
import { forgetSession, sessionQuery } from "./_session_cache.ts";
import { countRecoveryCodes } from "./second_factor_calls.ts";
import { logout } from "./session_calls.ts";
import { tellOtherTabs } from "./_tabs.ts";
import type { SessionUser } from "./types.ts";

// The cache key of the count; the session's account is implied (signing in
// or out removes every other query).
const RECOVERY_CODE_COUNT_KEY = ["gatehouse", "recovery-codes"] as const;

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

/**
 * How many recovery codes the signed-in account has left unused
 * (`countRecoveryCodes()`, through the query cache). Asked only while the
 * session says an authenticator app is on; 0 when it says the app is off;
 * null while unknown (loading, signed out, a failed read, or a server that
 * does not say). It refreshes after the calls that change it succeed:
 * `confirmTotp`, `regenerateRecoveryCodes`, `disableTotp`, and
 * `verifySecondFactor` or `reauthenticate` with a recovery code.
 *
 * @returns The count, or null.
 *
 * @example A reminder that the codes run low
 * ```tsx
 * import { useRecoveryCodeCount } from "@gatehouse/client";
 *
 * export function RecoveryReminder() {
 *   const left = useRecoveryCodeCount();
 *   if (left === null || left > 3) return null;
 *   return <p>Only {left} recovery codes left: make new ones.</p>;
 * }
 * ```
 */
export function useRecoveryCodeCount(): number | null {
  const client = useQueryClient();
  const totp = useSession()?.secondFactor?.totp;
  const { data } = useQuery({
    queryKey: RECOVERY_CODE_COUNT_KEY,
    queryFn: () => countRecoveryCodes(),
    enabled: totp === true,
  });
  useEffect(
    () =>
      onRecoveryCodesChanged(() =>
        void client.invalidateQueries({ queryKey: RECOVERY_CODE_COUNT_KEY })
      ),
    [client],
  );
  if (totp === false) return 0;
  return totp === true && data !== undefined ? data : null;
}
