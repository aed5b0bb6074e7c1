/**
 * `ResetPasswordScreen`: the page a reset link opens; the person chooses a
 * new password.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { __ } from "@wordpress/i18n";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { resetPassword } from "../link_calls.ts";
import { InvalidTokenError } from "../errors.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus } from "./_field.tsx";
import { useForm } from "./_form.ts";
import { NewPasswordFields, ScreenForm, SubmitButton } from "./_form_parts.tsx";
import { useLocaleUpdates } from "./_locale.ts";
import { DEFAULT_MIN_PASSWORD, passwordProblems } from "./_password.ts";
import { DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode ResetPasswordScreen}.
 *
 * @example The token from the link's fragment
 * ```ts
 * import type { ResetPasswordScreenProps } from "@gatehouse/client/screens";
 *
 * function propsFor(hash: string): ResetPasswordScreenProps {
 *   return {
 *     token: new URLSearchParams(hash.slice(1)).get("token") ?? "",
 *     onDone: () => setTimeout(() => location.assign("/"), 3000),
 *     onRequestNew: () => location.assign("/forgot"),
 *   };
 * }
 * console.assert(propsFor("#token=abc").token === "abc");
 * ```
 */
export interface ResetPasswordScreenProps {
  /** The token of the reset link (`#token=...`); empty shows the dead-link message. */
  readonly token: string;
  /** Called once the new password is set; the screen says so meanwhile. */
  readonly onDone: () => void;
  /** Shows a "Request a new link" button on a dead link that calls it. */
  readonly onRequestNew?: () => void;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
}

const FIELDS = ["password", "confirm"] as const;

/**
 * The reset page: a new password, typed twice. On success it says the
 * password was changed and calls `onDone` (the person then signs in with
 * it; other sessions of the account have ended). A spent or expired link
 * says it is no longer valid and how to get a new one. A refused password
 * shows next to its field; other failures keep the form for another try.
 * Needs no query client; does no routing.
 *
 * @param props `token`, `onDone`, and optional `onRequestNew` and `passwordMinLength`.
 * @returns The screen.
 *
 * @example The reset page of an app
 * ```tsx
 * import { ResetPasswordScreen } from "@gatehouse/client/screens";
 *
 * export const ResetPage = (props: { token: string }) => (
 *   <ResetPasswordScreen token={props.token} onDone={() => {}} onRequestNew={() => location.assign("/forgot")} />
 * );
 * ```
 */
export function ResetPasswordScreen(props: ResetPasswordScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const password = useSignal("");
  const confirm = useSignal("");
  const dead = useSignal(false);
  const done = useSignal(false);
  const form = useForm();
  const described = describeFailure(form.failure.value, FIELDS);
  const min = props.passwordMinLength ?? DEFAULT_MIN_PASSWORD;

  if (dead.value || props.token === "") {
    return (
      <section
        class="gh gh-screen gh-reset-password"
        data-gh-screen="reset-password"
        data-gh-state="invalid-link"
        aria-labelledby={`${id}-title`}
      >
        <div class="gh-card">
          <h1 id={`${id}-title`} class="gh-title">
            {__("This reset link is no longer valid", DOMAIN)}
          </h1>
          <div class="gh-alert" role="alert">
            <p>
              {__(
                "Reset links work only once and only for a limited time. Request a new one from the sign-in page with “Forgot password?”.",
                DOMAIN,
              )}
            </p>
          </div>
          {props.onRequestNew && (
            <div class="gh-actions">
              <button
                type="button"
                class="gh-button gh-button-primary"
                onClick={props.onRequestNew}
              >
                {__("Request a new link", DOMAIN)}
              </button>
            </div>
          )}
        </div>
      </section>
    );
  }

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = passwordProblems(password.value, confirm.value);
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      try {
        await resetPassword(props.token, password.value);
      } catch (error) {
        if (!(error instanceof InvalidTokenError)) throw error;
        dead.value = true;
        return;
      }
      done.value = true;
      password.value = confirm.value = "";
      props.onDone();
    });
  };

  return (
    <section
      class="gh gh-screen gh-reset-password"
      data-gh-screen="reset-password"
      data-gh-state={done.value ? "done" : undefined}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <h1 id={`${id}-title`} class="gh-title">
          {__("Choose a new password", DOMAIN)}
        </h1>
        <FormStatus>
          {done.value && (
            <p>
              {__(
                "Your password has been changed. Sign in with your new password.",
                DOMAIN,
              )}
            </p>
          )}
        </FormStatus>
        {!done.value && (
          <ScreenForm form={form} onSubmit={submit}>
            <FormAlert message={described.alert} />
            <NewPasswordFields
              id={id}
              min={min}
              password={password}
              confirm={confirm}
              errors={described.fields}
            />
            <div class="gh-actions">
              <SubmitButton
                pending={form.pending.value}
                label={__("Change password", DOMAIN)}
                busyLabel={__("Changing password…", DOMAIN)}
              />
            </div>
          </ScreenForm>
        )}
      </div>
    </section>
  );
}
