// The focus rule of the screens: when content is swapped in (a screen
// replacing another, a form giving way to its answer, a page of a list),
// focus moves to the new content's heading or status, never to <body>.
// Headings and statuses that take focus carry tabIndex={-1}.
//
// On a fresh page load nothing is moved: focus stays where the browser put
// it (the top of the page, the skip link first). Only after the person
// has done something (a key, a pointer, a submit) does a screen that finds
// focus lost take it.

import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

let watching = false;
let interacted = false;
const mark = () => (interacted = true);

/** Starts noticing the person's first interaction with the document. */
function watch(): void {
  if (watching || typeof document === "undefined") return;
  watching = true;
  for (const type of ["keydown", "pointerdown", "click", "submit", "input"]) {
    document.addEventListener(type, mark, { capture: true });
  }
}

/** True when focus is nowhere in particular (on <body>, or on nothing). */
function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body ||
    !active.isConnected;
}

/** Focuses `element` if it is there. */
export function focusOn(element: HTMLElement | null | undefined): void {
  element?.focus();
}

/**
 * When the screen mounts in place of something the person was using (focus
 * was lost with it), focus `target`: its heading or its status.
 */
export function useFocusWhenSwappedIn(
  target: RefObject<HTMLElement>,
): void {
  useLayoutEffect(() => {
    watch();
    if (interacted && focusLost()) focusOn(target.current);
  }, []);
}

/**
 * Focuses `target` whenever `key` changes after the first render: the part
 * of the screen it heads has just been swapped in. A null key moves nothing.
 */
export function useFocusOnChange(
  target: RefObject<HTMLElement>,
  key: unknown,
): void {
  const first = useRef(true);
  useLayoutEffect(() => {
    watch();
    if (first.current) {
      first.current = false;
      return;
    }
    if (key !== null) focusOn(target.current);
  }, [key]);
}
