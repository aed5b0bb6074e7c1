/**
 * `AccountPanel`: who is signed in, and a button to sign out.
 *
 * @module
 */

import { __ } from "@wordpress/i18n";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { useLogout, useSession } from "../hooks.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useFocusWhenSwappedIn } from "./_focus.ts";
import { ActionButton, type HeadingLevel, Title } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { roleLabel } from "./_roles.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode AccountPanel}.
 *
 * @example Below a page heading of the app's own
 * ```ts
 * import type { AccountPanelProps } from "@gatehouse/client/screens";
 *
 * const props: AccountPanelProps = { headingLevel: 2 };
 * ```
 */
export interface AccountPanelProps {
  /** The level of the title's heading; 1 unless the panel sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

/**
 * The signed-in account's name, email and role, and a "Sign out" button
 * (`useLogout()`: the session ends, the cache is cleared and the gate shows
 * the login screen). Renders nothing when nobody is signed in. Put it below
 * `AuthGate`, inside the `QueryClientProvider`. When it replaces the login
 * screen, focus moves to its title.
 *
 * @param props Optional `headingLevel`.
 * @returns The panel, or null when signed out.
 *
 * @example The account page of an app
 * ```tsx
 * import { AccountPanel } from "@gatehouse/client/screens";
 *
 * export const AccountPage = () => (
 *   <main>
 *     <AccountPanel />
 *   </main>
 * );
 * ```
 */
export function AccountPanel(props: AccountPanelProps = {}): VNode | null {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const logout = useLogout();
  const title = useRef<HTMLHeadingElement>(null);
  useFocusWhenSwappedIn(title);
  if (user === null) return null;
  const alert = logout.error ? failureText(logout.error) : undefined;

  return (
    <section
      class="gh gh-screen gh-account"
      data-gh-screen="account"
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {__("Your account", DOMAIN)}
        </Title>
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
          <ActionButton
            pending={logout.isPending}
            onClick={() => logout.mutate()}
          >
            {logout.isPending
              ? __("Signing out…", DOMAIN)
              : __("Sign out", DOMAIN)}
          </ActionButton>
        </div>
      </div>
    </section>
  );
}
