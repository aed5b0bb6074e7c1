/**
 * The role registry: which capabilities a role carries, which roles it may
 * hand out, and which roles exist at all. One concept, one name: the
 * option is `roles`, the type {@linkcode RoleRegistry}, and
 * {@linkcode roleRegistry} builds a fixed one from a plain object.
 *
 * @module
 */

/**
 * A role registry. `requireSession` asks it once per request, so a grant or a
 * revoke counts from the next request.
 *
 * @example A registry backed by a database table
 * ```ts
 * import { type RoleRegistry, USERS_MANAGE } from "@gatehouse/server";
 *
 * const table = new Map([["admin", [USERS_MANAGE]], ["member", []]]);
 * const registry: RoleRegistry = {
 *   capabilitiesOf: (role) => table.get(role) ?? [],
 *   roles: () => [...table.keys()],
 * };
 * ```
 */
export interface RoleRegistry {
  /** The capabilities of `role`; unknown roles have none. */
  capabilitiesOf(role: string):
    | readonly string[]
    | Promise<readonly string[]>;
  /**
   * The roles an account of `role` may hand out. Without this method every
   * known role is grantable and identities carry no `grantable` list.
   */
  grantable?(role: string):
    | readonly string[]
    | Promise<readonly string[]>;
  /** Every role the registry declares. */
  roles():
    | readonly string[]
    | Promise<readonly string[]>;
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
 * import { USERS_MANAGE } from "@gatehouse/server";
 * import { roleRegistry } from "./roles.ts";
 *
 * const registry = roleRegistry({
 *   admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
 *   member: {},
 * });
 * console.assert((await registry.roles()).length === 2);
 * ```
 */
export function roleRegistry(
  roles: Readonly<Record<string, RoleDefinition>>,
): RoleRegistry {
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
    capabilitiesOf: (role: string) => capabilities.get(role) ?? none,
    grantable: (role: string) => grants.get(role) ?? none,
    roles: () => names,
  };
}
