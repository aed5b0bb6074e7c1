/**
 * `InviteScreen`: an administrator invites a person by email; the person
 * chooses their own password through the activation link.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useMutation } from "@tanstack/preact-query";
import { __, sprintf } from "@wordpress/i18n";
import { useId, useLayoutEffect, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { invite } from "../admin_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { Invitation, InviteResult } from "../types.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { missing, useForm } from "./_form.ts";
import {
  CancelButton,
  RoleField,
  ScreenForm,
  SubmitButton,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode InviteScreen}.
 *
 * @example Logging each invitation
 * ```ts
 * import type { InviteScreenProps } from "@gatehouse/client/screens";
 *
 * const props: InviteScreenProps = {
 *   onInvited: (result) => console.log(result.delivered ? "mailed" : "link shown"),
 * };
 * ```
 */
export interface InviteScreenProps {
  /** Called with the server's answer once the invitation is made. */
  readonly onInvited?: (result: InviteResult) => void;
  /** Shows a "Cancel" button that calls it. */
  readonly onCancel?: () => void;
}

const FIELDS = ["name", "email", "role"] as const;

type Copy = "idle" | "copied" | "failed";

/**
 * The invitation form: email, name and a role from the signed-in account's
 * `grantable` list. No password is typed: the server mails an activation
 * link, or, when it has no mail set up, hands the link back and the screen
 * shows it read-only with a "Copy link" button. Both answers read the same
 * whether the address already had an account or not. Refusals show next to
 * their field. Only for those who may manage users
 * (`can(user, USERS_MANAGE)`). Put it below `AuthGate`.
 *
 * @param props Optional `onInvited` and `onCancel`.
 * @returns The screen.
 *
 * @example A page of its own
 * ```tsx
 * import { InviteScreen } from "@gatehouse/client/screens";
 *
 * export const InvitePage = () => <InviteScreen onCancel={() => location.assign("/users")} />;
 * ```
 */
export function InviteScreen(props: InviteScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const email = useSignal("");
  const name = useSignal("");
  const role = useSignal("");
  const sent = useSignal<{ email: string; result: InviteResult } | null>(null);
  const link = useSignal("");
  const copy = useSignal<Copy>("idle");
  const form = useForm();
  const send = useMutation({ mutationFn: invite });
  const resultRef = useRef<HTMLDivElement>(null);
  const described = describeFailure(form.failure.value, FIELDS);
  const grantable = user?.grantable;
  const answer = sent.value;

  // The form gives way to the answer: take focus there, not to the page.
  useLayoutEffect(() => {
    if (answer) resultRef.current?.focus();
  }, [answer]);

  if (!can(user, USERS_MANAGE)) {
    return (
      <section class="gh gh-screen gh-invite" data-gh-screen="invite">
        <p class="gh-notice">
          {__("Your account may not manage users.", DOMAIN)}
        </p>
      </section>
    );
  }

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = missing({ email: email.value, name: name.value });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const invitation: Invitation = {
        email: email.value.trim(),
        name: name.value.trim(),
        ...(grantable === undefined ? {} : { role: role.value }),
      };
      const result = await send.mutateAsync(invitation);
      link.value = result.delivered ? "" : result.activationLink;
      copy.value = "idle";
      sent.value = { email: invitation.email, result };
      props.onInvited?.(result);
    });
  };

  const copyLink = async () => {
    try {
      await navigator.clipboard.writeText(link.value);
      copy.value = "copied";
    } catch {
      copy.value = "failed";
      const input = document.getElementById(`${id}-link`);
      if (input instanceof HTMLInputElement) {
        input.focus();
        input.select();
      }
    }
  };

  const again = () => {
    sent.value = null;
    email.value =
      name.value =
      role.value =
      link.value =
        "";
  };

  return (
    <section
      class="gh gh-screen gh-invite"
      data-gh-screen="invite"
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} class="gh-title">
        {__("Invite someone", DOMAIN)}
      </h2>
      <FormStatus>
        {answer && (answer.result.delivered
          ? sprintf(__("Invitation sent to %s.", DOMAIN), answer.email)
          : sprintf(
            __(
              "This server does not send mail. Give this activation link to %s yourself.",
              DOMAIN,
            ),
            answer.email,
          ))}
      </FormStatus>
      {answer
        ? (
          <div
            ref={resultRef}
            class="gh-invite-result"
            tabIndex={-1}
            data-gh-delivered={String(answer.result.delivered)}
          >
            {!answer.result.delivered && (
              <div class="gh-copy">
                <TextField
                  id={`${id}-link`}
                  name="activation_link"
                  type="url"
                  label={__("Activation link", DOMAIN)}
                  hint={__(
                    "It works once. Whoever has it can set the password of this account.",
                    DOMAIN,
                  )}
                  value={link}
                  readOnly
                />
                <button
                  type="button"
                  class="gh-button gh-button-secondary"
                  onClick={() => void copyLink()}
                >
                  {__("Copy link", DOMAIN)}
                </button>
                <p class="gh-copy-status" role="status">
                  {copy.value === "copied" && __("Link copied.", DOMAIN)}
                  {copy.value === "failed" &&
                    __(
                      "The link could not be copied. Select it and copy it yourself.",
                      DOMAIN,
                    )}
                </p>
              </div>
            )}
            <div class="gh-actions">
              <button
                type="button"
                class="gh-button gh-button-primary"
                onClick={again}
              >
                {__("Invite someone else", DOMAIN)}
              </button>
            </div>
          </div>
        )
        : (
          <ScreenForm form={form} onSubmit={submit}>
            <p class="gh-intro">
              {__(
                "They will get a link to choose their own password.",
                DOMAIN,
              )}
            </p>
            <FormAlert message={described.alert} />
            <TextField
              id={`${id}-email`}
              name="email"
              type="email"
              autocomplete="off"
              label={__("Email", DOMAIN)}
              value={email}
              error={described.fields.email}
            />
            <TextField
              id={`${id}-name`}
              name="name"
              autocomplete="off"
              label={__("Name", DOMAIN)}
              value={name}
              error={described.fields.name}
            />
            <RoleField
              id={`${id}-role`}
              grantable={grantable}
              role={role}
              error={described.fields.role}
            />
            <div class="gh-actions">
              <SubmitButton
                pending={form.pending.value}
                label={__("Send invitation", DOMAIN)}
                busyLabel={__("Sending invitation…", DOMAIN)}
              />
              <CancelButton onCancel={props.onCancel} />
            </div>
          </ScreenForm>
        )}
    </section>
  );
}
