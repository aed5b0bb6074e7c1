// The pieces every form of the screens repeats: the <form> element bound
// to its useForm() state, the primary submit button, the Cancel button, the
// role menu of the forms that hand out a role, and the two password fields
// of the "choose a password" forms. Each screen keeps its own
// words: labels reach these parts already translated, except the password
// fields', which are the same in both forms that use them.

import type { Signal } from "@preact/signals";
import { __ } from "@wordpress/i18n";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { SelectField, TextField } from "./_field.tsx";
import type { Form } from "./_form.ts";
import { passwordHint } from "./_password.ts";
import { roleChoices } from "./_roles.ts";
import { DOMAIN } from "./i18n.ts";

/** One place for the form element, its ref (focus after a failure) and its busy state. */
export function ScreenForm(
  props: {
    readonly form: Form;
    readonly onSubmit: (event: Event) => void;
    readonly children: ComponentChildren;
  },
): VNode {
  const { form } = props;
  return (
    <form
      ref={form.ref}
      class="gh-form"
      noValidate
      onSubmit={props.onSubmit}
      aria-busy={form.pending.value ? "true" : undefined}
    >
      {props.children}
    </form>
  );
}

/** One place for the primary button's look and its disabled, relabelled state while pending. */
export function SubmitButton(
  props: {
    readonly pending: boolean;
    readonly label: string;
    readonly busyLabel: string;
  },
): VNode {
  return (
    <button
      type="submit"
      class="gh-button gh-button-primary"
      disabled={props.pending}
    >
      {props.pending ? props.busyLabel : props.label}
    </button>
  );
}

/** The new password (with the length hint) and its repetition, alike in the reset and activation forms. */
export function NewPasswordFields(
  props: {
    /** The screen's id; the fields' ids are `${id}-password` and `${id}-confirm`. */
    readonly id: string;
    /** The server's lower bound, for the hint. */
    readonly min: number;
    readonly password: Signal<string>;
    readonly confirm: Signal<string>;
    /** The form's field messages (`password`, `confirm`). */
    readonly errors: Readonly<Record<string, string>>;
  },
): VNode {
  const { id, errors } = props;
  return (
    <>
      <TextField
        id={`${id}-password`}
        name="password"
        type="password"
        autocomplete="new-password"
        label={__("New password", DOMAIN)}
        hint={passwordHint(props.min)}
        value={props.password}
        error={errors.password}
      />
      <TextField
        id={`${id}-confirm`}
        name="confirm"
        type="password"
        autocomplete="new-password"
        label={__("Repeat the password", DOMAIN)}
        value={props.confirm}
        error={errors.confirm}
      />
    </>
  );
}

/**
 * The role menu of the forms that hand out a role (new account, invitation):
 * the signed-in account's grantable roles plus "No role"; nothing without a
 * grantable list.
 */
export function RoleField(
  props: {
    readonly id: string;
    readonly grantable: readonly string[] | undefined;
    readonly role: Signal<string>;
    readonly error: string | undefined;
  },
): VNode | null {
  const { grantable, role } = props;
  if (grantable === undefined) return null;
  return (
    <SelectField
      id={props.id}
      name="role"
      label={__("Role", DOMAIN)}
      value={role.value}
      onChange={(value) => (role.value = value)}
      choices={roleChoices(grantable)}
      error={props.error}
    />
  );
}

/** The secondary "Cancel" button, shown only when the app gave a handler. */
export function CancelButton(
  props: { readonly onCancel: (() => void) | undefined },
): VNode | null {
  if (props.onCancel === undefined) return null;
  return (
    <button
      type="button"
      class="gh-button gh-button-secondary"
      onClick={props.onCancel}
    >
      {__("Cancel", DOMAIN)}
    </button>
  );
}
