// Role menus: built from the signed-in account's `grantable` list (never
// from role names the screens know), plus "no role".

import { __ } from "@wordpress/i18n";
import type { Choice } from "./_field.tsx";
import { DOMAIN } from "./i18n.ts";

/** How a role shows: its name, or "No role" for the empty role. */
export function roleLabel(role: string): string {
  return role === "" ? __("No role", DOMAIN) : role;
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
    if (role !== "") choices.push({ value: role, label: role });
  }
  if (current !== "" && !grantable.includes(current)) {
    choices.push({ value: current, label: current, disabled: true });
  }
  return choices;
}
