// The pieces every form of the screens repeats: the <form> element bound
// to its useForm() state, the primary submit button, the Cancel button, the
// role menu of the forms that hand out a role, and the two password fields
// of the "choose a password" forms. Each screen keeps its own
// words: labels reach these parts already translated, except the password
// fields', which are the same in both forms that use them.

import type { Signal } from "@preact/signals";
import type { JSX, RefObject } from "preact";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { SelectField, TextField } from "./_field.tsx";
import type { Form } from "./_form.ts";
import { passwordHint } from "./_password.ts";
import { roleChoices } from "./_roles.ts";
import { __, DOMAIN } from "./i18n.ts";

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
    // POST, so that a page without JavaScript never puts a password in a URL.
    <form
      ref={form.ref}
      class="gh-form"
      method="post"
      noValidate
      onSubmit={props.onSubmit}
      aria-busy={form.pending.value ? "true" : undefined}
    >
      {props.children}
    </form>
  );
}

/**
 * The primary button, relabelled while pending. It is never `disabled`
 * (that would drop its focus to the page): it says `aria-disabled`, and the
 * form ignores a second submit.
 */
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
      aria-disabled={props.pending ? "true" : undefined}
    >
      {props.pending ? props.busyLabel : props.label}
    </button>
  );
}

/**
 * A button that may be pending: it keeps its focus (`aria-disabled`, never
 * `disabled`) and ignores clicks meanwhile.
 */
export function ActionButton(
  props: {
    readonly pending?: boolean;
    readonly onClick: () => void;
    readonly variant?:
      | "primary"
      | "secondary"
      | "danger"
      | "danger-solid"
      | "link";
    readonly children: ComponentChildren;
    readonly buttonRef?: RefObject<HTMLButtonElement>;
    readonly label?: string;
    readonly describedBy?: string | undefined;
  },
): VNode {
  const { pending = false, onClick } = props;
  return (
    <button
      type="button"
      ref={props.buttonRef}
      class={`gh-button gh-button-${props.variant ?? "secondary"}`}
      aria-disabled={pending ? "true" : undefined}
      aria-label={props.label}
      aria-describedby={props.describedBy}
      onClick={() => {
        if (!pending) onClick();
      }}
    >
      {props.children}
    </button>
  );
}

/**
 * Something that takes the person elsewhere: a link when the app gave an
 * address (navigation is a link), else a button calling the app's handler.
 */
export function ActionLink(
  props: {
    readonly href?: string | undefined;
    readonly onClick?: (() => void) | undefined;
    readonly variant?: "primary" | "secondary" | "link";
    readonly children: ComponentChildren;
  },
): VNode | null {
  const { href, onClick } = props;
  const classes = `gh-button gh-button-${props.variant ?? "link"}`;
  if (href !== undefined) {
    const click = onClick &&
      ((event: JSX.TargetedMouseEvent<HTMLAnchorElement>) => {
        event.preventDefault();
        onClick();
      });
    return <a class={classes} href={href} onClick={click}>{props.children}</a>;
  }
  if (onClick === undefined) return null;
  return (
    <button type="button" class={classes} onClick={onClick}>
      {props.children}
    </button>
  );
}

/**
 * The title of a screen or of a part swapped in: a heading of the level the
 * app chose (h1 unless told), focusable from script so that focus can move
 * to it when its content appears.
 */
export function Title(
  props: {
    readonly id: string;
    readonly level?: HeadingLevel | undefined;
    readonly target?: RefObject<HTMLHeadingElement>;
    readonly children: ComponentChildren;
  },
): VNode {
  const Tag = `h${props.level ?? 1}` as "h1";
  return (
    <Tag id={props.id} ref={props.target} class="gh-title" tabIndex={-1}>
      {props.children}
    </Tag>
  );
}

/** The heading levels a screen's title may take. */
export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

/** The product's name above a card's title, on every card alike. */
export function Brand(
  props: { readonly brand: string | undefined },
): VNode | null {
  return props.brand ? <p class="gh-brand">{props.brand}</p> : null;
}

/** "Back to sign in" at the foot of a card, the same on every card that has it. */
export function SignInFooter(
  props: {
    readonly href?: string | undefined;
    readonly onClick?: (() => void) | undefined;
  },
): VNode | null {
  if (props.href === undefined && props.onClick === undefined) return null;
  return (
    <p class="gh-card-footer">
      <ActionLink href={props.href} onClick={props.onClick}>
        {__("Back to sign in", DOMAIN)}
      </ActionLink>
    </p>
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

/** Name, then email: the person an account or an invitation is for, alike in both forms. */
export function PersonFields(
  props: {
    /** The screen's id; the fields' ids are `${id}-name` and `${id}-email`. */
    readonly id: string;
    readonly name: Signal<string>;
    readonly email: Signal<string>;
    /** The form's field messages (`name`, `email`). */
    readonly errors: Readonly<Record<string, string>>;
  },
): VNode {
  const { id, errors } = props;
  return (
    <>
      <TextField
        id={`${id}-name`}
        name="name"
        autocomplete="off"
        label={__("Name", DOMAIN)}
        value={props.name}
        error={errors.name}
      />
      <TextField
        id={`${id}-email`}
        name="email"
        type="email"
        autocomplete="off"
        label={__("Email", DOMAIN)}
        value={props.email}
        error={errors.email}
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

/** The secondary "Cancel": a link to `href`, or a button calling `onCancel`; nothing without either. */
export function CancelButton(
  props: {
    readonly onCancel: (() => void) | undefined;
    readonly href?: string | undefined;
  },
): VNode | null {
  return (
    <ActionLink
      href={props.href}
      onClick={props.onCancel}
      variant="secondary"
    >
      {__("Cancel", DOMAIN)}
    </ActionLink>
  );
}
