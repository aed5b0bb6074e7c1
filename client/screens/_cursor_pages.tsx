// Paging by cursor, as the account list and the audit log page: the cursors
// of the pages seen so far (null for the first), so that "Previous page"
// goes back to exactly the page seen before it, whatever was added since;
// and the pager's two buttons, never `disabled` (only `aria-disabled`), so
// that pressing one again is one key away.

import { useSignal } from "@preact/signals";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { ActionButton } from "./_form_parts.tsx";
import { __, DOMAIN } from "./i18n.ts";

/** The pages seen so far of a list read by cursor. */
export interface CursorPages {
  /** The cursor of the page shown; null for the first page. */
  readonly cursor: string | null;
  /** The page shown, counted from 1. */
  readonly number: number;
  /** Back to the first page (a new search, order or filter). */
  restart(): void;
  /** Back to the page seen before this one. */
  previous(): void;
  /** On to the page at `cursor`; nothing when there is none. */
  next(cursor: string | null | undefined): void;
}

/** The pages of a list read by cursor, starting at the first. */
export function useCursorPages(): CursorPages {
  const cursors = useSignal<readonly (string | null)[]>([null]);
  const seen = cursors.value;
  return {
    cursor: seen[seen.length - 1] ?? null,
    number: seen.length,
    restart: () => (cursors.value = [null]),
    previous: () => (cursors.value = cursors.value.slice(0, -1)),
    next: (cursor) => {
      if (cursor != null) cursors.value = [...cursors.value, cursor];
    },
  };
}

/** "Previous page", then what `children` says of the page, then "Next page". */
export function Pager(
  props: {
    readonly pages: CursorPages;
    /** A next page is there to go to. */
    readonly hasNext: boolean;
    /** The cursor of the next page, as the page shown gave it. */
    readonly nextCursor: string | null | undefined;
    readonly children?: ComponentChildren;
  },
): VNode {
  const { pages } = props;
  return (
    <nav class="gh-pager" aria-label={__("Pages", DOMAIN)}>
      <ActionButton pending={pages.number === 1} onClick={pages.previous}>
        {__("Previous page", DOMAIN)}
      </ActionButton>
      {props.children}
      <ActionButton
        pending={!props.hasNext}
        onClick={() => pages.next(props.nextCursor)}
      >
        {__("Next page", DOMAIN)}
      </ActionButton>
    </nav>
  );
}
