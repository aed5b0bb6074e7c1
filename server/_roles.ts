// What the role registry answers, turned into identities and role rules.
// Shared by the session path (identities) and administration (who may grant
// what), so both read the registry the same way.

import type { RoleRegistry } from "./roles.ts";
import type { Identity } from "./identity.ts";
import type { UserRecord } from "./store.ts";

/** Builds Identity values, reading the registry once per call. */
export function identityBuilder(
  registry: RoleRegistry | undefined,
): (user: UserRecord) => Promise<Identity> | Identity {
  const plain = (user: UserRecord): Identity =>
    Object.freeze({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
    });
  if (registry === undefined) return plain;
  const grantable = registry.grantable?.bind(registry);
  // This runs on every guarded request: a synchronous registry (such as
  // roleRegistry) is answered without promises or copies of frozen lists.
  return (user) => {
    const capabilities = registry.capabilitiesOf(user.role);
    const grants = grantable?.(user.role);
    if (capabilities instanceof Promise || grants instanceof Promise) {
      return Promise.all([capabilities, grants]).then(([c, g]) =>
        build(user, c, g)
      );
    }
    return build(user, capabilities, grants);
  };
}

function build(
  user: UserRecord,
  capabilities: readonly string[],
  grantable: readonly string[] | undefined,
): Identity {
  const identity: {
    id: string;
    email: string;
    name: string;
    role: string;
    capabilities: readonly string[];
    grantable?: readonly string[];
  } = {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    capabilities: frozenList(capabilities),
  };
  if (grantable !== undefined) identity.grantable = frozenList(grantable);
  return Object.freeze(identity);
}

// The identity must not share a list the registry could change later.
function frozenList(list: readonly string[]): readonly string[] {
  return Object.isFrozen(list) ? list : Object.freeze([...list]);
}

/**
 * The roles that exist: the registry's, or without one the privileged list
 * (DESIGN.md §5).
 */
export async function knownRoles(
  registry: RoleRegistry | undefined,
  privileged: readonly string[],
): Promise<readonly string[]> {
  return registry === undefined ? privileged : await registry.roles();
}

/**
 * The roles an account of `role` may hand out: the registry's `grantable`
 * answer, or every known role when the registry has none (or there is no
 * registry).
 */
export async function grantableRoles(
  registry: RoleRegistry | undefined,
  privileged: readonly string[],
  role: string,
): Promise<readonly string[]> {
  if (registry?.grantable !== undefined) return await registry.grantable(role);
  return await knownRoles(registry, privileged);
}

/**
 * The roles whose accounts may hand out `role` by invitation: privileged
 * (every role when the privileged list is empty) and, for a role other than
 * none, holding it in their grantable roles. Undefined means any role.
 */
export async function grantersOf(
  registry: RoleRegistry | undefined,
  privileged: readonly string[],
  role: string,
): Promise<readonly string[] | undefined> {
  const administrators = privileged.length > 0 ? privileged : undefined;
  if (role === "") return administrators;
  const candidates = administrators ??
    [...await knownRoles(registry, privileged), ""];
  const granters: string[] = [];
  for (const candidate of candidates) {
    const grants = await grantableRoles(registry, privileged, candidate);
    if (grants.includes(role)) granters.push(candidate);
  }
  return granters;
}
