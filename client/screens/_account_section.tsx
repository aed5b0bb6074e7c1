// A part of the account panel: a section named by its own heading, at the
// level the panel gives its parts (2, or 3 below a heading of the app's).

import type { ComponentChildren, VNode } from "../_peer_types.ts";

/** One part of the account panel, under its heading. */
export function AccountSection(
  props: {
    /** The part's id (from `useId`); its heading's is `${id}-title`. */
    readonly id: string;
    /** Its name: the class `gh-${name}`. */
    readonly name: string;
    readonly level: 2 | 3;
    readonly title: string;
    readonly children?: ComponentChildren;
  },
): VNode {
  const Heading = `h${props.level}` as "h2";
  return (
    <section
      class={`gh-section gh-${props.name}`}
      aria-labelledby={`${props.id}-title`}
    >
      <Heading id={`${props.id}-title`} class="gh-section-title">
        {props.title}
      </Heading>
      {props.children}
    </section>
  );
}
