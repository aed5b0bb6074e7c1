// "Where you are signed in" of the account panel: each live session with
// its device, address, start and last use; this browser's is marked and
// has no "End" (that is "Sign out"); "Sign out everywhere else" ends the
// rest after a confirmation.

import { useSignal } from "@preact/signals";
import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import {
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from "../account_calls.ts";
import type { AccountSession } from "../security_types.ts";
import { AccountSection } from "./_account_section.tsx";
import { Dialog } from "./_dialog.tsx";
import { failureText } from "./_error_message.ts";
import { FormAlert, FormStatus } from "./_field.tsx";
import { browserLabel, formatTime } from "./_format.ts";
import { ActionButton } from "./_form_parts.tsx";
import { SESSIONS_KEY } from "./_security_keys.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** The device of a session (or an event), in words of the screens' language. */
export function deviceLabel(userAgent: string): string {
  return userAgent === ""
    ? __("Unknown device", DOMAIN)
    : browserLabel(userAgent);
}

/** The sessions part of the account panel. */
export function AccountSessions(props: { readonly level: 2 | 3 }): VNode {
  const id = useId();
  const client = useQueryClient();
  const news = useSignal("");
  const confirming = useSignal(false);
  const others = useRef<HTMLButtonElement>(null);
  const list = useQuery({ queryKey: SESSIONS_KEY, queryFn: listSessions });
  const refresh = () =>
    void client.invalidateQueries({ queryKey: SESSIONS_KEY });
  const endOne = useMutation({
    mutationFn: (session: AccountSession) => revokeSession(session.id),
    onSuccess: (_, session) => {
      news.value = sprintf(
        __("The session on %s has ended.", DOMAIN),
        deviceLabel(session.userAgent),
      );
      refresh();
    },
  });
  const endOthers = useMutation({
    mutationFn: revokeOtherSessions,
    onSuccess: () => {
      confirming.value = false;
      news.value = __("Every other session has ended.", DOMAIN);
      refresh();
    },
  });
  const sessions = list.data ?? [];
  const hasOthers = sessions.some((s) => !s.current);

  return (
    <AccountSection
      id={id}
      name="sessions"
      level={props.level}
      title={__("Where you are signed in", DOMAIN)}
    >
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      <FormAlert
        message={list.error
          ? failureText(list.error)
          : endOne.error
          ? failureText(endOne.error)
          : undefined}
      />
      {list.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading sessions…", DOMAIN)}
        </p>
      )}
      {sessions.length > 0 && (
        <ul class="gh-list gh-session-list">
          {sessions.map((session) => (
            <li
              key={session.id}
              class="gh-list-item"
              data-session-id={session.id}
            >
              <div class="gh-list-main">
                <span class="gh-list-name">
                  {deviceLabel(session.userAgent)}
                </span>
                {session.current && (
                  <span class="gh-badge gh-badge-active">
                    {__("This device", DOMAIN)}
                  </span>
                )}
              </div>
              <p class="gh-list-facts">
                {session.ip || __("Unknown address", DOMAIN)}
                {" · "}
                {sprintf(
                  __("Signed in %s", DOMAIN),
                  formatTime(session.createdAt),
                )}
                {session.via && (
                  <>
                    {" · "}
                    {sprintf(
                      /* translators: %s: a single sign-on provider's name. */
                      __("Through %s", DOMAIN),
                      session.via,
                    )}
                  </>
                )}
                {" · "}
                {sprintf(
                  __("Last seen %s", DOMAIN),
                  formatTime(session.lastSeenAt),
                )}
              </p>
              {!session.current && (
                <ActionButton
                  variant="danger"
                  pending={endOne.isPending}
                  label={sprintf(
                    __("End the session on %s", DOMAIN),
                    deviceLabel(session.userAgent),
                  )}
                  onClick={() => endOne.mutate(session)}
                >
                  {__("End", DOMAIN)}
                </ActionButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {hasOthers && (
        <div class="gh-actions">
          <ActionButton
            buttonRef={others}
            variant="danger"
            onClick={() => {
              endOthers.reset();
              confirming.value = true;
            }}
          >
            {__("Sign out everywhere else", DOMAIN)}
          </ActionButton>
        </div>
      )}
      {confirming.value && (
        <Dialog
          name="end-other-sessions"
          danger
          title={__("Sign out everywhere else?", DOMAIN)}
          confirm={__("Sign out everywhere else", DOMAIN)}
          busy={__("Signing out…", DOMAIN)}
          pending={endOthers.isPending}
          alert={endOthers.error ? failureText(endOthers.error) : undefined}
          returnTo={others}
          onConfirm={() => endOthers.mutate()}
          onCancel={() => (confirming.value = false)}
        >
          <p>
            {__(
              "Every other browser and device signed in to your account is signed out now. This one stays signed in.",
              DOMAIN,
            )}
          </p>
        </Dialog>
      )}
    </AccountSection>
  );
}
