/**
 * The optional role registry: which capabilities a role carries, which roles
 * it may hand out, and which roles exist at all.
 *
 * @module
 */

/** A list, or a promise of one: registries may be static or looked up. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A role registry. `requireSession` asks it once per request, so a grant or a
 * revoke counts from the next request.
 *
 * @example A registry backed by a database table
 * ```ts
 * import type { CapabilityRegistry } from "@gatehouse/server";
 *
 * const table = new Map([["admin", ["users.manage"]], ["member", []]]);
 * const registry: CapabilityRegistry = {
 *   capabilitiesOf: (role) => table.get(role) ?? [],
 *   roles: () => [...table.keys()],
 * };
 * ```
 */
export interface CapabilityRegistry {
  /** The capabilities of `role`; unknown roles have none. */
  capabilitiesOf(role: string): MaybePromise<readonly string[]>;
  /**
   * The roles an account of `role` may hand out. Without this method every
   * known role is grantable and identities carry no `grantable` list.
   */
  grantable?(role: string): MaybePromise<readonly string[]>;
  /** Every role the registry declares. */
  roles(): MaybePromise<readonly string[]>;
}

/** The registry {@linkcode roleRegistry} builds: every answer is synchronous. */
export interface StaticRoleRegistry extends CapabilityRegistry {
  /** The capabilities of `role`; unknown roles have none. */
  capabilitiesOf(role: string): readonly string[];
  /** The roles an account of `role` may hand out. */
  grantable(role: string): readonly string[];
  /** Every role the registry declares. */
  roles(): readonly string[];
}

/** One role's entry in {@linkcode roleRegistry}. */
export interface RoleDefinition {
  /** Capabilities the role carries. */
  capabilities?: readonly string[];
  /** Roles an account of this role may hand out. */
  grants?: readonly string[];
}

/**
 * A fixed registry from a plain object, copied at construction. It answers
 * `grantable`, so identities carry both lists.
 *
 * @param roles Each role with its capabilities and the roles it may grant.
 * @returns The registry.
 *
 * @example The demo's roles
 * ```ts
 * import { roleRegistry } from "@gatehouse/server";
 *
 * const registry = roleRegistry({
 *   admin: { capabilities: ["users.manage"], grants: ["admin", "member"] },
 *   member: {},
 * });
 * console.assert(registry.capabilitiesOf("admin")[0] === "users.manage");
 * ```
 */
export function roleRegistry(
  roles: Record<string, RoleDefinition>,
): StaticRoleRegistry {
  const capabilities = new Map<string, readonly string[]>();
  const grants = new Map<string, readonly string[]>();
  for (const [role, definition] of Object.entries(roles)) {
    capabilities.set(role, Object.freeze([...(definition.capabilities ?? [])]));
    grants.set(role, Object.freeze([...(definition.grants ?? [])]));
  }
  for (const [role, granted] of grants) {
    for (const target of granted) {
      if (!capabilities.has(target)) {
        throw new TypeError(
          `Invalid role registry: "${role}" grants unknown role "${target}"`,
        );
      }
    }
  }
  const names = Object.freeze([...capabilities.keys()]);
  const none: readonly string[] = Object.freeze([]);
  return {
    capabilitiesOf: (role) => capabilities.get(role) ?? none,
    grantable: (role) => grants.get(role) ?? none,
    roles: () => names,
  };
}
