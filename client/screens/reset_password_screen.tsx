/**
 * `ResetPasswordScreen`: the page a reset link opens; the person chooses a
 * new password.
 *
 * @module
 */

import { useSignal } from "@preact/signals";
import { useId, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { resetPassword } from "../link_calls.ts";
import { useEmailedLink } from "./_emailed_link.ts";
import { describeFailure } from "./_error_message.ts";
import { FormAlert } from "./_field.tsx";
import { useFocusOnChange, useFocusWhenSwappedIn } from "./_focus.ts";
import { useForm } from "./_form.ts";
import {
  ActionLink,
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
import { __, DOMAIN } from "./i18n.ts";

/**
 * Props of {@linkcode ResetPasswordScreen}.
 *
 * @example The token from the link's fragment
 * ```ts
 * import type { ResetPasswordScreenProps } from "@gatehouse/client/screens";
 *
 * function propsFor(hash: string): ResetPasswordScreenProps {
 *   return {
 *     brand: "Acme",
 *     token: new URLSearchParams(hash.slice(1)).get("token") ?? "",
 *     onDone: () => history.replaceState(null, "", location.pathname),
 *     requestNewHref: "/forgot",
 *     signInHref: "/",
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
  /** Shows "Request a new link" on a dead link as a button that calls it. */
  readonly onRequestNew?: () => void;
  /** Shows "Request a new link" on a dead link as a link to this address. */
  readonly requestNewHref?: string;
  /** Shows "Back to sign in" as a link to this address, in every state. */
  readonly signInHref?: string;
  /** The product name, shown above the title as on the other cards. */
  readonly brand?: string;
  /** The server's lower bound for passwords, for the hint; 12 by default. */
  readonly passwordMinLength?: number;
  /** The level of the title's heading; 1 unless the screen sits below a heading of yours. */
  readonly headingLevel?: HeadingLevel;
}

const FIELDS = ["password", "confirm"] as const;

type State = "form" | "done" | "dead";

/**
 * The reset page: a new password, typed twice. On success the title becomes
 * "Password changed", takes the focus, and `onDone` is called (the person
 * then signs in with it; other sessions of the account have ended). The
 * screen checks the link when it opens (`checkLink`, which spends nothing):
 * a spent, expired or unknown link says at once that it is no longer valid
 * and how to get a new one, before anyone types a password; a check that
 * cannot answer leaves the form, and the reset itself tells. Every problem of the form shows at once, next to its field; other
 * failures keep the form for another try. Needs no query client; does no
 * routing.
 *
 * @param props `token`, `onDone`, and optional `brand`, `onRequestNew`, `requestNewHref`, `signInHref`, `passwordMinLength` and `headingLevel`.
 * @returns The screen.
 *
 * @example The reset page of an app
 * ```tsx
 * import { ResetPasswordScreen } from "@gatehouse/client/screens";
 *
 * export const ResetPage = (props: { token: string }) => (
 *   <ResetPasswordScreen token={props.token} onDone={() => {}} requestNewHref="/forgot" signInHref="/" />
 * );
 * ```
 */
export function ResetPasswordScreen(props: ResetPasswordScreenProps): VNode {
  useLocaleUpdates();
  const id = useId();
  const password = useSignal("");
  const confirm = useSignal("");
  const link = useEmailedLink(props.token, "reset");
  const done = useSignal(false);
  const form = useForm();
  const title = useRef<HTMLHeadingElement>(null);
  const limits = limitsWith(props.passwordMinLength ?? DEFAULT_MIN_PASSWORD);
  const described = describeFailure(form.failure.value, FIELDS, limits);
  const state: State = link.dead ? "dead" : done.value ? "done" : "form";
  useFocusWhenSwappedIn(title);
  useFocusOnChange(title, state);

  const submit = (event: Event) => {
    event.preventDefault();
    const problems = passwordProblems(password.value, confirm.value, limits);
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      const spent = await link.spend(() =>
        resetPassword(props.token, password.value)
      );
      if (spent === null) return;
      done.value = true;
      password.value = confirm.value = "";
      props.onDone();
    });
  };

  const titles: Record<State, string> = {
    form: __("Choose a new password", DOMAIN),
    done: __("Password changed", DOMAIN),
    dead: __("This reset link is no longer valid", DOMAIN),
  };

  return (
    <section
      class="gh gh-screen gh-reset-password"
      data-gh-screen="reset-password"
      data-gh-state={state === "form"
        ? undefined
        : state === "dead"
        ? "invalid-link"
        : "done"}
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Brand brand={props.brand} />
        <Title id={`${id}-title`} level={props.headingLevel} target={title}>
          {titles[state]}
        </Title>
        {state === "dead" && (
          <>
            <div class="gh-alert" role="alert">
              <p>
                {__(
                  "Reset links work only once and only for a limited time. Request a new one from the sign-in page with “Forgot password?”.",
                  DOMAIN,
                )}
              </p>
            </div>
            {(props.requestNewHref ?? props.onRequestNew) && (
              <div class="gh-actions">
                <ActionLink
                  href={props.requestNewHref}
                  onClick={props.onRequestNew}
                  variant="primary"
                >
                  {__("Request a new link", DOMAIN)}
                </ActionLink>
              </div>
            )}
          </>
        )}
        {state === "done" && (
          <p class="gh-status" role="status">
            {__(
              "Your password has been changed. Sign in with your new password.",
              DOMAIN,
            )}
          </p>
        )}
        {state === "form" && (
          <ScreenForm form={form} onSubmit={submit}>
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
                label={__("Change password", DOMAIN)}
                busyLabel={__("Changing password…", DOMAIN)}
              />
            </div>
          </ScreenForm>
        )}
        <SignInFooter href={props.signInHref} />
      </div>
    </section>
  );
}
