// "Recent activity" of the account panel: the account's own latest
// security events (sign-ins with device and address, password changes,
// sessions ended…), so a person can spot a sign-in they do not recognise.
// An administrator's action on the account says only that an
// administrator acted (the server names no one and gives no address); an
// action of the account's own on another account (an administrator's
// change, an invitation) names that account.

import { useQuery } from "@tanstack/preact-query";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { listActivity } from "../account_calls.ts";
import type { AuditEvent } from "../security_types.ts";
import { AccountSection } from "./_account_section.tsx";
import { deviceLabel } from "./_account_sessions.tsx";
import { eventDetail, eventLabel } from "./_audit_labels.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { formatTime } from "./_format.ts";
import { ACTIVITY_KEY } from "./_security_keys.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** How many events the panel shows. */
const LATEST = 10;

/** The recent-activity part of the account panel. */
export function AccountActivity(props: { readonly level: 2 | 3 }): VNode {
  const id = useId();
  const page = useQuery({
    queryKey: [...ACTIVITY_KEY, LATEST],
    queryFn: () => listActivity({ limit: LATEST }),
  });
  const events = page.data?.events ?? [];

  return (
    <AccountSection
      id={id}
      name="activity"
      level={props.level}
      title={__("Recent activity", DOMAIN)}
    >
      <FormAlert message={page.error ? failureText(page.error) : undefined} />
      {page.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading activity…", DOMAIN)}
        </p>
      )}
      {page.data && events.length === 0 && (
        <p class="gh-empty">{__("Nothing yet.", DOMAIN)}</p>
      )}
      {events.length > 0 && (
        <ul class="gh-list gh-activity-list">
          {events.map((event) => (
            <li key={event.id} class="gh-list-item" data-event={event.type}>
              <div class="gh-list-main">
                <span class="gh-list-name">
                  {eventLabel(event.type)}
                  {eventDetail(event) !== "" && (
                    <span class="gh-hint gh-event-detail">
                      {" "}
                      {eventDetail(event)}
                    </span>
                  )}
                </span>
                {
                  /* A space, so that the row reads "Signed in Nov 27" to a
                    screen reader or a copy, not "Signed inNov 27". */
                } <time dateTime={event.at}>{formatTime(event.at)}</time>
              </div>
              <ActivityFacts event={event} />
            </li>
          ))}
        </ul>
      )}
    </AccountSection>
  );
}

// Where an event came from: device and address, or that an administrator
// acted; first, the other account one's own action concerned.
function ActivityFacts(props: { readonly event: AuditEvent }): VNode {
  const { event } = props;
  const other = otherAccount(event);
  return (
    <p class="gh-list-facts">
      {other !== null && (
        <>
          {sprintf(__("Account: %s", DOMAIN), other)}
          {" · "}
        </>
      )}
      {byAdministrator(event) ? __("By an administrator", DOMAIN) : (
        <>
          {deviceLabel(event.userAgent)}
          {" · "}
          {event.ip || __("Unknown address", DOMAIN)}
        </>
      )}
    </p>
  );
}

// Another account acted on this one: the server leaves it unnamed.
function byAdministrator(event: AuditEvent): boolean {
  return event.actor !== null && event.actor.id === null;
}

// The account one's own action concerned, when it is not oneself: the
// target of an administrator's change, or the address of an invitation.
function otherAccount(event: AuditEvent): string | null {
  const actor = event.actor?.id ?? null;
  if (actor === null) return null;
  if (event.target === null) return event.detail.email ?? null;
  return event.target.id === actor ? null : event.target.email;
}
