// Role menus and role names: menus are built from the signed-in account's
// `grantable` list (never from role names the screens know), plus "no
// role". A role shows by its display name in the screens' language: the
// labels given to setScreensLocale(), or its name when none is given.

import type { Choice } from "./_field.tsx";
import { __, _x as inContext, DOMAIN, ROLE_CONTEXT } from "./i18n.ts";

/** How a role shows: its label, or "No role" for the empty role. */
export function roleLabel(role: string): string {
  // Role names are the app's data, not the screens' strings: they are
  // translated under a context of their own (see setScreensLocale).
  return role === ""
    ? __("No role", DOMAIN)
    : inContext(role, ROLE_CONTEXT, DOMAIN);
}

/**
 * The choices of a role menu: "No role", then every role the account may
 * grant. A current role outside the list is shown but cannot be chosen.
 */
export function roleChoices(
  grantable: readonly string[],
  current = "",
): Choice[] {
  const choices: Choice[] = [{ value: "", label: roleLabel("") }];
  for (const role of grantable) {
    if (role !== "") choices.push({ value: role, label: roleLabel(role) });
  }
  if (current !== "" && !grantable.includes(current)) {
    choices.push({ value: current, label: roleLabel(current), disabled: true });
  }
  return choices;
}
