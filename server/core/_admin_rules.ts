// Who may administer accounts and what they may hand out (DESIGN.md §5), for
// the administration handlers (and later invitations). The store decides the
// rules that depend on stored state (role_changed, role_beyond_reach on the
// target's current role, last_privileged_refused); these are the checks that
// depend only on the actor and the registry.

import { grantableRoles, knownRoles } from "./_roles.ts";
import type { RoleRegistry } from "./roles.ts";
import { AuthError } from "../http/errors.ts";
import type { Identity } from "./identity.ts";

/** The role checks of one administration service, fixed at construction. */
export interface AdminRules {
  /** The privileged roles (copied); empty admits every role. */
  readonly privileged: readonly string[];
  /** Throws `role_unknown` (`meta.field: "role"`) unless `role` exists; "" always does. */
  assertKnown(role: string): Promise<void>;
  /** Throws `role_beyond_reach` unless `actor` may hand out `role`; "" always. */
  assertGrantable(actor: Identity, role: string): Promise<void>;
  /** The roles whose accounts `actor` may change (the roles it may grant). */
  reachable(actor: Identity): Promise<readonly string[]>;
}

/** Builds the checks for a privileged list and an optional registry. */
export function adminRules(
  privileged: readonly string[],
  registry: RoleRegistry | undefined,
): AdminRules {
  const roles = Object.freeze([...privileged]);
  if (roles.includes("")) {
    throw new TypeError(
      'Invalid privileged roles: "" (no role) cannot be privileged',
    );
  }
  return {
    privileged: roles,
    async assertKnown(role) {
      if (role === "" || (await knownRoles(registry, roles)).includes(role)) {
        return;
      }
      throw new AuthError("role_unknown", {
        message: `Role is not known: "${role}"`,
        meta: { field: "role" },
      });
    },
    async assertGrantable(actor, role) {
      if (
        role === "" ||
        (await grantableRoles(registry, roles, actor.role)).includes(role)
      ) {
        return;
      }
      throw new AuthError("role_beyond_reach", {
        message: `You may not hand out the role "${role}"`,
      });
    },
    reachable: (actor) => grantableRoles(registry, roles, actor.role),
  };
}
