// What a factor change writes on the account record. The account carries
// `totpEnabled`, `passkeyCount` and `factorVersion` so a sign-in learns them
// in the read it does anyway; every factor change rewrites the account in
// its own commit (checked against the account's version), which is also
// what keeps the passkey cap and the version exact under concurrency.

import type { AccountFactors } from "../store.ts";
import type { AccountRecord, Put } from "../records.ts";

/**
 * The account with some of its factor fields replaced. Whether it has a
 * password is not one: that is its password hash.
 */
export function withFactors(
  account: AccountRecord,
  factors: Partial<Omit<AccountFactors, "hasPassword">>,
): AccountRecord {
  return { ...account, ...factors };
}

/**
 * The account after a factor removal: `factors` replaced and the factor
 * version moved, which kills every pending sign-in bound to the old one.
 */
export function afterRemoval(
  account: AccountRecord,
  factors: Partial<Omit<AccountFactors, "factorVersion" | "hasPassword">>,
): AccountRecord {
  return withFactors(account, {
    ...factors,
    factorVersion: account.factorVersion + 1,
  });
}

/** The put that replaces the account `before` (as read) with `next`. */
export function accountPut(before: AccountRecord, next: AccountRecord): Put {
  return { kind: "account", value: next, before };
}

/**
 * Whether an account keeps a way to sign in with `passkeys` passkeys and
 * `identities` identities at providers left (DESIGN.md §13): a password,
 * a passkey or an identity. The one rule behind `last_sign_in_method`, for
 * an unlink and a passkey's removal alike.
 */
export function keepsAWayIn(
  account: AccountRecord,
  left: { passkeys: number; identities: number },
): boolean {
  return account.passwordHash !== "" || left.passkeys > 0 ||
    left.identities > 0;
}
