/**
 * `usersNavItem`: the "Users" link of an app's navigation, for those who
 * may manage users.
 *
 * @module
 */

import type { VNode } from "../_peer_types.ts";
import { can } from "../can.ts";
import { USERS_MANAGE } from "@gatehouse/contract/roles";
import type { SessionUser } from "../types.ts";
import { __, DOMAIN } from "./i18n.ts";

/**
 * Options of {@linkcode usersNavItem}.
 *
 * @example A link handled by the app's router
 * ```ts
 * import type { UsersNavItemOptions } from "@gatehouse/client/screens";
 *
 * function usersLink(path: string, navigate: (to: string) => void): UsersNavItemOptions {
 *   return {
 *     href: "/users",
 *     current: path === "/users",
 *     onClick: (event) => {
 *       event.preventDefault();
 *       navigate("/users");
 *     },
 *   };
 * }
 * console.assert(usersLink("/users", () => {}).current === true);
 * ```
 */
export interface UsersNavItemOptions {
  /** Where the users screen is. */
  readonly href: string;
  /** True on the users page: sets `aria-current="page"`. */
  readonly current?: boolean;
  /** Called on click, for a client-side router (the item does no routing itself). */
  readonly onClick?: (event: MouseEvent) => void;
}

/**
 * The navigation item for the users screen: a link labelled "Users"
 * (translated) when `can(user, USERS_MANAGE)`, null otherwise, so the
 * item shows only to those who may use the screen. It is a function, not a
 * component: call it while rendering your navigation, where `user` comes
 * from `useSession()`.
 *
 * @param user The signed-in account, or null.
 * @param options `href`, and optional `current` and `onClick`.
 * @returns An `<a class="gh-nav-item">` element, or null.
 *
 * @example A navigation bar
 * ```tsx
 * import { useSession } from "@gatehouse/client";
 * import { usersNavItem } from "@gatehouse/client/screens";
 *
 * export function Nav(props: { path: string }) {
 *   const user = useSession();
 *   const users = usersNavItem(user, { href: "/users", current: props.path === "/users" });
 *   return (
 *     <nav>
 *       <a href="/">Home</a>
 *       {users}
 *     </nav>
 *   );
 * }
 * ```
 */
export function usersNavItem(
  user: SessionUser | null | undefined,
  options: UsersNavItemOptions,
): VNode | null {
  if (!can(user, USERS_MANAGE)) return null;
  return (
    <a
      class="gh-nav-item"
      data-gh-nav="users"
      href={options.href}
      aria-current={options.current ? "page" : undefined}
      onClick={options.onClick}
    >
      {__("Users", DOMAIN)}
    </a>
  );
}
