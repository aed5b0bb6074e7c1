// The table of UsersScreen: search, order, pages, rows and the status line
// that announces what changed (matches of a search, the page, a row's
// outcome). Focus stays where the person acted: paging buttons are never
// `disabled` (only `aria-disabled`), so pressing "Next page" again is one
// key away.

import { useSignal } from "@preact/signals";
import {
  keepPreviousData,
  useQuery,
  useQueryClient,
} from "@tanstack/preact-query";
import { useEffect, useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import type { SessionUser, User, UserSort } from "../types.ts";
import { AccountRow } from "./_account_row.tsx";
import { failureText } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { ActionButton } from "./_form_parts.tsx";
import { Pager, useCursorPages } from "./_cursor_pages.tsx";
import { recheckSession } from "./_session_recheck.ts";
import { listUsersPage } from "./_users_api.ts";
import { USERS_KEY } from "./_users_cache.ts";
import { __, _n, DOMAIN, sprintf } from "./i18n.ts";

/** Props of {@linkcode UsersTable}. */
export interface UsersTableProps {
  readonly actor: SessionUser;
  readonly pageSize: number;
  readonly initialSearch: string;
  readonly onShowActivity?: ((account: User) => void) | undefined;
}

type Field = "name" | "email" | "created";

/** The accounts table with its search and pager. */
export function UsersTable(props: UsersTableProps): VNode {
  const id = useId();
  const client = useQueryClient();
  const search = useSignal(props.initialSearch);
  const q = useSignal(props.initialSearch.trim());
  const sort = useSignal<UserSort>("created");
  const pages = useCursorPages();
  const news = useSignal("");
  const problem = useSignal("");
  const cursor = pages.cursor;
  const applied = q.value;
  const limit = props.pageSize;

  const list = useQuery({
    queryKey: [...USERS_KEY, { q: applied, cursor, limit, sort: sort.value }],
    queryFn: () =>
      listUsersPage({
        limit,
        sort: sort.value,
        ...(applied === "" ? {} : { q: applied }),
        ...(cursor === null ? {} : { cursor }),
      }),
    placeholderData: keepPreviousData,
  });
  const page = list.data;
  const error = list.error;
  useEffect(() => recheckSession(client, error), [error]);

  const pageNumber = pages.number;
  const total = page?.total ?? null;
  const pageCount = total === null
    ? null
    : Math.max(1, Math.ceil(total / limit));
  const hasNext = page?.nextCursor != null && !list.isPlaceholderData;
  const sortable = page?.sorted ?? true;

  const restart = () => {
    pages.restart();
    news.value = problem.value = "";
  };
  const submitSearch = (event: Event) => {
    event.preventDefault();
    q.value = search.value.trim();
    restart();
  };
  const orderBy = (field: Field) => {
    sort.value = sort.value === field ? `-${field}` as UserSort : field;
    restart();
  };

  const summary = page === undefined
    ? ""
    : page.users.length === 0
    ? (applied === ""
      ? __("No accounts yet.", DOMAIN)
      : __("No accounts match your search.", DOMAIN))
    : total === null
    ? ""
    : applied === ""
    ? sprintf(_n("%d account", "%d accounts", total, DOMAIN), total)
    : sprintf(
      _n(
        "%d account matches your search.",
        "%d accounts match your search.",
        total,
        DOMAIN,
      ),
      total,
    );
  const pageText = pageCount === null
    ? sprintf(__("Page %d", DOMAIN), pageNumber)
    : sprintf(__("Page %1$d of %2$d", DOMAIN), pageNumber, pageCount);

  const header = (field: Field, label: string, cls: string) => {
    const direction = sort.value === field
      ? "ascending"
      : sort.value === `-${field}`
      ? "descending"
      : undefined;
    return (
      <th scope="col" class={cls} aria-sort={sortable ? direction : undefined}>
        {sortable
          ? (
            <button
              type="button"
              class="gh-sort"
              data-gh-sort={field}
              onClick={() => orderBy(field)}
            >
              {label}
              <span class="gh-sort-mark" aria-hidden="true">
                {direction === "ascending"
                  ? "▲"
                  : direction === "descending"
                  ? "▼"
                  : ""}
              </span>
            </button>
          )
          : label}
      </th>
    );
  };

  return (
    <div class="gh-users-table">
      <div class="gh-toolbar">
        <form
          role="search"
          class="gh-search"
          aria-label={__("Accounts", DOMAIN)}
          onSubmit={submitSearch}
        >
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
        <p class="gh-summary" role="status" data-gh-summary>
          {summary}
        </p>
      </div>
      <FormAlert message={error && !page ? failureText(error) : undefined} />
      {error && !page && (
        <div class="gh-actions">
          <ActionButton onClick={() => void list.refetch()}>
            {__("Try again", DOMAIN)}
          </ActionButton>
        </div>
      )}
      {list.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading accounts…", DOMAIN)}
        </p>
      )}
      <FormAlert message={problem.value || undefined} />
      {
        /* Seen as well as heard: a role change or "sign out everywhere"
          leaves the row looking the same, so the outcome is written out. */
      }
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      {page && page.users.length > 0 && (
        <div class="gh-table-frame">
          <table
            class="gh-table"
            aria-labelledby={`${id}-caption`}
            aria-busy={list.isFetching ? "true" : "false"}
          >
            <caption id={`${id}-caption`} class="gh-visually-hidden">
              {__("Accounts", DOMAIN)}
            </caption>
            <thead>
              <tr>
                {header("name", __("Name", DOMAIN), "gh-col-name")}
                {header("email", __("Email", DOMAIN), "gh-col-email")}
                <th scope="col" class="gh-col-role">{__("Role", DOMAIN)}</th>
                <th scope="col" class="gh-col-status">
                  {__("Status", DOMAIN)}
                </th>
                {header("created", __("Created", DOMAIN), "gh-col-created")}
                <th scope="col" class="gh-col-actions">
                  <span class="gh-visually-hidden">
                    {__("Actions", DOMAIN)}
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.users.map((account) => (
                <AccountRow
                  key={account.id}
                  account={account}
                  actor={props.actor}
                  onShowActivity={props.onShowActivity}
                  announce={(message) => {
                    problem.value = "";
                    news.value = message;
                  }}
                  fail={(message) => {
                    news.value = "";
                    problem.value = message;
                  }}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && (pageNumber > 1 || page.nextCursor !== null) && (
        <Pager pages={pages} hasNext={hasNext} nextCursor={page.nextCursor}>
          <span class="gh-page-number" role="status">{pageText}</span>
        </Pager>
      )}
    </div>
  );
}
