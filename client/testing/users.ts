/**
 * Accounts for tests, and a way to put one in the cache. Ids are derived from
 * the role, so the same role gives the same account in every test and every
 * run.
 *
 * @module
 */

import type { QueryClient } from "../_peer_types.ts";
import { sessionQueryKey } from "../_session_cache.ts";
import type { SessionUser, User } from "../types.ts";

/** When every test account was created. */
const CREATED_AT = "2026-01-01T00:00:00.000Z";

/** 32-bit FNV-1a of `text`, starting from `seed`. */
function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** A UUID (version 8, "custom") that depends only on `text`. */
function stableUuid(text: string): string {
  const hex = [0x811c9dc5, 0x050c5d1f, 0x1b873593, 0x68e31da4]
    .map((seed) => fnv1a(text, seed).toString(16).padStart(8, "0"))
    .join("");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${
    hex.slice(13, 16)
  }-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function slug(role: string): string {
  const cleaned = role.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(
    /^-+|-+$/g,
    "",
  );
  return cleaned === "" ? "user" : cleaned;
}

/**
 * A signed-in account with the given role and a stable id: the same role
 * always gives the same id, email and name. No capability lists (a server
 * without a registry).
 *
 * @param role The role; empty for none.
 * @returns The account.
 *
 * @example Stable ids
 * ```ts
 * import { userWithRole } from "@gatehouse/client/testing";
 *
 * console.assert(userWithRole("admin").id === userWithRole("admin").id);
 * console.assert(userWithRole("admin").id !== userWithRole("member").id);
 * ```
 */
export function userWithRole(role: string): SessionUser {
  const name = slug(role);
  return Object.freeze({
    id: stableUuid(`gatehouse-test-user:${role}`),
    email: `${name}@example.com`,
    name: role === "" ? "Test User" : `Test ${role}`,
    role,
  });
}

/**
 * The account tests sign in as unless told otherwise: it holds no role.
 *
 * @example Signing in as the default user
 * ```ts
 * import { defaultUser } from "@gatehouse/client/testing";
 *
 * console.assert(defaultUser.role === "");
 * ```
 */
export const defaultUser: SessionUser = userWithRole("");

/**
 * A signed-in account with a role, its capabilities and the roles it may
 * grant (both lists present, as from a server with a registry).
 *
 * @param role The role.
 * @param capabilities Its capabilities.
 * @param grantable The roles it may hand out; none by default.
 * @returns The account.
 *
 * @example An administrator of the demo's registry
 * ```ts
 * import { can } from "@gatehouse/client";
 * import { userWithCapabilities } from "@gatehouse/client/testing";
 *
 * const admin = userWithCapabilities("admin", ["users.manage"], ["admin", "member"]);
 * console.assert(can(admin, "users.manage"));
 * ```
 */
export function userWithCapabilities(
  role: string,
  capabilities: readonly string[],
  grantable: readonly string[] = [],
): SessionUser {
  return Object.freeze({
    ...userWithRole(role),
    capabilities: Object.freeze([...capabilities]),
    grantable: Object.freeze([...grantable]),
  });
}

/**
 * The listed account (`User`) of a signed-in one, as the administration
 * calls answer it: enabled, created at a fixed time.
 *
 * @param user The signed-in account; its lists are dropped.
 * @param changes Fields to override, e.g. `{disabled: true}`.
 * @returns The account as listed.
 *
 * @example A disabled member in a list
 * ```ts
 * import { accountOf, userWithRole } from "@gatehouse/client/testing";
 *
 * const member = accountOf(userWithRole("member"), { disabled: true });
 * console.assert(member.disabled && member.role === "member");
 * ```
 */
export function accountOf(
  user: SessionUser,
  changes: Partial<User> = {},
): User {
  const { id, email, name, role } = user;
  return Object.freeze({
    id,
    email,
    name,
    role,
    disabled: false,
    createdAt: CREATED_AT,
    ...changes,
  });
}

/**
 * Puts a signed-in account in a query client's cache, so the gate renders
 * the app straight away without asking the server.
 *
 * @param client The query client.
 * @param user The account.
 *
 * @example Starting a test signed in
 * ```ts
 * import { createAuthQueryClient, sessionQueryKey } from "@gatehouse/client";
 * import { defaultUser, seedSession } from "@gatehouse/client/testing";
 *
 * const client = createAuthQueryClient();
 * seedSession(client, defaultUser);
 * console.assert(client.getQueryData(sessionQueryKey) === defaultUser);
 * ```
 */
export function seedSession(client: QueryClient, user: SessionUser): void {
  client.setQueryData<SessionUser | null>(sessionQueryKey, user);
}
