/**
 * `AuditLogScreen`: the audit log for administrators, as a table with
 * filters and pages.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { keepPreviousData, useQuery } from "@tanstack/preact-query";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { listAuditEvents } from "../admin_security_calls.ts";
import type { AuditEvent, AuditEventType } from "../security_types.ts";
import { deviceLabel } from "./_account_sessions.tsx";
import { EVENT_TYPES, eventDetail, eventLabel } from "./_audit_labels.ts";
import {
  describeFailure,
  FormProblems,
  type Problem,
} from "./_error_message.ts";
import { FormAlert, SelectField, TextField } from "./_field.tsx";
import { formatTime } from "./_format.ts";
import type { HeadingLevel } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_LIMITS, emailProblem } from "./_validation.ts";
import { AUDIT_KEY } from "./_security_keys.ts";
import { Pager, useCursorPages } from "./_cursor_pages.tsx";
import { ManagersScreen } from "./_managers_screen.tsx";
import { __, DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode AuditLogScreen}.
 *
 * @example One account's events, 50 a page
 * ```ts
 * import type { AuditLogScreenProps } from "@gatehouse/client/screens";
 *
 * const props: AuditLogScreenProps = {
 *   initialEmail: "grace@example.com",
 *   pageSize: 50,
 * };
 * ```
 */
export interface AuditLogScreenProps {
  /**
   * Start filtered by the account that has this address (as actor or
   * target), e.g. from the users screen's "Activity"; it fills the filter.
   */
  readonly initialEmail?: string;
  /**
   * Start filtered by this account's id instead (the filter's field stays
   * empty; filtering by an address replaces it). `initialEmail` wins.
   */
  readonly initialUserId?: string;
  /** Events per page; 25 by default (the server caps it at 100). */
  readonly pageSize?: number;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

/**
 * The audit log of those who may manage users (others see a short notice
 * and nothing is fetched): a table of time, event, who acted, the account
 * concerned and the client's address, newest first, filtered by account
 * (its email address) and by type, with pages. Every row names its
 * accounts: an event without a target account (an invitation, a failed
 * sign-in) names the address it concerns. Every type has words of its
 * own, translated. The server shows only the events within the reader's
 * reach.
 *
 * @param props `initialEmail` (or `initialUserId`), `pageSize` and `headingLevel`.
 * @returns The screen.
 *
 * @example A page of the app
 * ```tsx
 * import { AuditLogScreen } from "@gatehouse/client/screens";
 *
 * export const AuditPage = (props: { email?: string }) => (
 *   <AuditLogScreen initialEmail={props.email} />
 * );
 * ```
 */
export function AuditLogScreen(props: AuditLogScreenProps): VNode {
  useLocaleUpdates();
  return (
    <ManagersScreen
      screen="audit"
      title={__("Audit log", DOMAIN)}
      level={props.headingLevel}
      notice={__("Your account may not read the audit log.", DOMAIN)}
    >
      {() => (
        <AuditTable
          initialEmail={props.initialEmail?.trim() ?? ""}
          initialUserId={props.initialUserId?.trim() ?? ""}
          pageSize={props.pageSize ?? 25}
        />
      )}
    </ManagersScreen>
  );
}

function AuditTable(
  props: {
    readonly initialEmail: string;
    readonly initialUserId: string;
    readonly pageSize: number;
  },
): VNode {
  const id = useId();
  const email = useSignal(props.initialEmail);
  const type = useSignal("");
  // The filter as sent: an address, or (from `initialUserId` only) an id.
  const applied = useSignal({
    email: props.initialEmail,
    userId: props.initialEmail === "" ? props.initialUserId : "",
    type: "",
  });
  const pages = useCursorPages();
  const problem = useSignal<Problem | null>(null);
  const cursor = pages.cursor;
  const limit = props.pageSize;

  const page = useQuery({
    queryKey: [...AUDIT_KEY, { ...applied.value, cursor, limit }],
    queryFn: () => {
      const { email, userId, type } = applied.value;
      return listAuditEvents({
        limit,
        ...(cursor === null ? {} : { cursor }),
        ...(email === "" ? {} : { email }),
        ...(userId === "" ? {} : { userId }),
        ...(type === "" ? {} : { type: type as AuditEventType }),
      });
    },
    placeholderData: keepPreviousData,
  });

  const filter = (event: Event) => {
    event.preventDefault();
    const wanted = email.value.trim();
    // Empty is no filter; anything else must be an address, by the
    // server's rule, before it is sent.
    problem.value = wanted === "" ? null : emailProblem(wanted, DEFAULT_LIMITS);
    if (problem.value !== null) return;
    applied.value = { email: wanted, userId: "", type: type.value };
    pages.restart();
  };
  // A refusal of the address (the server's own check) shows at the field.
  const described = describeFailure(
    problem.value === null
      ? page.error
      : new FormProblems({ email: problem.value }),
    ["email"],
  );
  const events = page.data?.events ?? [];
  const hasNext = page.data?.nextCursor != null && !page.isPlaceholderData;

  return (
    <div class="gh-audit-table">
      <form
        role="search"
        class="gh-search gh-audit-filter"
        aria-label={__("Filter events", DOMAIN)}
        // The screen's own check and words, in the screen's language.
        noValidate
        onSubmit={filter}
      >
        <TextField
          id={`${id}-account`}
          name="email"
          type="email"
          autocomplete="off"
          label={__("Account email", DOMAIN)}
          value={email}
          error={described.fields.email}
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
      <FormAlert message={described.alert} />
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
                  <td>{actorText(event)}</td>
                  <td>{accountText(event)}</td>
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
      {page.data && (pages.number > 1 || hasNext) && (
        <Pager
          pages={pages}
          hasNext={hasNext}
          nextCursor={page.data.nextCursor}
        />
      )}
    </div>
  );
}

/** Who acted: an account's address, or a dash when none is known. */
function actorText(event: AuditEvent): string {
  return event.actor?.email ?? "—";
}

/**
 * The account concerned: the target's address or, for an event without a
 * target account, the address it concerns (the invited address, the one a
 * failed sign-in or a reset request typed), or that what was typed was
 * not an address.
 */
function accountText(event: AuditEvent): string {
  if (event.target?.email != null) return event.target.email;
  if (event.detail.email !== undefined) return event.detail.email;
  if (event.detail.email_invalid === "true") {
    return __("Not an email address", DOMAIN);
  }
  return "—";
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
