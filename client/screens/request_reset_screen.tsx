/**
 * `RequestResetScreen`: asks for a password-reset link by mail.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { requestPasswordReset } from "../link_calls.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, TextField } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  Brand,
  type HeadingLevel,
  ScreenForm,
  SignInFooter,
  SubmitButton,
  Title,
} from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_LIMITS, emailProblem, problemsOf } from "./_validation.ts";
import { __, DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode RequestResetScreen}.
 *
 * @example A link back to the login page
 * ```ts
 * import type { RequestResetScreenProps } from "@gatehouse/client/screens";
 *
 * const props: RequestResetScreenProps = { brand: "Acme", signInHref: "/" };
 * ```
 */
export interface RequestResetScreenProps {
  /** The product name, shown above the title as on the other cards. */
  readonly brand?: string;
  /** Shows "Back to sign in" as a link to this address. */
  readonly signInHref?: string;
  /** Shows "Back to sign in" as a button that calls it (with `signInHref`, a click calls it instead). */
  readonly onBack?: () => void;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["email"] as const;

/**
 * The "forgot password" form: one email field. Whatever the address, known
 * or not, the answer is the same neutral sentence ("If an account exists
 * for that address, we have sent it a link..."), so the screen reveals
 * nothing about who has an account; the title then becomes "Check your
 * inbox" and takes the focus. The login limiter also guards this request:
 * the screen then says when to try again. A server too old for password
 * resets says so. Needs no query client; does no routing.
 *
 * @param props Optional `brand`, `signInHref`, `onBack` and `headingLevel`.
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
 *     ? <RequestResetScreen brand="Acme" onBack={() => setForgot(false)} />
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
  const title = useRef<HTMLHeadingElement>(null);
  const described = describeFailure(form.failure.value, FIELDS);
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, sent.value);

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = problemsOf({
      email: emailProblem(email.value, DEFAULT_LIMITS),
    });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      await requestPasswordReset(email.value.trim());
      sent.value = true;
    });
  };

  return (
    <section
      class="gh gh-screen gh-request-reset"
      data-gh-screen="request-reset"
      data-gh-state={sent.value ? "sent" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Brand brand={props.brand} />
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {sent.value
            ? __("Check your inbox", DOMAIN)
            : __("Reset your password", DOMAIN)}
        </Title>
        {sent.value
          ? (
            <p class="gh-status" role="status">
              {__(
                "If an account exists for that address, we have sent it a link to reset the password. Check your inbox.",
                DOMAIN,
              )}
            </p>
          )
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
              </div>
            </ScreenForm>
          )}
        <SignInFooter href={props.signInHref} onClick={props.onBack} />
      </div>
    </section>
  );
}
