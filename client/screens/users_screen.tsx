/**
 * `UsersScreen`: the accounts as a table, with search, order, pages, row
 * actions with confirmations, and the pending invitations.
 *
 * @module
 */

import type { ComponentChildren, VNode } from "../_peer_types.ts";
import type { User } from "../types.ts";
import type { HeadingLevel } from "./_form_parts.tsx";
import { ManagersScreen } from "./_managers_screen.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { PendingInvitations } from "./_pending_invitations.tsx";
import { UsersTable } from "./_users_table.tsx";
import { __, DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode UsersScreen}.
 *
 * @example A create link, pages of 50, and a search from the page's address
 * ```tsx
 * import type { UsersScreenProps } from "@gatehouse/client/screens";
 *
 * const props: UsersScreenProps = {
 *   newUserRender: <a href="/users/new">New user</a>,
 *   pageSize: 50,
 *   initialSearch: "ada@example.com",
 * };
 * ```
 */
export interface UsersScreenProps {
  /** An element shown in the screen's header as the link to create an account (e.g. `<a href="/users/new">`). */
  readonly newUserRender?: ComponentChildren;
  /** Accounts per page; 20 by default (the server may cap it). */
  readonly pageSize?: number;
  /** A search to start with (e.g. from a "Show the account" link). */
  readonly initialSearch?: string;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
  /**
   * Shows an account's activity (e.g. go to the audit log filtered by it:
   * `AuditLogScreen`'s `initialUserId`); adds "Activity" to each row's menu.
   */
  readonly onShowActivity?: (account: User) => void;
}

/**
 * The accounts of those who may manage users (`can(user, USERS_MANAGE)`;
 * others see a short notice and nothing is fetched), as a table: name,
 * email, role, status and creation day, with the total and "page N of M".
 * Search by name or email (the number of matches is announced), order by
 * name, email or creation (servers that sort; others list in creation
 * order), and one "Actions" menu per account: change its role, disable it
 * after a confirmation, enable it, sign it out everywhere, remove its
 * second factor (a lost phone), unlock it when failed sign-ins locked it
 * (the status says "Locked until …"), and show its activity
 * (`onShowActivity`).
 * Past the re-authentication window a dialog asks for the password and the
 * action carries on. Outcomes are announced; a refusal shows in its dialog (e.g.
 * "This account changed since the list was loaded" with "Reload list").
 * Below the table, the pending invitations with "Revoke", where the server
 * lists them. On a phone the rows become compact cards. Put it below
 * `AuthGate`.
 *
 * @param props `newUserRender`, `pageSize`, `initialSearch` and `headingLevel`.
 * @returns The screen.
 *
 * @example With a link to the creation screen
 * ```tsx
 * import { UsersScreen } from "@gatehouse/client/screens";
 *
 * export const UsersPage = () => (
 *   <UsersScreen newUserRender={<a class="gh-button gh-button-primary" href="/users/new">New user</a>} />
 * );
 * ```
 */
export function UsersScreen(props: UsersScreenProps): VNode {
  useLocaleUpdates();
  return (
    <ManagersScreen
      screen="users"
      title={__("Users", DOMAIN)}
      level={props.headingLevel}
      headerActions={<div class="gh-header-actions">{props.newUserRender}</div>}
      notice={__("Your account may not manage users.", DOMAIN)}
    >
      {(manager) => (
        <>
          <UsersTable
            actor={manager}
            pageSize={props.pageSize ?? 20}
            initialSearch={props.initialSearch ?? ""}
            onShowActivity={props.onShowActivity}
          />
          <PendingInvitations
            level={Math.min((props.headingLevel ?? 1) + 1, 6) as HeadingLevel}
          />
        </>
      )}
    </ManagersScreen>
  );
}
