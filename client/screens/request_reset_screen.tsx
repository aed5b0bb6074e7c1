/**
 * `RequestResetScreen`: asks for a password-reset link by mail.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { __ } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { requestPasswordReset } from "../link_calls.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { missing, useForm } from "./_form.ts";
import { ScreenForm, SubmitButton } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode RequestResetScreen}.
 *
 * @example Back to the login screen
 * ```ts
 * import type { RequestResetScreenProps } from "@gatehouse/client/screens";
 *
 * const props: RequestResetScreenProps = { onBack: () => history.back() };
 * ```
 */
export interface RequestResetScreenProps {
  /** Shows a "Back to sign in" button that calls it. */
  readonly onBack?: () => void;
}

const FIELDS = ["email"] as const;

/**
 * The "forgot password" form: one email field. Whatever the address, known
 * or not, the answer is the same neutral sentence ("If an account exists
 * for that address, we have sent it a link..."), so the screen reveals
 * nothing about who has an account. The login limiter also guards this
 * request: the screen then says when to try again. A server too old for
 * password resets says so. Needs no query client; does no routing.
 *
 * @param props Optional `onBack`.
 * @returns The screen.
 *
 * @example From the login screen's "Forgot password?"
 * ```tsx
 * import { LoginScreen, RequestResetScreen } from "@gatehouse/client/screens";
 * import type { SessionUser } from "@gatehouse/client";
 * import { useState } from "preact/hooks";
 *
 * export function SignIn(props: { onLogin: (user: SessionUser) => void }) {
 *   const [forgot, setForgot] = useState(false);
 *   return forgot
 *     ? <RequestResetScreen onBack={() => setForgot(false)} />
 *     : <LoginScreen brand="Acme" onLogin={props.onLogin} onForgotPassword={() => setForgot(true)} />;
 * }
 * ```
 */
export function RequestResetScreen(props: RequestResetScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const email = useSignal("");
  const sent = useSignal(false);
  const form = useForm();
  const described = describeFailure(form.failure.value, FIELDS);

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = missing({ email: email.value });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      await requestPasswordReset(email.value.trim());
      sent.value = true;
    });
  };

  const back = props.onBack && (
    <button
      type="button"
      class="gh-button gh-button-link"
      onClick={props.onBack}
    >
      {__("Back to sign in", DOMAIN)}
    </button>
  );

  return (
    <section
      class="gh gh-screen gh-request-reset"
      data-gh-screen="request-reset"
      data-gh-state={sent.value ? "sent" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <h1 id={`${id}-title`} class="gh-title">
          {__("Reset your password", DOMAIN)}
        </h1>
        <FormStatus>
          {sent.value && (
            <p>
              {__(
                "If an account exists for that address, we have sent it a link to reset the password. Check your inbox.",
                DOMAIN,
              )}
            </p>
          )}
        </FormStatus>
        {sent.value
          ? <div class="gh-actions">{back}</div>
          : (
            <ScreenForm form={form} onSubmit={submit}>
              <p class="gh-intro">
                {__(
                  "Enter the email address of your account and we will send it a link to choose a new password.",
                  DOMAIN,
                )}
              </p>
              <FormAlert message={described.alert} />
              <TextField
                id={`${id}-email`}
                name="email"
                type="email"
                autocomplete="username"
                label={__("Email", DOMAIN)}
                value={email}
                error={described.fields.email}
              />
              <div class="gh-actions">
                <SubmitButton
                  pending={form.pending.value}
                  label={__("Send reset link", DOMAIN)}
                  busyLabel={__("Sending…", DOMAIN)}
                />
                {back}
              </div>
            </ScreenForm>
          )}
      </div>
    </section>
  );
}
