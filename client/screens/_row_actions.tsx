// One compact control per row: a menu button ("Actions") that opens a
// short menu of what can be done to the row (WAI-ARIA's menu button: Enter,
// Space or Arrow Down open it on the first item, Arrow Up on the last;
// arrows, Home and End move; Escape and Tab close it, back on the button;
// a click elsewhere closes it). Choosing an item closes the menu first, so
// whatever the item opens can return focus to the button.

import { useSignal } from "@preact/signals";
import type { RefObject } from "preact";
import { useEffect, useId, useLayoutEffect, useRef } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { __, DOMAIN, sprintf } from "./i18n.ts";

/** One item of a row's menu. */
export interface RowAction {
  readonly key: string;
  readonly label: string;
  readonly danger?: boolean;
  readonly run: () => void;
}

/** Props of {@linkcode RowActions}. */
export interface RowActionsProps {
  /** Whose row: the button's name says it ("Actions for Ada"). */
  readonly subject: string;
  readonly actions: readonly RowAction[];
  /** The button, for dialogs to return focus to. */
  readonly buttonRef: RefObject<HTMLButtonElement>;
  /** A request of this row is running: the button says so and opens nothing. */
  readonly pending?: boolean;
  readonly describedBy?: string | undefined;
}

/** The row's menu button and its menu. */
export function RowActions(props: RowActionsProps): VNode {
  const id = useId();
  const open = useSignal<"first" | "last" | null>(null);
  const menu = useRef<HTMLUListElement>(null);
  const { buttonRef, actions, pending = false } = props;

  const items = () => [
    ...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ??
      []),
  ];
  const close = () => {
    open.value = null;
    buttonRef.current?.focus();
  };

  useLayoutEffect(() => {
    if (open.value === null) return;
    const all = items();
    (open.value === "first" ? all[0] : all[all.length - 1])?.focus();
  }, [open.value]);

  // A pointer elsewhere closes the menu, leaving focus where it went.
  useEffect(() => {
    if (open.value === null) return;
    const outside = (event: Event) => {
      const target = event.target as Node | null;
      if (
        !menu.current?.contains(target) && !buttonRef.current?.contains(target)
      ) {
        open.value = null;
      }
    };
    document.addEventListener("pointerdown", outside, { capture: true });
    return () =>
      document.removeEventListener("pointerdown", outside, { capture: true });
  }, [open.value]);

  const onButtonKey = (event: KeyboardEvent) => {
    if (pending) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      open.value = event.key === "ArrowDown" ? "first" : "last";
    }
  };

  const onMenuKey = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => all[(to + all.length) % all.length]?.focus();
    switch (event.key) {
      case "ArrowDown":
        move(at + 1);
        break;
      case "ArrowUp":
        move(at - 1);
        break;
      case "Home":
        move(0);
        break;
      case "End":
        move(all.length - 1);
        break;
      case "Escape":
      case "Tab":
        close();
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  return (
    <div class="gh-row-actions">
      <button
        ref={buttonRef}
        type="button"
        id={`${id}-button`}
        class="gh-button gh-button-secondary gh-button-small"
        aria-haspopup="menu"
        aria-expanded={open.value === null ? "false" : "true"}
        aria-controls={open.value === null ? undefined : `${id}-menu`}
        aria-disabled={pending ? "true" : undefined}
        aria-describedby={props.describedBy}
        aria-label={sprintf(__("Actions for %s", DOMAIN), props.subject)}
        onClick={() => {
          if (!pending) open.value = open.value === null ? "first" : null;
        }}
        onKeyDown={onButtonKey}
      >
        {__("Actions", DOMAIN)}
        <span class="gh-caret" aria-hidden="true" />
      </button>
      {open.value !== null && (
        <ul
          ref={menu}
          id={`${id}-menu`}
          class="gh-menu"
          role="menu"
          aria-labelledby={`${id}-button`}
          onKeyDown={onMenuKey}
        >
          {actions.map((action) => (
            <li key={action.key} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                class={action.danger
                  ? "gh-menu-item gh-menu-item-danger"
                  : "gh-menu-item"}
                data-gh-action={action.key}
                onClick={() => {
                  close();
                  action.run();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
