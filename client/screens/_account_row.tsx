// One account of the users table: its name, email, role, status and
// creation day, and one "Actions" menu: change the role, disable (after a
// confirmation) or enable, sign out everywhere and remove the second factor
// (each after a confirmation), unlock it when failed sign-ins locked it
// (DESIGN.md §15: the row says until when), and show the account's
// activity. Every
// dialog returns focus to the row's menu button; the outcome is announced
// by the table's status region. Every write goes through the
// re-authentication wrapper: past the window, a dialog asks for the
// password and the write runs once more.

import { useSignal } from "@preact/signals";
import { useMutation, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { setUserDisabled, setUserRole } from "../admin_calls.ts";
import { UserNotFoundError } from "../errors.ts";
import { RoleChangedError } from "../role_errors.ts";
import type { SessionUser, User } from "../types.ts";
import { failureText } from "./_error_message.ts";
import { SelectField } from "./_field.tsx";
import { Dialog } from "./_dialog.tsx";
import { formatDay, formatMoment } from "./_format.ts";
import { ActionButton } from "./_form_parts.tsx";
import { type RowAction, RowActions } from "./_row_actions.tsx";
import { roleChoices, roleLabel } from "./_roles.ts";
import { useReauthentication } from "./_reauth.tsx";
import { recheckSession } from "./_session_recheck.ts";
import { userSessions } from "./_user_sessions_api.ts";
import { patchUser, USERS_KEY } from "./_users_cache.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** Which dialog of the row is open. */
type Open = "role" | "disable" | "sessions" | "second-factor" | null;

/** Props of {@linkcode AccountRow}. */
export interface AccountRowProps {
  readonly account: User;
  readonly actor: SessionUser;
  /** Announces an outcome in the table's status region. */
  readonly announce: (message: string) => void;
  /** Shows a failure of an action that has no dialog (enable). */
  readonly fail: (message: string) => void;
  /** Shows the account's activity (the audit log filtered by it); no menu item without it. */
  readonly onShowActivity?: ((account: User) => void) | undefined;
}

/** A row of the users table. */
export function AccountRow(props: AccountRowProps): VNode {
  const { account, actor, announce } = props;
  const id = useId();
  const client = useQueryClient();
  const button = useRef<HTMLButtonElement>(null);
  const roleMenu = useRef<HTMLElement>(null);
  const open = useSignal<Open>(null);
  const failure = useSignal<unknown>(null);
  const choice = useSignal(account.role);
  const self = account.id === actor.id;
  const grantable = actor.grantable;
  const reauth = useReauthentication();

  const failed = (error: unknown) => {
    recheckSession(client, error);
    failure.value = error;
  };
  const finish = (message: string) => {
    open.value = null;
    announce(message);
  };
  const toggle = useMutation({
    mutationFn: (disabled: boolean) =>
      reauth.guard(() =>
        setUserDisabled(account.id, disabled, { seenRole: account.role })
      ),
    onSuccess: (changed) => {
      patchUser(client, changed);
      finish(
        sprintf(
          changed.disabled
            ? __("%s is disabled and signed out everywhere.", DOMAIN)
            : __("%s is enabled.", DOMAIN),
          changed.name,
        ),
      );
    },
    onError: (error) => {
      if (open.value === null) {
        recheckSession(client, error);
        props.fail(sprintf("%1$s: %2$s", account.name, failureText(error)));
      } else failed(error);
    },
  });
  const changeRole = useMutation({
    mutationFn: (role: string) =>
      reauth.guard(() => setUserRole(account.id, role)),
    onSuccess: (changed) => {
      patchUser(client, changed);
      finish(
        sprintf(
          __("%1$s now has the role %2$s.", DOMAIN),
          changed.name,
          roleLabel(changed.role),
        ),
      );
    },
    onError: failed,
  });
  const endSessions = useMutation({
    mutationFn: () => reauth.guard(() => userSessions.revoke(account.id)),
    onSuccess: () =>
      finish(sprintf(__("%s is signed out everywhere.", DOMAIN), account.name)),
    onError: failed,
  });
  const removeFactor = useMutation({
    mutationFn: () =>
      reauth.guard(() => userSessions.removeSecondFactor(account.id)),
    onSuccess: () => {
      // Nothing is left to remove: the row stops offering it.
      patchUser(client, {
        ...account,
        secondFactor: { totp: false, passkeys: 0 },
      });
      finish(
        sprintf(
          __("%s can sign in with their password alone now.", DOMAIN),
          account.name,
        ),
      );
    },
    onError: failed,
  });
  const unlock = useMutation({
    mutationFn: () => reauth.guard(() => userSessions.unlock(account.id)),
    onSuccess: () => {
      patchUser(client, { ...account, lockedUntil: null });
      announce(sprintf(__("%s can sign in again.", DOMAIN), account.name));
    },
    onError: (error) => {
      recheckSession(client, error);
      props.fail(sprintf("%1$s: %2$s", account.name, failureText(error)));
    },
  });
  const pending = toggle.isPending || changeRole.isPending ||
    endSessions.isPending || removeFactor.isPending || unlock.isPending;

  const show = (which: Open) => {
    failure.value = null;
    choice.value = account.role;
    open.value = which;
  };
  const actions: RowAction[] = [];
  if (!self && grantable !== undefined) {
    actions.push({
      key: "role",
      label: __("Change role…", DOMAIN),
      run: () => show("role"),
    });
  }
  if (!self) {
    actions.push(
      account.disabled
        ? {
          key: "enable",
          label: __("Enable", DOMAIN),
          run: () => toggle.mutate(false),
        }
        : {
          key: "disable",
          label: __("Disable…", DOMAIN),
          danger: true,
          run: () => show("disable"),
        },
    );
  }
  if (!self && userSessions.available && !account.disabled) {
    actions.push({
      key: "sessions",
      label: __("Sign out everywhere…", DOMAIN),
      danger: true,
      run: () => show("sessions"),
    });
  }
  // Only where there is something to remove; a server that does not say
  // (no `secondFactor`) still gets the item, and answers 204 for none.
  const factors = account.secondFactor;
  const hasFactor = factors === undefined || factors.totp ||
    factors.passkeys > 0;
  if (!self && userSessions.available && hasFactor) {
    actions.push({
      key: "second-factor",
      label: __("Remove second factor…", DOMAIN),
      danger: true,
      run: () => show("second-factor"),
    });
  }
  // Locked by failed sign-ins to its address: an unlock, right away (it
  // takes nothing from anyone, so it asks for no confirmation).
  const lockedUntil = lockEnd(account);
  if (lockedUntil !== null && userSessions.available) {
    actions.push({
      key: "unlock",
      label: __("Unlock", DOMAIN),
      run: () => unlock.mutate(),
    });
  }
  const { onShowActivity } = props;
  if (onShowActivity !== undefined) {
    actions.push({
      key: "activity",
      label: __("Activity", DOMAIN),
      run: () => onShowActivity(account),
    });
  }

  const error = failure.value;
  const stale = error instanceof RoleChangedError ||
    error instanceof UserNotFoundError;
  const reload = stale && (
    <ActionButton
      variant="link"
      onClick={() => {
        void client.invalidateQueries({ queryKey: USERS_KEY });
        open.value = null;
      }}
    >
      {__("Reload list", DOMAIN)}
    </ActionButton>
  );
  const alert = error === null ? undefined : failureText(error);
  const common = {
    pending,
    alert,
    alertAction: reload,
    returnTo: button,
    onCancel: () => (open.value = null),
  };

  return (
    <tr
      class={account.disabled ? "gh-row gh-row-disabled" : "gh-row"}
      data-user-id={account.id}
    >
      <th scope="row" class="gh-cell-name">
        <span id={`${id}-name`}>{account.name}</span>
        {self && <span class="gh-badge">{__("You", DOMAIN)}</span>}
      </th>
      <td class="gh-cell-email">{account.email}</td>
      <td class="gh-cell-role">{roleLabel(account.role)}</td>
      <td class="gh-cell-status">
        <span
          class={account.disabled
            ? "gh-badge gh-badge-disabled"
            : "gh-badge gh-badge-active"}
        >
          {account.disabled ? __("Disabled", DOMAIN) : __("Active", DOMAIN)}
        </span>
        {lockedUntil !== null && (
          <span class="gh-badge gh-badge-locked" data-gh-locked>
            {sprintf(
              /* translators: %s: a time, or a day and a time. */
              __("Locked until %s", DOMAIN),
              formatMoment(lockedUntil),
            )}
          </span>
        )}
      </td>
      <td class="gh-cell-created">
        <time dateTime={account.createdAt}>{formatDay(account.createdAt)}</time>
      </td>
      <td class="gh-cell-actions">
        {actions.length > 0 && (
          <RowActions
            subject={account.name}
            actions={actions}
            buttonRef={button}
            pending={pending}
          />
        )}
        {open.value === "role" && grantable !== undefined && (
          <Dialog
            {...common}
            name="role"
            initialFocus={roleMenu}
            title={sprintf(__("Change the role of %s", DOMAIN), account.name)}
            confirm={__("Change role", DOMAIN)}
            busy={__("Changing role…", DOMAIN)}
            onConfirm={() => {
              if (choice.value === account.role) open.value = null;
              else changeRole.mutate(choice.value);
            }}
          >
            <SelectField
              selectRef={roleMenu}
              id={`${id}-role`}
              name="role"
              label={__("Role", DOMAIN)}
              value={choice.value}
              onChange={(value) => (choice.value = value)}
              choices={roleChoices(grantable, account.role)}
            />
          </Dialog>
        )}
        {open.value === "disable" && (
          <Dialog
            {...common}
            name="disable"
            danger
            title={sprintf(__("Disable %s?", DOMAIN), account.name)}
            confirm={__("Disable account", DOMAIN)}
            busy={__("Disabling…", DOMAIN)}
            onConfirm={() => toggle.mutate(true)}
          >
            <p>
              {__(
                "They are signed out everywhere at once and cannot sign in until the account is enabled again.",
                DOMAIN,
              )}
            </p>
          </Dialog>
        )}
        {open.value === "sessions" && (
          <Dialog
            {...common}
            name="sessions"
            danger
            title={sprintf(__("Sign %s out everywhere?", DOMAIN), account.name)}
            confirm={__("Sign out everywhere", DOMAIN)}
            busy={__("Signing out…", DOMAIN)}
            onConfirm={() => endSessions.mutate()}
          >
            <p>
              {__(
                "Every session of this account ends now. They can sign in again with their password.",
                DOMAIN,
              )}
            </p>
          </Dialog>
        )}
        {open.value === "second-factor" && (
          <Dialog
            {...common}
            name="second-factor"
            danger
            title={sprintf(
              __("Remove the second factor of %s?", DOMAIN),
              account.name,
            )}
            confirm={__("Remove second factor", DOMAIN)}
            busy={__("Removing…", DOMAIN)}
            onConfirm={() => removeFactor.mutate()}
          >
            <p>
              {__(
                "Their authenticator app, recovery codes and passkeys stop working. Do this only when you are sure who is asking, for example for a lost phone.",
                DOMAIN,
              )}
            </p>
          </Dialog>
        )}
        {reauth.dialog}
      </td>
    </tr>
  );
}

// When the account's lock ends (ms), or null when it is not locked now.
function lockEnd(account: User): number | null {
  if (account.lockedUntil == null) return null;
  const at = Date.parse(account.lockedUntil);
  return Number.isNaN(at) || at <= Date.now() ? null : at;
}
