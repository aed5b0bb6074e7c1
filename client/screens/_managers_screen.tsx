// The frame of the screens only those who may manage users work in (the
// account list, the audit log): the screen's section under a header with
// its title (focused when the screen is swapped in), then its content for
// such an account, or a short notice for any other, so that the page keeps
// its title either way.

import { useId, useRef } from "preact/hooks";
import type { ComponentChildren, VNode } from "../_peer_types.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import { useSession } from "../hooks.ts";
import type { SessionUser } from "../types.ts";
import { useFocusWhenSwappedIn } from "./_focus.ts";
import { type HeadingLevel, Title } from "./_form_parts.tsx";

/** A screen for those who may manage users (`can(user, USERS_MANAGE)`). */
export function ManagersScreen(
  props: {
    /** Its name: `data-gh-screen`, and the class `gh-${screen}`. */
    readonly screen: string;
    readonly title: string;
    readonly level: HeadingLevel | undefined;
    /** Shown after the title in the header, to those who may manage users. */
    readonly headerActions?: ComponentChildren;
    /** Shown in place of the content to any other account. */
    readonly notice: string;
    /** The content, for the signed-in account that may manage users. */
    readonly children: (manager: SessionUser) => ComponentChildren;
  },
): VNode {
  const id = useId();
  const user = useSession();
  const title = useRef<HTMLHeadingElement>(null);
  const manager = user !== null && can(user, USERS_MANAGE) ? user : null;
  useFocusWhenSwappedIn(title);

  return (
    <section
      class={`gh gh-screen gh-${props.screen}`}
      data-gh-screen={props.screen}
      data-gh-state={manager ? undefined : "not-allowed"}
      aria-labelledby={`${id}-title`}
    >
      <header class="gh-header">
        <Title id={`${id}-title`} level={props.level} target={title}>
          {props.title}
        </Title>
        {manager && props.headerActions}
      </header>
      {manager
        ? props.children(manager)
        : <p class="gh-notice">{props.notice}</p>}
    </section>
  );
}
