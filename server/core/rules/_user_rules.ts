// The account-change rules every store applies inside its transaction, as
// one pure decision: given the stored account and the requested update,
// refuse with the contract's code or say what to write. Stores call it on the
// very read their commit is checked against, which is what makes the rules
// race-free.

import { fold } from "../_fold.ts";
import { assertWithinReach } from "../_roles.ts";
import { AuthError } from "../../http/errors.ts";
import type { UserUpdate } from "../store.ts";

/** The fields of a stored account the rules look at. */
export interface RuleSubject {
  role: string;
  disabled: boolean;
  generation: number;
  name?: string;
  /** Absent on a record written before accounts had a language. */
  locale?: string;
  localeChosen?: boolean;
}

/** What to write, when the update is allowed. */
export interface UpdateDecision {
  changes: {
    role?: string;
    disabled?: boolean;
    generation?: number;
    name?: string;
    nameKey?: string;
    locale?: string;
    localeChosen?: boolean;
  };
}

/** Whether an account counts towards "at least one privileged account". */
export function countsAsPrivileged(
  account: { role: string; disabled: boolean },
  privileged: readonly string[],
): boolean {
  return !account.disabled &&
    (privileged.length === 0 || privileged.includes(account.role));
}

/**
 * Decides an update. `enabledPrivileged` is asked only when the change would
 * take a privileged account away, and must count from the same snapshot.
 */
export function userUpdateDecision(
  current: RuleSubject,
  update: UserUpdate,
  enabledPrivileged: () => number,
): UpdateDecision {
  if (
    update.expectedRole !== undefined && update.expectedRole !== current.role
  ) {
    throw new AuthError("role_changed", {
      message: `The account's role changed: it is now "${current.role}"`,
      meta: { role: current.role },
    });
  }
  assertWithinReach(
    update.reachableRoles,
    current.role,
    `You may not change an account whose role is "${current.role}"`,
  );
  const next = {
    role: update.role ?? current.role,
    disabled: update.disabled ?? current.disabled,
  };
  const keep = update.keepPrivileged;
  if (
    keep !== undefined && countsAsPrivileged(current, keep) &&
    !countsAsPrivileged(next, keep) && enabledPrivileged() <= 1
  ) {
    throw new AuthError("last_privileged_refused");
  }
  const changes: UpdateDecision["changes"] = {};
  if (next.role !== current.role) changes.role = next.role;
  if (next.disabled !== current.disabled) {
    changes.disabled = next.disabled;
    // Disabling revokes every session at once: sessions carry the generation
    // they were issued under, and an older one is dead even after re-enabling.
    if (next.disabled) changes.generation = current.generation + 1;
  }
  if (update.name !== undefined && update.name !== current.name) {
    changes.name = update.name;
    changes.nameKey = fold(update.name);
  }
  const locale = update.locale;
  // The browser's language stands only until the person chooses one.
  if (locale !== undefined && (locale.chosen || !current.localeChosen)) {
    if (locale.tag !== (current.locale ?? "")) changes.locale = locale.tag;
    if (locale.chosen && current.localeChosen !== true) {
      changes.localeChosen = true;
    }
  }
  return { changes };
}

/** The reach rule of a removal, as a rule-only update (no events). */
export function reach(
  removal: { readonly reachableRoles?: readonly string[] },
): UserUpdate {
  return removal.reachableRoles === undefined
    ? {}
    : { reachableRoles: removal.reachableRoles };
}
