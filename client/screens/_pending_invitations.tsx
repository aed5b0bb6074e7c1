// The pending invitations below the users table: who was invited, with
// which role, by whom and until when, each with "Revoke" (after a
// confirmation; its link then answers 410). After a revocation the row is gone,
// so focus moves to the section's heading and the outcome is shown (and
// announced) in the section's status. An invitation revoked by someone else
// or accepted meanwhile is no longer pending: the dialog says so, and its
// row leaves the same way when the dialog closes.

import { useSignal } from "@preact/signals";
import { useMutation, useQuery, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { listInvitations, revokeInvitation } from "../admin_calls.ts";
import { InvitationNotFoundError } from "../errors.ts";
import type { PendingInvitation } from "../types.ts";
import { Dialog } from "./_dialog.tsx";
import { useReauthentication } from "./_reauth.tsx";
import { failureText } from "./_error_message.ts";
import { FormAlert, FormStatus } from "./_field.tsx";
import { useFocusOnChange } from "./_focus.ts";
import { formatDay } from "./_format.ts";
import { ActionButton, type HeadingLevel, Title } from "./_form_parts.tsx";
import { roleLabel } from "./_roles.ts";
import { recheckSession } from "./_session_recheck.ts";
import { INVITATIONS_KEY } from "./_users_cache.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** The pending invitations section. */
export function PendingInvitations(
  props: { readonly level: HeadingLevel },
): VNode | null {
  const id = useId();
  const client = useQueryClient();
  const title = useRef<HTMLHeadingElement>(null);
  const news = useSignal("");
  const removed = useSignal(0);
  // The removed row (and the button that opened its dialog) is gone: focus
  // the section's heading instead.
  useFocusOnChange(title, removed.value);
  const list = useQuery({
    queryKey: INVITATIONS_KEY,
    queryFn: listInvitations,
    retry: false,
  });
  const invitations = list.data;
  // Takes the row out of the list at once; the list is read again behind it.
  const remove = (invitation: PendingInvitation) => {
    client.setQueryData<readonly PendingInvitation[]>(
      INVITATIONS_KEY,
      (all) => all?.filter((one) => one.id !== invitation.id),
    );
    void client.invalidateQueries({ queryKey: INVITATIONS_KEY });
    removed.value += 1;
  };

  return (
    <section
      class="gh-invitations"
      data-gh-part="invitations"
      aria-labelledby={`${id}-title`}
    >
      <Title id={`${id}-title`} level={props.level} target={title}>
        {__("Pending invitations", DOMAIN)}
      </Title>
      <FormStatus>{news.value && <p>{news.value}</p>}</FormStatus>
      <FormAlert
        message={list.error && !invitations
          ? failureText(list.error)
          : undefined}
      />
      {list.isPending && (
        <p class="gh-loading" role="status">
          {__("Loading invitations…", DOMAIN)}
        </p>
      )}
      {invitations && invitations.length === 0 && (
        <p class="gh-empty">{__("No pending invitations.", DOMAIN)}</p>
      )}
      {invitations && invitations.length > 0 && (
        <ul class="gh-invitation-list">
          {invitations.map((invitation) => (
            <InvitationItem
              key={invitation.id}
              invitation={invitation}
              onRevoked={() => {
                news.value = sprintf(
                  __("The invitation for %s is revoked.", DOMAIN),
                  invitation.email,
                );
                remove(invitation);
              }}
              onNoLongerPending={() => remove(invitation)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationItem(
  props: {
    readonly invitation: PendingInvitation;
    readonly onRevoked: () => void;
    /** Closing the dialog that said the invitation is no longer pending. */
    readonly onNoLongerPending: () => void;
  },
): VNode {
  const { invitation } = props;
  const client = useQueryClient();
  const button = useRef<HTMLButtonElement>(null);
  const open = useSignal(false);
  const reauth = useReauthentication();
  const revoke = useMutation({
    mutationFn: () => reauth.guard(() => revokeInvitation(invitation.id)),
    onSuccess: props.onRevoked,
    onError: (error) => recheckSession(client, error),
  });
  const by = invitation.invitedBy;
  // Revoked elsewhere or accepted: the row is out of date. It leaves when
  // the dialog closes, not at once: that would take the dialog saying why
  // away with it, before the person has read it.
  const stale = revoke.error instanceof InvitationNotFoundError;
  const close = () => {
    open.value = false;
    if (stale) props.onNoLongerPending();
  };

  return (
    <li class="gh-invitation" data-invitation-id={invitation.id}>
      <div class="gh-invitation-who">
        <span class="gh-invitation-name">{invitation.name}</span>
        <span class="gh-invitation-email">{invitation.email}</span>
      </div>
      <p class="gh-invitation-facts">
        {roleLabel(invitation.role)}
        {" · "}
        {by
          ? sprintf(__("Invited by %s", DOMAIN), by.name)
          : __("Invited", DOMAIN)}
        {" · "}
        {sprintf(__("Expires %s", DOMAIN), formatDay(invitation.expiresAt))}
      </p>
      <ActionButton
        buttonRef={button}
        variant="danger"
        label={sprintf(
          __("Revoke the invitation for %s", DOMAIN),
          invitation.email,
        )}
        onClick={() => {
          revoke.reset();
          open.value = true;
        }}
      >
        {__("Revoke", DOMAIN)}
      </ActionButton>
      {open.value && (
        <Dialog
          name="revoke"
          danger
          title={sprintf(
            __("Revoke the invitation for %s?", DOMAIN),
            invitation.email,
          )}
          confirm={__("Revoke invitation", DOMAIN)}
          busy={__("Revoking…", DOMAIN)}
          pending={revoke.isPending}
          alert={revoke.error ? failureText(revoke.error) : undefined}
          alertAction={stale && (
            <ActionButton variant="link" onClick={close}>
              {__("Reload list", DOMAIN)}
            </ActionButton>
          )}
          returnTo={button}
          onConfirm={() => revoke.mutate()}
          onCancel={close}
        >
          <p>
            {__(
              "Its link stops working at once. You can invite them again later.",
              DOMAIN,
            )}
          </p>
        </Dialog>
      )}
      {reauth.dialog}
    </li>
  );
}
