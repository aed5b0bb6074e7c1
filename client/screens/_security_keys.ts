// The cache keys of the account panel's lists, so one part can refresh
// another's (a password change ends the other sessions).

/** The signed-in account's sessions. */
export const SESSIONS_KEY = ["gatehouse", "sessions"] as const;
/** The signed-in account's own activity. */
export const ACTIVITY_KEY = ["gatehouse", "activity"] as const;
/** The signed-in account's passkeys. */
export const PASSKEYS_KEY = ["gatehouse", "passkeys"] as const;
/** The audit log's pages. */
export const AUDIT_KEY = ["gatehouse", "audit"] as const;
/** The server's single sign-on providers (they change with its configuration only). */
export const SSO_PROVIDERS_KEY = ["gatehouse", "sso-providers"] as const;
/** The identities at providers linked to the signed-in account. */
export const SSO_IDENTITIES_KEY = ["gatehouse", "sso-identities"] as const;
