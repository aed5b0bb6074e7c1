// "Recent activity" of the account panel: the account's own latest
// security events (sign-ins with device and address, password changes,
// sessions ended…), so a person can spot a sign-in they do not recognise.

import { useQuery } from "@tanstack/preact-query";
import { __ } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { listActivity } from "../account_calls.ts";
import { deviceLabel } from "./_account_sessions.tsx";
import { eventDetail, eventLabel } from "./_audit_labels.ts";
import { failureText } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { formatTime } from "./_format.ts";
import { ACTIVITY_KEY } from "./_security_keys.ts";
import { DOMAIN } from "./i18n.ts";

/** How many events the panel shows. */
const LATEST = 10;

/** The recent-activity part of the account panel. */
export function AccountActivity(props: { readonly level: 2 | 3 }): VNode {
  const id = useId();
  const page = useQuery({
    queryKey: [...ACTIVITY_KEY, LATEST],
    queryFn: () => listActivity({ limit: LATEST }),
  });
  const Heading = `h${props.level}` as "h2";
  const events = page.data?.events ?? [];

  return (
    <section class="gh-section gh-activity" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} class="gh-section-title">
        {__("Recent activity", DOMAIN)}
      </Heading>
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
                <time dateTime={event.at}>{formatTime(event.at)}</time>
              </div>
              <p class="gh-list-facts">
                {deviceLabel(event.userAgent)}
                {" · "}
                {event.ip || __("Unknown address", DOMAIN)}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
