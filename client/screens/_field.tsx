// The labelled inputs of the screens: every input has a <label for>, its
// hint and error are elements whose ids its aria-describedby names, and an
// error sets aria-invalid. The form-level alert is always in the document
// (empty when there is nothing to say), so screen readers announce what
// appears in it.

import type { Signal } from "@preact/signals";
import type { RefObject } from "preact";
import type { ComponentChildren, VNode } from "../_peer_types.ts";

interface FieldBase {
  /** The control's id; hint and error ids derive from it. */
  readonly id: string;
  /** The label text. */
  readonly label: string;
  /** Help shown under the label, always. */
  readonly hint?: string | undefined;
  /** The error to show next to the control. */
  readonly error?: string | undefined;
  /** Keeps the label for screen readers only. */
  readonly hideLabel?: boolean;
}

function describedBy(props: FieldBase): string | undefined {
  const ids = [
    props.hint ? `${props.id}-hint` : "",
    props.error ? `${props.id}-error` : "",
  ].filter((id) => id !== "");
  return ids.length === 0 ? undefined : ids.join(" ");
}

function Frame(props: FieldBase & { children: ComponentChildren }): VNode {
  return (
    <div class={props.error ? "gh-field gh-field-invalid" : "gh-field"}>
      <label
        for={props.id}
        class={props.hideLabel ? "gh-label gh-visually-hidden" : "gh-label"}
      >
        {props.label}
      </label>
      {props.hint && <p id={`${props.id}-hint`} class="gh-hint">{props.hint}
      </p>}
      {props.children}
      {props.error && (
        <p id={`${props.id}-error`} class="gh-field-error">{props.error}</p>
      )}
    </div>
  );
}

/** Props of {@linkcode TextField}. */
export interface TextFieldProps extends FieldBase {
  /** The form field name. */
  readonly name: string;
  /** The value, two-way. */
  readonly value: Signal<string>;
  /** The input type; text by default. */
  readonly type?: "text" | "email" | "password" | "search" | "url";
  /** The autocomplete token. */
  readonly autocomplete?: string;
  /** Shown but not editable (an activation link). */
  readonly readOnly?: boolean;
  /** A ref to the <input>, e.g. to focus it. */
  readonly inputRef?: RefObject<HTMLElement>;
  /** The keyboard a phone shows (`numeric` for codes). */
  readonly inputMode?: "text" | "numeric";
}

/** A labelled text input bound to a signal. */
export function TextField(props: TextFieldProps): VNode {
  const { value } = props;
  return (
    <Frame {...props}>
      <input
        ref={props.inputRef as RefObject<HTMLInputElement>}
        id={props.id}
        name={props.name}
        type={props.type ?? "text"}
        inputMode={props.inputMode}
        class="gh-input"
        value={value.value}
        onInput={(event) => (value.value = event.currentTarget.value)}
        autocomplete={props.autocomplete}
        readOnly={props.readOnly}
        spellcheck={props.type === "text" ? undefined : false}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={describedBy(props)}
      />
    </Frame>
  );
}

/** One choice of a {@linkcode SelectField}. */
export interface Choice {
  readonly value: string;
  readonly label: string;
  readonly disabled?: boolean;
}

/** Props of {@linkcode SelectField}. */
export interface SelectFieldProps extends FieldBase {
  /** The form field name. */
  readonly name: string;
  /** The chosen value. */
  readonly value: string;
  /** Called with the value chosen. */
  readonly onChange: (value: string) => void;
  /** The choices. */
  readonly choices: readonly Choice[];
  /** Not changeable now (a request is on its way). */
  readonly disabled?: boolean;
  /** A ref to the <select>, e.g. to focus it. */
  readonly selectRef?: RefObject<HTMLElement>;
}

/** A labelled menu. */
export function SelectField(props: SelectFieldProps): VNode {
  const { onChange } = props;
  return (
    <Frame {...props}>
      <select
        ref={props.selectRef as RefObject<HTMLSelectElement>}
        id={props.id}
        name={props.name}
        class="gh-select"
        value={props.value}
        disabled={props.disabled}
        onChange={(event) => onChange(event.currentTarget.value)}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={describedBy(props)}
      >
        {props.choices.map((choice) => (
          <option
            key={choice.value}
            value={choice.value}
            disabled={choice.disabled}
          >
            {choice.label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

/**
 * The form's alert: always present, so what appears in it is announced.
 * Errors that concern no single field go here.
 */
export function FormAlert(
  props: {
    readonly message: string | undefined;
    readonly id?: string;
    /** Makes the alert focusable (tabIndex -1) and gives it this ref. */
    readonly target?: RefObject<HTMLDivElement>;
  },
): VNode {
  return (
    <div
      id={props.id}
      ref={props.target}
      class="gh-alert"
      role="alert"
      tabIndex={props.target ? -1 : undefined}
    >
      {props.message && <p>{props.message}</p>}
    </div>
  );
}

/** A polite status region, for successes. */
export function FormStatus(
  props: {
    readonly children?: ComponentChildren;
    readonly id?: string;
    /** Makes the status focusable (tabIndex -1) and gives it this ref. */
    readonly target?: RefObject<HTMLDivElement>;
  },
): VNode {
  return (
    <div
      id={props.id}
      ref={props.target}
      class="gh-status"
      role="status"
      tabIndex={props.target ? -1 : undefined}
    >
      {props.children}
    </div>
  );
}
