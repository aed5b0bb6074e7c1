/**
 * `InviteScreen`: an administrator invites a person by email; the person
 * chooses their own password through the activation link.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useMutation, useQueryClient } from "@tanstack/preact-query";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { invite } from "../admin_calls.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { InviteResult, NewInvitation } from "../types.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionButton,
  ActionLink,
  CancelButton,
  type HeadingLevel,
  PersonFields,
  RoleField,
  ScreenForm,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { useReauthentication } from "./_reauth.tsx";
import { NotAllowed } from "./_not_allowed.tsx";
import { INVITATIONS_KEY } from "./_users_cache.ts";
import {
  DEFAULT_LIMITS,
  emailProblem,
  nameProblem,
  problemsOf,
} from "./_validation.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/**
 * Props of {@linkcode InviteScreen}.
 *
 * @example Logging each invitation, with links back to the list
 * ```ts
 * import type { InviteScreenProps } from "@gatehouse/client/screens";
 *
 * const props: InviteScreenProps = {
 *   onInvited: (result) => console.log(result.delivered ? "mailed" : "link shown"),
 *   invitationsHref: "/users#invitations",
 *   cancelHref: "/users",
 * };
 * ```
 */
export interface InviteScreenProps {
  /** Called with the server's answer once the invitation is made. */
  readonly onInvited?: (result: InviteResult) => void;
  /** Shows a "Cancel" button that calls it. */
  readonly onCancel?: () => void;
  /** Shows "Cancel" as a link to this address (with `onCancel`, a click calls that instead). */
  readonly cancelHref?: string;
  /** Where the confirmation's "Show pending invitations" link leads. */
  readonly invitationsHref?: string;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["name", "email", "role"] as const;

type Copy = "idle" | "copied" | "failed";

/**
 * The invitation form: name, email and a role from the signed-in account's
 * `grantable` list. No password is typed: the server mails an activation
 * link, or, when it has no mail set up, hands the link back and the screen
 * shows it read-only with a "Copy link" button. Both answers read the same
 * whether the address already had an account or not; the confirmation takes
 * the focus and links to the pending invitations (`invitationsHref`). Every
 * problem of the form shows at once, next to its field. Only for those who
 * may manage users (`can(user, USERS_MANAGE)`). Put it below `AuthGate`.
 *
 * @param props Optional `onInvited`, `onCancel`, `cancelHref`, `invitationsHref` and `headingLevel`.
 * @returns The screen.
 *
 * @example A page of its own
 * ```tsx
 * import { InviteScreen } from "@gatehouse/client/screens";
 *
 * export const InvitePage = () => <InviteScreen cancelHref="/users" invitationsHref="/users" />;
 * ```
 */
export function InviteScreen(props: InviteScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const user = useSession();
  const client = useQueryClient();
  const email = useSignal("");
  const name = useSignal("");
  const role = useSignal("");
  const sent = useSignal<{ email: string; result: InviteResult } | null>(null);
  const link = useSignal("");
  const copy = useSignal<Copy>("idle");
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  const reauth = useReauthentication();
  const send = useMutation({
    mutationFn: (input: Parameters<typeof invite>[0]) =>
      reauth.guard(() => invite(input)),
  });
  const described = describeFailure(form.failure.value, FIELDS);
  const grantable = user?.grantable;
  const answer = sent.value;
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, answer ?? "form");

  if (!can(user, USERS_MANAGE)) {
    return <NotAllowed screen="invite" level={props.headingLevel} />;
  }

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({
      name: nameProblem(name.value, DEFAULT_LIMITS),
      email: emailProblem(email.value, DEFAULT_LIMITS),
    });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const invitation: NewInvitation = {
        email: email.value.trim(),
        name: name.value.trim(),
        ...(grantable === undefined ? {} : { role: role.value }),
      };
      const result = await send.mutateAsync(invitation);
      link.value = result.delivered ? "" : result.activationLink;
      copy.value = "idle";
      sent.value = { email: invitation.email, result };
      void client.invalidateQueries({ queryKey: INVITATIONS_KEY });
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
      data-gh-state={answer ? "sent" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {answer === null
            ? __("Invite someone", DOMAIN)
            : answer.result.delivered
            ? __("Invitation sent", DOMAIN)
            : __("Invitation link ready", DOMAIN)}
        </Title>
        {answer
          ? (
            <div
              class="gh-invite-result"
              data-gh-delivered={String(answer.result.delivered)}
            >
              <p class="gh-status" role="status">
                {answer.result.delivered
                  ? sprintf(
                    __("Invitation sent to %s.", DOMAIN),
                    answer.email,
                  )
                  : sprintf(
                    __(
                      "This server does not send mail. Give this activation link to %s yourself.",
                      DOMAIN,
                    ),
                    answer.email,
                  )}
              </p>
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
                  <div class="gh-actions">
                    <ActionButton onClick={() => void copyLink()}>
                      {__("Copy link", DOMAIN)}
                    </ActionButton>
                    <p class="gh-copy-status" role="status">
                      {copy.value === "copied" && __("Link copied.", DOMAIN)}
                      {copy.value === "failed" &&
                        __(
                          "The link could not be copied. Select it and copy it yourself.",
                          DOMAIN,
                        )}
                    </p>
                  </div>
                </div>
              )}
              <div class="gh-actions">
                <ActionButton variant="primary" onClick={again}>
                  {__("Invite someone else", DOMAIN)}
                </ActionButton>
                {props.invitationsHref && (
                  <ActionLink href={props.invitationsHref} variant="secondary">
                    {__("Show pending invitations", DOMAIN)}
                  </ActionLink>
                )}
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
              <PersonFields
                id={id}
                name={name}
                email={email}
                errors={described.fields}
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
                <CancelButton
                  onCancel={props.onCancel}
                  href={props.cancelHref}
                />
              </div>
            </ScreenForm>
          )}
      </div>
      {reauth.dialog}
    </section>
  );
}
