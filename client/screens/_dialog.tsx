// The screens' modal dialog: a native <dialog> opened with showModal(), so
// the page behind is inert and focus stays inside. It takes focus on its
// safe choice (Cancel) when it opens, Escape cancels, and when it closes,
// focus goes back to the control that opened it (`returnTo`), which the
// caller keeps on the page.

import type { RefObject } from "preact";
import { useId, useLayoutEffect, useRef } from "preact/hooks";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { FormAlert } from "./_field.tsx";
import { ActionButton } from "./_form_parts.tsx";
import { __, DOMAIN } from "./i18n.ts";

/** Props of {@linkcode Dialog}. */
export interface DialogProps {
  /** The dialog's title (its accessible name). */
  readonly title: string;
  /** The words on the confirming button, and while its request runs. */
  readonly confirm: string;
  readonly busy: string;
  /** Red confirm button, for what cannot be undone by a click. */
  readonly danger?: boolean;
  readonly pending: boolean;
  /** A failure to show inside the dialog; it stays open. */
  readonly alert: string | undefined;
  /** Extra controls beside the alert (e.g. "Reload list"). */
  readonly alertAction?: ComponentChildren;
  /**
   * What the confirming button does. Without it there is no such button:
   * the body's own controls act (the re-authentication dialog of an
   * account with nothing to type).
   */
  readonly onConfirm?: () => void;
  /** Called on Cancel and Escape; the caller then stops rendering the dialog. */
  readonly onCancel: () => void;
  /** Where focus goes back when the dialog closes. */
  readonly returnTo: RefObject<HTMLElement>;
  readonly children?: ComponentChildren;
  /** Marks the dialog for tests and styles. */
  readonly name: string;
  /** What takes focus when it opens; its Cancel button unless given. */
  readonly initialFocus?: RefObject<HTMLElement>;
}

/** A modal dialog that asks to confirm one action. Render it while open. */
export function Dialog(props: DialogProps): VNode {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const { returnTo } = props;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (!dialog.open) dialog.showModal();
    (props.initialFocus?.current ?? cancel.current)?.focus();
    return () => {
      if (dialog.open) dialog.close();
      // The dialog is leaving: focus back where it was opened from.
      returnTo.current?.focus();
    };
  }, []);

  return (
    <dialog
      ref={ref}
      class="gh gh-dialog"
      data-gh-dialog={props.name}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        // Escape: the caller decides (and closes it by not rendering it).
        event.preventDefault();
        if (!props.pending) props.onCancel();
      }}
    >
      <h2 id={`${id}-title`} class="gh-dialog-title">{props.title}</h2>
      <div id={`${id}-body`} class="gh-dialog-body">{props.children}</div>
      <FormAlert message={props.alert} />
      {props.alert && props.alertAction}
      <div class="gh-actions gh-dialog-actions">
        {props.onConfirm !== undefined && (
          <ActionButton
            variant={props.danger ? "danger-solid" : "primary"}
            pending={props.pending}
            onClick={props.onConfirm}
          >
            {props.pending ? props.busy : props.confirm}
          </ActionButton>
        )}
        <ActionButton
          buttonRef={cancel}
          pending={props.pending}
          onClick={props.onCancel}
        >
          {__("Cancel", DOMAIN)}
        </ActionButton>
      </div>
    </dialog>
  );
}
