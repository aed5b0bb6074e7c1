/**
 * `AccountPanel`: who is signed in, and a button to sign out.
 *
 * @module
 */

import { __ } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { useLogout, useSession } from "../hooks.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { roleLabel } from "./_roles.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * The signed-in account's name, email and role, and a "Sign out" button
 * (`useLogout()`: the session ends, the cache is cleared and the gate shows
 * the login screen). Renders nothing when nobody is signed in. Put it below
 * `AuthGate`, inside the `QueryClientProvider`.
 *
 * @returns The panel, or null when signed out.
 *
 * @example In the app's header
 * ```tsx
 * import { AccountPanel } from "@gatehouse/client/screens";
 *
 * export const Header = () => (
 *   <header>
 *     <AccountPanel />
 *   </header>
 * );
 * ```
 */
export function AccountPanel(): VNode | null {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const logout = useLogout();
  if (user === null) return null;
  const alert = logout.error ? failureText(logout.error) : undefined;

  return (
    <section
      class="gh gh-screen gh-account"
      data-gh-screen="account"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} class="gh-title">
        {__("Your account", DOMAIN)}
      </h2>
      <dl class="gh-details">
        <div>
          <dt>{__("Name", DOMAIN)}</dt>
          <dd class="gh-account-name">{user.name}</dd>
        </div>
        <div>
          <dt>{__("Email", DOMAIN)}</dt>
          <dd class="gh-account-email">{user.email}</dd>
        </div>
        <div>
          <dt>{__("Role", DOMAIN)}</dt>
          <dd class="gh-account-role">{roleLabel(user.role)}</dd>
        </div>
      </dl>
      <FormAlert message={alert} />
      <div class="gh-actions">
        <button
          type="button"
          class="gh-button gh-button-secondary"
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
        >
          {logout.isPending
            ? __("Signing out…", DOMAIN)
            : __("Sign out", DOMAIN)}
        </button>
      </div>
    </section>
  );
}
