// What the administration screens show to an account that may not manage
// users: the screen's frame with a short notice, under a heading like the
// screen's own, so the page still has its title.

import { useId } from "preact/hooks";
import type { VNode } from "../_peer_types.ts";
import { type HeadingLevel, Title } from "./_form_parts.tsx";
import { __, DOMAIN } from "./i18n.ts";

/** The notice in place of an administration screen. */
export function NotAllowed(
  props: { readonly screen: string; readonly level: HeadingLevel | undefined },
): VNode {
  const id = useId();
  return (
    <section
      class={`gh gh-screen gh-${props.screen}`}
      data-gh-screen={props.screen}
      data-gh-state="not-allowed"
      aria-labelledby={`${id}-title`}
    >
      <div class="gh-card">
        <Title id={`${id}-title`} level={props.level}>
          {__("Users", DOMAIN)}
        </Title>
        <p class="gh-notice">
          {__("Your account may not manage users.", DOMAIN)}
        </p>
      </div>
    </section>
  );
}
