// What the role registry answers, turned into identities and role rules.
// Shared by the session path (identities) and administration (who may grant
// what), so both read the registry the same way.

import { AuthError } from "../http/errors.ts";
import type { RoleRegistry } from "./roles.ts";
import type { Identity, SecondFactorSummary } from "./identity.ts";
import type { AccountFactors, UserRecord } from "./store.ts";

/**
 * What only the signed-in account's own Identity carries (sign-in answers
 * and the session): its second factors, whether its role's policy still
 * waits for one, and whether it has a password.
 */
export interface OwnFactors {
  /** The account's second factors, and whether it has a password. */
  readonly factors: Pick<
    AccountFactors,
    "totpEnabled" | "passkeyCount" | "hasPassword"
  >;
  /** Its role requires a second factor and it has none. */
  readonly required: boolean;
}

/**
 * Builds Identity values, reading the registry once per call; with `own`,
 * the account's own Identity. One frozen object per call, built in one
 * go: this runs on every guarded request.
 */
export function identityBuilder(
  registry: RoleRegistry | undefined,
): (user: UserRecord, own?: OwnFactors) => Promise<Identity> | Identity {
  if (registry === undefined) {
    return (user, own) => build(user, undefined, undefined, own);
  }
  const grantable = registry.grantable?.bind(registry);
  // A synchronous registry (such as roleRegistry) is answered without
  // promises or copies of frozen lists.
  return (user, own) => {
    const capabilities = registry.capabilitiesOf(user.role);
    const grants = grantable?.(user.role);
    if (capabilities instanceof Promise || grants instanceof Promise) {
      return Promise.all([capabilities, grants]).then(([c, g]) =>
        build(user, c, g, own)
      );
    }
    return build(user, capabilities, grants, own);
  };
}

function build(
  user: UserRecord,
  capabilities: readonly string[] | undefined,
  grantable: readonly string[] | undefined,
  own: OwnFactors | undefined,
): Identity {
  const identity: {
    -readonly [K in keyof Identity]: Identity[K];
  } = {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    locale: user.locale ?? "",
  };
  if (capabilities !== undefined) {
    identity.capabilities = frozenList(capabilities);
  }
  if (grantable !== undefined) identity.grantable = frozenList(grantable);
  if (own !== undefined) {
    identity.second_factor = summary(
      own.factors.totpEnabled,
      own.factors.passkeyCount,
    );
    identity.second_factor_required = own.required;
    identity.has_password = own.factors.hasPassword;
  }
  return Object.freeze(identity);
}

// The summaries of the usual factor counts, frozen once and shared by
// every Identity that shows them (no allocation per request).
const SUMMARIES = [false, true].map((totp) =>
  Array.from(
    { length: 32 },
    (_, passkeys): SecondFactorSummary => Object.freeze({ totp, passkeys }),
  )
);

function summary(totp: boolean, passkeys: number): SecondFactorSummary {
  return SUMMARIES[totp ? 1 : 0]![passkeys] ??
    Object.freeze({ totp, passkeys });
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

/**
 * The reach rule (DESIGN.md §5): an actor reaches what carries a role it
 * may grant, and what carries no role. `reachable` absent: everything (no
 * role rules apply). Account changes, invitation revocations and the
 * invitations an administrator lists all decide with it.
 */
export function withinReach(
  reachable: readonly string[] | undefined,
  role: string,
): boolean {
  return reachable === undefined || role === "" || reachable.includes(role);
}

/**
 * The reach rule's refusal, written once: 403 `role_beyond_reach` with
 * `message` (the sentence the caller sees, naming what it may not do)
 * unless `role` is within `reachable` ({@linkcode withinReach}).
 */
export function assertWithinReach(
  reachable: readonly string[] | undefined,
  role: string,
  message: string,
): void {
  if (!withinReach(reachable, role)) {
    throw new AuthError("role_beyond_reach", { message });
  }
}
