/**
 * `UsersScreen`: the account list, with search, pages, disable/enable and a
 * role menu per account.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/preact-query";
import { __, sprintf } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { listUsers, setUserDisabled, setUserRole } from "../admin_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { UserNotFoundError } from "../errors.ts";
import { useSession } from "../hooks.ts";
import { RoleChangedError } from "../role_errors.ts";
import type { SessionUser, User } from "../types.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert, FormStatus, SelectField, TextField } from "./_field.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { roleChoices, roleLabel } from "./_roles.ts";
import { patchUser, USERS_KEY } from "./_users_cache.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode UsersScreen}.
 *
 * @example A create link and pages of 50
 * ```tsx
 * import type { UsersScreenProps } from "@gatehouse/client/screens";
 *
 * const props: UsersScreenProps = {
 *   newUserRender: <a href="/users/new">New user</a>,
 *   pageSize: 50,
 * };
 * ```
 */
export interface UsersScreenProps {
  /** An element shown in the screen's header as the link to create an account (e.g. `<a href="/users/new">`). */
  readonly newUserRender?: ComponentChildren;
  /** Accounts per page; 20 by default (the server may cap it). */
  readonly pageSize?: number;
}

/**
 * The account list of those who may manage users
 * (`can(user, USERS_MANAGE)`; others see a short notice and nothing is
 * fetched). Each account shows its name, email, role and whether it is
 * active, with a button to disable or enable it and a role menu built from
 * the signed-in account's `grantable` list. A refusal shows next to the
 * account it concerns (e.g. "This account changed since the list was loaded"
 * with a reload button). Search by name or email, pages with "Previous
 * page"/"Next page". Put it below `AuthGate`.
 *
 * @param props `newUserRender` and `pageSize`.
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
  const id = useId();
  const user = useSession();
  const manage = user !== null && can(user, USERS_MANAGE);

  return (
    <section
      class="gh gh-screen gh-users"
      data-gh-screen="users"
      aria-labelledby={`${id}-title`}
    >
      <header class="gh-header">
        <h2 id={`${id}-title`} class="gh-title">{__("Users", DOMAIN)}</h2>
        {manage && props.newUserRender}
      </header>
      {manage
        ? <AccountList actor={user} pageSize={props.pageSize ?? 20} />
        : (
          <p class="gh-notice">
            {__("Your account may not manage users.", DOMAIN)}
          </p>
        )}
    </section>
  );
}

function AccountList(
  props: { readonly actor: SessionUser; readonly pageSize: number },
): VNode {
  const id = useId();
  const search = useSignal("");
  const q = useSignal("");
  const cursors = useSignal<readonly (string | null)[]>([null]);
  const cursor = cursors.value[cursors.value.length - 1] ?? null;
  const applied = q.value;
  const limit = props.pageSize;

  const list = useQuery({
    queryKey: [...USERS_KEY, { q: applied, cursor, limit }],
    queryFn: () =>
      listUsers({
        limit,
        ...(applied === "" ? {} : { q: applied }),
        ...(cursor === null ? {} : { cursor }),
      }),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  const nextCursor = page?.nextCursor ?? null;
  const pageNumber = cursors.value.length;

  const submitSearch = (event: Event) => {
    event.preventDefault();
    q.value = search.value.trim();
    cursors.value = [null];
  };

  return (
    <>
      <form role="search" class="gh-search" onSubmit={submitSearch}>
        <TextField
          id={`${id}-q`}
          name="q"
          type="search"
          label={__("Search by name or email", DOMAIN)}
          value={search}
        />
        <button type="submit" class="gh-button gh-button-secondary">
          {__("Search", DOMAIN)}
        </button>
      </form>
      <FormAlert
        message={list.isError && !page ? failureText(list.error) : undefined}
      />
      {list.isError && !page && (
        <button
          type="button"
          class="gh-button gh-button-secondary"
          onClick={() => void list.refetch()}
        >
          {__("Try again", DOMAIN)}
        </button>
      )}
      {list.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading accounts…", DOMAIN)}
        </p>
      )}
      {page && page.users.length === 0 && (
        <p class="gh-empty">
          {applied === ""
            ? __("No accounts yet.", DOMAIN)
            : __("No accounts match your search.", DOMAIN)}
        </p>
      )}
      {page && page.users.length > 0 && (
        <ul class="gh-user-list" aria-busy={list.isFetching ? "true" : "false"}>
          {page.users.map((account) => (
            <AccountRow
              key={account.id}
              account={account}
              actor={props.actor}
            />
          ))}
        </ul>
      )}
      {(pageNumber > 1 || nextCursor !== null) && (
        <nav class="gh-pager" aria-label={__("Pages", DOMAIN)}>
          <button
            type="button"
            class="gh-button gh-button-secondary"
            disabled={pageNumber === 1}
            onClick={() => (cursors.value = cursors.value.slice(0, -1))}
          >
            {__("Previous page", DOMAIN)}
          </button>
          <span class="gh-page-number">
            {sprintf(__("Page %d", DOMAIN), pageNumber)}
          </span>
          <button
            type="button"
            class="gh-button gh-button-secondary"
            disabled={nextCursor === null || list.isPlaceholderData}
            onClick={() => {
              if (nextCursor !== null) {
                cursors.value = [...cursors.value, nextCursor];
              }
            }}
          >
            {__("Next page", DOMAIN)}
          </button>
        </nav>
      )}
    </>
  );
}

type Done = "disabled" | "enabled" | "role";

/** A value that holds for one version of an account. */
interface Pinned<T> {
  readonly account: User;
  readonly value: T;
}

function doneText(done: Done | null): string | null {
  if (done === "disabled") return __("Account disabled.", DOMAIN);
  if (done === "enabled") return __("Account enabled.", DOMAIN);
  if (done === "role") return __("Role changed.", DOMAIN);
  return null;
}

function AccountRow(
  props: { readonly account: User; readonly actor: SessionUser },
): VNode {
  const { account, actor } = props;
  const id = useId();
  const client = useQueryClient();
  const self = account.id === actor.id;
  const grantable = actor.grantable;
  // The choice and the failure hold the account they were made on: when
  // the list brings a changed account (a reload, a change of ours), they
  // no longer apply and the row starts over.
  const choice = useSignal<Pinned<string> | null>(null);
  const failure = useSignal<Pinned<unknown> | null>(null);
  const done = useSignal<Done | null>(null);
  const chosen = choice.value?.account === account
    ? choice.value.value
    : account.role;
  const error = failure.value?.account === account ? failure.value.value : null;
  const fail = (value: unknown) => (failure.value = { account, value });

  const onSuccess = (changed: User, what: Done) => {
    patchUser(client, changed);
    done.value = what;
  };
  const toggle = useMutation({
    mutationFn: () =>
      setUserDisabled(account.id, !account.disabled, {
        seenRole: account.role,
      }),
    onMutate: () => {
      failure.value = null;
      done.value = null;
    },
    onSuccess: (changed) =>
      onSuccess(changed, changed.disabled ? "disabled" : "enabled"),
    onError: fail,
  });
  const changeRole = useMutation({
    mutationFn: (next: string) => setUserRole(account.id, next),
    onMutate: () => {
      failure.value = null;
      done.value = null;
    },
    onSuccess: (changed) => onSuccess(changed, "role"),
    onError: fail,
  });
  const busy = toggle.isPending || changeRole.isPending;
  const stale = error instanceof RoleChangedError ||
    error instanceof UserNotFoundError;
  const errorId = `${id}-error`;

  return (
    <li
      class={account.disabled ? "gh-user gh-user-disabled" : "gh-user"}
      data-user-id={account.id}
      aria-labelledby={`${id}-name`}
    >
      <div class="gh-user-head">
        <p id={`${id}-name`} class="gh-user-name">
          {account.name}
          {self && " "}
          {self && <span class="gh-badge">{__("You", DOMAIN)}</span>}
        </p>
        <span
          class={account.disabled
            ? "gh-badge gh-badge-disabled"
            : "gh-badge gh-badge-active"}
        >
          {account.disabled ? __("Disabled", DOMAIN) : __("Active", DOMAIN)}
        </span>
      </div>
      <p class="gh-user-email">{account.email}</p>
      {self || grantable === undefined
        ? (
          <p class="gh-user-role">
            {sprintf(__("Role: %s", DOMAIN), roleLabel(account.role))}
          </p>
        )
        : (
          <form
            class="gh-user-role-form"
            onSubmit={(event) => {
              event.preventDefault();
              changeRole.mutate(chosen);
            }}
          >
            <SelectField
              id={`${id}-role`}
              name="role"
              label={sprintf(__("Role of %s", DOMAIN), account.name)}
              hideLabel
              value={chosen}
              onChange={(value) => (choice.value = { account, value })}
              choices={roleChoices(grantable, account.role)}
              disabled={busy}
            />
            <button
              type="submit"
              class="gh-button gh-button-secondary"
              disabled={busy || chosen === account.role}
              aria-label={sprintf(
                __("Change role of %s", DOMAIN),
                account.name,
              )}
              aria-describedby={error ? errorId : undefined}
            >
              {__("Change role", DOMAIN)}
            </button>
          </form>
        )}
      {!self && (
        <div class="gh-actions">
          <button
            type="button"
            class={account.disabled
              ? "gh-button gh-button-secondary"
              : "gh-button gh-button-danger"}
            disabled={busy}
            onClick={() => toggle.mutate()}
            aria-label={account.disabled
              ? sprintf(__("Enable %s", DOMAIN), account.name)
              : sprintf(__("Disable %s", DOMAIN), account.name)}
            aria-describedby={error ? errorId : undefined}
          >
            {account.disabled ? __("Enable", DOMAIN) : __("Disable", DOMAIN)}
          </button>
        </div>
      )}
      <FormAlert
        id={errorId}
        message={error ? failureText(error) : undefined}
      />
      {stale && (
        <button
          type="button"
          class="gh-button gh-button-link"
          onClick={() => void client.invalidateQueries({ queryKey: USERS_KEY })}
        >
          {__("Reload list", DOMAIN)}
        </button>
      )}
      <FormStatus>{doneText(done.value)}</FormStatus>
    </li>
  );
}
