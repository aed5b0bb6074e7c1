/**
 * `SetPasswordScreen`: the page an activation link opens; the invited person
 * chooses a password and is signed in.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useQueryClient } from "@tanstack/preact-query";
import { __, sprintf } from "@wordpress/i18n";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { acceptInvite } from "../link_calls.ts";
import { InvalidTokenError } from "../errors.ts";
import { adoptSession } from "../query.ts";
import type { SessionUser } from "../types.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  Brand,
  type HeadingLevel,
  NewPasswordFields,
  ScreenForm,
  SignInFooter,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_MIN_PASSWORD, passwordProblems } from "./_password.ts";
import { limitsWith } from "./_validation.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode SetPasswordScreen}.
 *
 * @example The token from the link's fragment
 * ```ts
 * import type { SetPasswordScreenProps } from "@gatehouse/client/screens";
 *
 * function propsFor(hash: string): SetPasswordScreenProps {
 *   return {
 *     brand: "Acme",
 *     token: new URLSearchParams(hash.slice(1)).get("token") ?? "",
 *     onAccepted: () => location.assign("/"),
 *   };
 * }
 * console.assert(propsFor("#token=abc").token === "abc");
 * ```
 */
export interface SetPasswordScreenProps {
  /** The product name ("Welcome to Acme"). */
  readonly brand: string;
  /** The token of the activation link (`#token=...`); empty shows the dead-link message. */
  readonly token: string;
  /** Called with the signed-in account once the password is set (the session is already in the cache). */
  readonly onAccepted: (user: SessionUser) => void;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
  /** Shows "Back to sign in" as a link to this address (for those whose link was already used). */
  readonly signInHref?: string;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["password", "confirm"] as const;

/**
 * The activation page: a new password, typed twice. On success the person
 * is signed in: the screen installs the account in the query client's cache
 * (`adoptSession`, which also clears anything a previous account left) and
 * calls `onAccepted(user)`. A spent, expired or unknown link says the link is
 * no longer valid and to ask for a new invitation. Any other failure (a
 * refused password, no answer, a server error) keeps the form with a "Try
 * again" button: the link's token is spent only when the server accepts it,
 * so a retry uses the same link. Needs a `QueryClientProvider` (a client
 * from `createAuthQueryClient()`); it does no routing itself.
 *
 * @param props `brand`, `token`, `onAccepted` and optional `passwordMinLength`.
 * @returns The screen.
 *
 * @example The invitation page of an app
 * ```tsx
 * import { createAuthQueryClient } from "@gatehouse/client";
 * import { SetPasswordScreen } from "@gatehouse/client/screens";
 * import { QueryClientProvider } from "@tanstack/preact-query";
 *
 * const client = createAuthQueryClient();
 * export const InvitePage = (props: { token: string }) => (
 *   <QueryClientProvider client={client}>
 *     <SetPasswordScreen brand="Acme" token={props.token} onAccepted={() => location.assign("/")} />
 *   </QueryClientProvider>
 * );
 * ```
 */
export function SetPasswordScreen(props: SetPasswordScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const client = useQueryClient();
  const password = useSignal("");
  const confirm = useSignal("");
  const dead = useSignal(false);
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  const failure = form.failure.value;
  const limits = limitsWith(props.passwordMinLength ?? DEFAULT_MIN_PASSWORD);
  const described = describeFailure(failure, FIELDS, limits);
  const invalid = dead.value || props.token === "";
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, invalid);

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = passwordProblems(password.value, confirm.value, limits);
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      let user: SessionUser;
      try {
        user = await acceptInvite(props.token, password.value);
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) throw error;
        dead.value = true;
        return;
      }
      adoptSession(client, user);
      props.onAccepted(user);
    });
  };

  // After a failure that is not about the password, the same link is tried again.
  const retry = failure !== null && described.alert !== undefined;

  return (
    <section
      class="gh gh-screen gh-set-password"
      data-gh-screen="set-password"
      data-gh-state={invalid ? "invalid-link" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Brand brand={props.brand} />
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {invalid
            ? __("This invitation link is no longer valid", DOMAIN)
            : sprintf(__("Welcome to %s", DOMAIN), props.brand)}
        </Title>
        {invalid
          ? (
            <div class="gh-alert" role="alert">
              <p>
                {__(
                  "It has been used already, or it has expired. Ask the person who invited you to send a new invitation.",
                  DOMAIN,
                )}
              </p>
            </div>
          )
          : (
            <ScreenForm form={form} onSubmit={submit}>
              <p class="gh-intro">
                {__(
                  "Choose a password to finish setting up your account.",
                  DOMAIN,
                )}
              </p>
              <FormAlert message={described.alert} />
              <NewPasswordFields
                id={id}
                min={limits.passwordMin}
                password={password}
                confirm={confirm}
                errors={described.fields}
              />
              <div class="gh-actions">
                <SubmitButton
                  pending={form.pending.value}
                  label={retry
                    ? __("Try again", DOMAIN)
                    : __("Set password and sign in", DOMAIN)}
                  busyLabel={__("Setting password…", DOMAIN)}
                />
              </div>
            </ScreenForm>
          )}
        {invalid && <SignInFooter href={props.signInHref} />}
      </div>
    </section>
  );
}
