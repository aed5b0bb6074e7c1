/**
 * `AuditLogScreen`: the audit log for administrators, as a table with
 * filters and pages.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { keepPreviousData, useQuery } from "@tanstack/preact-query";
import { __ } from "@wordpress/i18n";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { listAuditEvents } from "../admin_security_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { AuditEvent, AuditEventType } from "../security_types.ts";
import { deviceLabel } from "./_account_sessions.tsx";
import { EVENT_TYPES, eventDetail, eventLabel } from "./_audit_labels.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert, SelectField, TextField } from "./_field.tsx";
import { useFocusWhenSwappedIn } from "./_focus.ts";
import { formatTime } from "./_format.ts";
import { ActionButton, type HeadingLevel, Title } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { AUDIT_KEY } from "./_security_keys.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode AuditLogScreen}.
 *
 * @example One account's events, 50 a page
 * ```ts
 * import type { AuditLogScreenProps } from "@gatehouse/client/screens";
 *
 * const props: AuditLogScreenProps = {
 *   initialUserId: "0190f0a0-0000-7000-8000-000000000002",
 *   pageSize: 50,
 * };
 * ```
 */
export interface AuditLogScreenProps {
  /** Start filtered by this account (as actor or target), e.g. from the users screen's "Activity". */
  readonly initialUserId?: string;
  /** Events per page; 25 by default (the server caps it at 100). */
  readonly pageSize?: number;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The audit log of those who may manage users (others see a short notice
 * and nothing is fetched): a table of time, event, actor, target and
 * address, newest first, filtered by account (its id, as the users
 * screen's "Activity" gives it) and by type, with pages. Every type has
 * words of its own, translated.
 *
 * @param props `initialUserId`, `pageSize` and `headingLevel`.
 * @returns The screen.
 *
 * @example A page of the app
 * ```tsx
 * import { AuditLogScreen } from "@gatehouse/client/screens";
 *
 * export const AuditPage = (props: { userId?: string }) => (
 *   <AuditLogScreen initialUserId={props.userId} />
 * );
 * ```
 */
export function AuditLogScreen(props: AuditLogScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const title = useRef<HTMLHeadingElement>(null);
  const manage = user !== null && can(user, USERS_MANAGE);
  useFocusWhenSwappedIn(title);

  return (
    <section
      class="gh gh-screen gh-audit"
      data-gh-screen="audit"
      data-gh-state={manage ? undefined : "not-allowed"}
      aria-labelledby={`${id}-title`}
    >
      <header class="gh-header">
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {__("Audit log", DOMAIN)}
        </Title>
      </header>
      {manage
        ? (
          <AuditTable
            initialUserId={props.initialUserId ?? ""}
            pageSize={props.pageSize ?? 25}
          />
        )
        : (
          <p class="gh-notice">
            {__("Your account may not read the audit log.", DOMAIN)}
          </p>
        )}
    </section>
  );
}

function AuditTable(
  props: { readonly initialUserId: string; readonly pageSize: number },
): VNode {
  const id = useId();
  const account = useSignal(props.initialUserId);
  const type = useSignal("");
  const applied = useSignal({ userId: props.initialUserId.trim(), type: "" });
  const cursors = useSignal<readonly (string | null)[]>([null]);
  const invalid = useSignal(false);
  const cursor = cursors.value[cursors.value.length - 1] ?? null;
  const { userId } = applied.value;
  const limit = props.pageSize;

  const page = useQuery({
    queryKey: [...AUDIT_KEY, { ...applied.value, cursor, limit }],
    queryFn: () =>
      listAuditEvents({
        limit,
        ...(cursor === null ? {} : { cursor }),
        ...(userId === "" ? {} : { userId }),
        ...(applied.value.type === ""
          ? {}
          : { type: applied.value.type as AuditEventType }),
      }),
    placeholderData: keepPreviousData,
  });

  const filter = (event: Event) => {
    event.preventDefault();
    const wanted = account.value.trim();
    invalid.value = wanted !== "" && !UUID.test(wanted);
    if (invalid.value) return;
    applied.value = { userId: wanted, type: type.value };
    cursors.value = [null];
  };
  const events = page.data?.events ?? [];
  const hasNext = page.data?.nextCursor != null && !page.isPlaceholderData;
  const who = (a: AuditEvent["actor"]) => a?.email ?? "—";

  return (
    <div class="gh-audit-table">
      <form
        role="search"
        class="gh-search gh-audit-filter"
        aria-label={__("Filter events", DOMAIN)}
        onSubmit={filter}
      >
        <TextField
          id={`${id}-account`}
          name="user_id"
          label={__("Account ID", DOMAIN)}
          value={account}
          error={invalid.value
            ? __(
              "Enter the ID of an account, as the users screen shows it.",
              DOMAIN,
            )
            : undefined}
        />
        <SelectField
          id={`${id}-type`}
          name="type"
          label={__("Event", DOMAIN)}
          value={type.value}
          onChange={(value) => (type.value = value)}
          choices={[
            { value: "", label: __("All events", DOMAIN) },
            ...EVENT_TYPES.map((t) => ({ value: t, label: eventLabel(t) })),
          ]}
        />
        <button type="submit" class="gh-button gh-button-secondary">
          {__("Filter", DOMAIN)}
        </button>
      </form>
      <FormAlert message={page.error ? failureText(page.error) : undefined} />
      {page.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading events…", DOMAIN)}
        </p>
      )}
      <p class="gh-summary" role="status">
        {page.data && events.length === 0 ? __("No events match.", DOMAIN) : ""}
      </p>
      {events.length > 0 && (
        <div class="gh-table-frame">
          <table
            class="gh-table"
            aria-labelledby={`${id}-caption`}
            aria-busy={page.isFetching ? "true" : "false"}
          >
            <caption id={`${id}-caption`} class="gh-visually-hidden">
              {__("Events, newest first", DOMAIN)}
            </caption>
            <thead>
              <tr>
                <th scope="col">{__("Time", DOMAIN)}</th>
                <th scope="col">{__("Event", DOMAIN)}</th>
                <th scope="col">{__("By", DOMAIN)}</th>
                <th scope="col">{__("Account", DOMAIN)}</th>
                <th scope="col">{__("Address", DOMAIN)}</th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} class="gh-row" data-event={event.type}>
                  <td>
                    <time dateTime={event.at}>{formatTime(event.at)}</time>
                  </td>
                  <th scope="row">
                    {eventLabel(event.type)}
                    <EventDetail event={event} />
                  </th>
                  <td>{who(event.actor)}</td>
                  <td>{who(event.target)}</td>
                  <td>
                    {event.ip || __("Unknown address", DOMAIN)}
                    <span class="gh-hint">
                      {" "}
                      {deviceLabel(event.userAgent)}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page.data && (cursors.value.length > 1 || hasNext) && (
        <nav class="gh-pager" aria-label={__("Pages", DOMAIN)}>
          <ActionButton
            pending={cursors.value.length === 1}
            onClick={() => (cursors.value = cursors.value.slice(0, -1))}
          >
            {__("Previous page", DOMAIN)}
          </ActionButton>
          <ActionButton
            pending={!hasNext}
            onClick={() => {
              const next = page.data?.nextCursor;
              if (next != null) {
                cursors.value = [...cursors.value, next];
              }
            }}
          >
            {__("Next page", DOMAIN)}
          </ActionButton>
        </nav>
      )}
    </div>
  );
}

/** An event's detail under its label, when it has one. */
function EventDetail(props: { readonly event: AuditEvent }): VNode | null {
  const detail = eventDetail(props.event);
  return detail === ""
    ? null
    // The space keeps the label and the detail apart in the text a screen
    // reader (and a copy) gets; a template, as fmt trims a bare leading space.
    : <span class="gh-hint gh-event-detail">{` ${detail}`}</span>;
}
