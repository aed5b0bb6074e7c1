// What several rules need of the same records: the public form of an
// account, and the names of the tallies whose versions serialise a rule.

import type { AccountRecord } from "../records.ts";
import type { AccountFactors, UserRecord } from "../store.ts";

/** The account as `Store` shows it: no credential material. */
export function toUserRecord(account: AccountRecord): UserRecord {
  return {
    id: account.id,
    email: account.email,
    name: account.name,
    role: account.role,
    disabled: account.disabled,
    createdAt: account.createdAt,
    // A record written before accounts had a language has none.
    locale: account.locale ?? "",
    localeChosen: account.localeChosen ?? false,
  };
}

/**
 * The account's second factors, and whether it has a password, as `Store`
 * shows them.
 */
export function factorsOf(account: AccountRecord): AccountFactors {
  return {
    totpEnabled: account.totpEnabled,
    passkeyCount: account.passkeyCount,
    factorVersion: account.factorVersion,
    hasPassword: account.passwordHash !== "",
  };
}

/**
 * The tallies. `role:{role}` counts the enabled accounts of a role and
 * `enabled` all enabled accounts (the last-privileged-account rule checks
 * their versions); `sessions:{userId}` moves with every session an account
 * gains or loses (the session cap checks its version);
 * `invitation:{emailKey}` moves with every invitation for an address (one
 * pending invitation per address); `identities:{userId}` moves with every
 * identity an account links or unlinks (an unlink checks it, so two racing
 * unlinks cannot both leave the other as the last way in).
 */
export const tally = {
  role: (role: string): string => `role:${role}`,
  enabled: (): string => "enabled",
  sessions: (userId: string): string => `sessions:${userId}`,
  invitation: (emailKey: string): string => `invitation:${emailKey}`,
  identities: (userId: string): string => `identities:${userId}`,
} as const;
