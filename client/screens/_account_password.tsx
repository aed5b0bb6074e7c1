// "Change password" of the account panel: the current password, the new
// one and its repetition. A wrong current password shows next to its
// field; a refused new one (too short, too common) next to the new one.
// The server ends every other session and renews this one. An account
// single sign-on made has no password to change (its Identity says
// `has_password: false`): it is told how to get one instead.

import { useQueryClient } from "@tanstack/preact-query";
import { useSignal } from "@preact/signals";
import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { changePassword } from "../account_calls.ts";
import { AccountSection } from "./_account_section.tsx";
import { describeFailure } from "./_error_message.ts";
import { FormAlert, FormStatus, TextField } from "./_field.tsx";
import { useForm } from "./_form.ts";
import { ScreenForm, SubmitButton } from "./_form_parts.tsx";
import { DEFAULT_MIN_PASSWORD, passwordHint } from "./_password.ts";
import { SESSIONS_KEY } from "./_security_keys.ts";
import {
  DEFAULT_LIMITS,
  newPasswordProblem,
  problemsOf,
  requiredProblem,
} from "./_validation.ts";
import { __, DOMAIN } from "./i18n.ts";

const FIELDS = ["current_password", "new_password", "confirm"] as const;

/** The password part of the account panel. */
export function ChangePassword(props: { readonly level: 2 | 3 }): VNode {
  const id = useId();
  const client = useQueryClient();
  const current = useSignal("");
  const next = useSignal("");
  const confirm = useSignal("");
  const done = useSignal(false);
  const form = useForm();
  const described = describeFailure(form.failure.value, FIELDS);

  const submit = (event: Event) => {
    event.preventDefault();
    done.value = false;
    const fresh = newPasswordProblem(next.value, DEFAULT_LIMITS);
    const problems = problemsOf({
      current_password: requiredProblem(current.value),
      new_password: fresh === null ? null : fresh,
      confirm: confirm.value === ""
        ? "required"
        : fresh === null && confirm.value !== next.value
        ? "mismatch"
        : null,
    });
    if (problems) return form.refuse(problems);
    void form.run(async () => {
      await changePassword({
        currentPassword: current.value,
        newPassword: next.value,
      });
      current.value = next.value = confirm.value = "";
      done.value = true;
      void client.invalidateQueries({ queryKey: SESSIONS_KEY });
    });
  };

  return (
    <AccountSection
      id={id}
      name="password"
      level={props.level}
      title={__("Change password", DOMAIN)}
    >
      <ScreenForm form={form} onSubmit={submit}>
        <FormAlert message={described.alert} />
        <FormStatus>
          {done.value && (
            <p>
              {__(
                "Your password is changed. Your other sessions have ended.",
                DOMAIN,
              )}
            </p>
          )}
        </FormStatus>
        <TextField
          id={`${id}-current`}
          name="current_password"
          type="password"
          autocomplete="current-password"
          label={__("Current password", DOMAIN)}
          value={current}
          error={described.fields.current_password}
        />
        <TextField
          id={`${id}-new`}
          name="new_password"
          type="password"
          autocomplete="new-password"
          label={__("New password", DOMAIN)}
          hint={passwordHint(DEFAULT_MIN_PASSWORD)}
          value={next}
          error={described.fields.new_password}
        />
        <TextField
          id={`${id}-confirm`}
          name="confirm"
          type="password"
          autocomplete="new-password"
          label={__("Repeat the password", DOMAIN)}
          value={confirm}
          error={described.fields.confirm}
        />
        <div class="gh-actions">
          <SubmitButton
            pending={form.pending.value}
            label={__("Change password", DOMAIN)}
            busyLabel={__("Changing password…", DOMAIN)}
          />
        </div>
      </ScreenForm>
    </AccountSection>
  );
}

/**
 * The password part for an account without a password: why it has none,
 * and how to get one. A reset link sets one (DESIGN.md §13), except for an
 * address its provider enforces, whose reset request sends nothing.
 */
export function NoPassword(props: { readonly level: 2 | 3 }): VNode {
  const id = useId();
  return (
    <AccountSection
      id={id}
      name="password"
      level={props.level}
      title={__("Password", DOMAIN)}
    >
      <p class="gh-no-password">
        {__(
          "You sign in with your organisation's single sign-on, so your account has no password. To set one, request a reset link from the sign-in page with “Forgot password?”, unless your organisation requires its single sign-on.",
          DOMAIN,
        )}
      </p>
    </AccountSection>
  );
}
