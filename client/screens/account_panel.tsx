/**
 * `AccountPanel`: who is signed in, a button to sign out, and the
 * account's security: password, sessions, two-step verification, passkeys
 * and recent activity, and the language of its emails.
 *
 * @module
 */

import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { useLogout, useSession } from "../hooks.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useFocusWhenSwappedIn } from "./_focus.ts";
import { ActionButton, type HeadingLevel, Title } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { AccountActivity } from "./_account_activity.tsx";
import { AccountIdentities } from "./_account_identities.tsx";
import { AccountLanguage } from "./_account_language.tsx";
import { ChangePassword, NoPassword } from "./_account_password.tsx";
import { AccountPasskeys } from "./_account_passkeys.tsx";
import { AccountSessions } from "./_account_sessions.tsx";
import { AccountTotp } from "./_account_totp.tsx";
import { useReauthentication } from "./_reauth.tsx";
import { roleLabel } from "./_roles.ts";
import { __, DOMAIN } from "./i18n.ts";

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
  /**
   * Show the security sections (password, sessions, two-step verification,
   * passkeys, recent activity); true by default. Turn off for a server
   * older than them.
   */
  readonly security?: boolean;
}

/**
 * The signed-in account's name, email and role, and a "Sign out" button
 * (`useLogout()`: the session ends, the cache is cleared and the gate shows the
 * login screen). Below, its security: change the password (errors by field; an
 * account without one, made by single sign-on, is told how to get one instead),
 * where it is signed in ("this device", end one, end all others), two-step
 * verification with an authenticator app (QR code, manual key, recovery codes
 * to copy or download; new codes; turn off) and passkeys (add, rename, remove)
 * where the server reports them, the identities linked at the server's single
 * sign-on providers (unlink), its recent activity, and the language of its
 * emails (where the server reports one). Sensitive steps ask for the password
 * (or, without one, another proof) again when the server wants a fresh proof.
 * Renders nothing when nobody is signed in. Put it below `AuthGate`, inside the `QueryClientProvider`. When it
 * replaces the login screen, focus moves to its title.
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
  const reauth = useReauthentication();
  useFocusWhenSwappedIn(title);
  if (user === null) return null;
  const level = Math.min((props.headingLevel ?? 1) + 1, 3) as 2 | 3;
  const factors = user.secondFactor;
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
      {props.security !== false && (
        <div class="gh-card gh-security">
          {user.hasPassword === false
            ? <NoPassword level={level} />
            : <ChangePassword level={level} />}
          <AccountSessions level={level} />
          {factors !== undefined && (
            <>
              <AccountTotp
                level={level}
                enabled={factors.totp}
                reauth={reauth}
              />
              <AccountPasskeys level={level} reauth={reauth} />
            </>
          )}
          <AccountIdentities level={level} reauth={reauth} />
          <AccountActivity level={level} />
          {user.locale !== undefined && (
            <AccountLanguage level={level} user={user} />
          )}
          {reauth.dialog}
        </div>
      )}
    </section>
  );
}
