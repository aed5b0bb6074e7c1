// What the role registry answers, turned into identities and role rules.
// Shared by the session path (identities) and administration (who may grant
// what), so both read the registry the same way.

import type { CapabilityRegistry } from "./capabilities.ts";
import type { Identity } from "./identity.ts";
import type { UserRecord } from "./store.ts";

/** Builds Identity values, reading the registry once per call. */
export function identityBuilder(
  registry: CapabilityRegistry | undefined,
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
  return async (user) => {
    const identity: Identity & {
      capabilities: readonly string[];
      grantable?: readonly string[];
    } = {
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      capabilities: Object.freeze([
        ...await registry.capabilitiesOf(user.role),
      ]),
    };
    if (grantable !== undefined) {
      identity.grantable = Object.freeze([...await grantable(user.role)]);
    }
    return Object.freeze(identity);
  };
}

/**
 * The roles that exist: the registry's, or without one the privileged list
 * (DESIGN.md §5).
 */
export async function knownRoles(
  registry: CapabilityRegistry | undefined,
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
  registry: CapabilityRegistry | undefined,
  privileged: readonly string[],
  role: string,
): Promise<readonly string[]> {
  if (registry?.grantable !== undefined) return await registry.grantable(role);
  return await knownRoles(registry, privileged);
}
