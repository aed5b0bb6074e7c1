// Roles from the provider (DESIGN.md §13): `roleMap` maps values of the
// role claim to roles, the first entry whose value the claim holds winning.
// A created account falls back to `defaultRole`; a sync (`syncRole`) fails
// closed when the claim is absent: no role, never `defaultRole`, never the
// account's previous one. Whether the change may land (the last privileged
// account rule) is the store's decision, not this one's.

import type { SsoProvider } from "./provider_config.ts";

/**
 * The role `roleMap` gives for these claim values: the first entry, in map
 * order, whose value is among them; null when none is.
 *
 * @param provider The provider (its `roleMap`).
 * @param values The role claim's values, or null when the claim is absent.
 * @returns The mapped role, or null.
 *
 * @example First match in map order
 * ```ts
 * import { mappedRole } from "./role_map.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [p] = resolveSsoProviders({ providers: [{
 *   id: "p", name: "P", issuer: "https://idp.example", clientId: "a",
 *   clientSecret: "s", roleMap: [["admins", "admin"], ["staff", "member"]],
 * }] });
 * console.assert(mappedRole(p!, ["staff", "admins"]) === "admin");
 * console.assert(mappedRole(p!, ["guests"]) === null);
 * ```
 */
export function mappedRole(
  provider: SsoProvider,
  values: readonly string[] | null,
): string | null {
  if (values === null) return null;
  for (const [value, role] of provider.roleMap) {
    if (values.includes(value)) return role;
  }
  return null;
}

/**
 * The role of an account created at a first SSO sign-in: the mapped one,
 * else `defaultRole`, else none (null).
 *
 * @param provider The provider.
 * @param values The role claim's values, or null when absent.
 * @returns The role, or null for none.
 *
 * @example
 * ```ts
 * import { roleForNewAccount } from "./role_map.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [p] = resolveSsoProviders({ providers: [{
 *   id: "p", name: "P", issuer: "https://idp.example", clientId: "a",
 *   clientSecret: "s", defaultRole: "member",
 * }] });
 * console.assert(roleForNewAccount(p!, null) === "member");
 * ```
 */
export function roleForNewAccount(
  provider: SsoProvider,
  values: readonly string[] | null,
): string | null {
  return mappedRole(provider, values) ?? provider.defaultRole;
}

/**
 * The role `syncRole` sets at a sign-in: the mapped one, else
 * `defaultRole`; but none (null) when the claim is absent, so a provider
 * that stops sending the claim never leaves an elevated role in place.
 *
 * @param provider The provider.
 * @param values The role claim's values, or null when absent.
 * @returns The role to set, or null for none.
 *
 * @example Fails closed
 * ```ts
 * import { roleForSync } from "./role_map.ts";
 * import { resolveSsoProviders } from "./provider_config.ts";
 *
 * const [p] = resolveSsoProviders({ providers: [{
 *   id: "p", name: "P", issuer: "https://idp.example", clientId: "a",
 *   clientSecret: "s", defaultRole: "member", syncRole: true,
 * }] });
 * console.assert(roleForSync(p!, null) === null);
 * console.assert(roleForSync(p!, []) === "member");
 * ```
 */
export function roleForSync(
  provider: SsoProvider,
  values: readonly string[] | null,
): string | null {
  if (values === null) return null;
  return mappedRole(provider, values) ?? provider.defaultRole;
}
