// The account and roles every scenario uses, so that each variant answers
// the same identity: about 165 bytes of JSON with capabilities and
// grantable roles, like the demo's administrator.

import { roleRegistry } from "../server/core/roles.ts";

/** The session cookie every variant reads. */
export const COOKIE_NAME = "__Host-session";

/** The signed-in account. */
export const USER = {
  id: "0190f0a0-0000-7000-8000-000000000001",
  email: "ada.lovelace@example.com",
  name: "Ada Lovelace",
  role: "admin",
} as const;

/** A disabled account, for the reset-request equal-work comparison. */
export const DISABLED_USER = {
  id: "0190f0a0-0000-7000-8000-000000000002",
  email: "disabled@example.com",
  name: "Disabled",
  role: "member",
} as const;

/** Its password (argon2id at OWASP parameters in the store). */
export const PASSWORD = "correct horse battery staple";

/** The demo's roles (DESIGN.md §7), so identities carry both lists. */
export const ROLES = {
  admin: { capabilities: ["users.manage"], grants: ["admin", "member"] },
  member: {},
} as const;

/** A registry of {@linkcode ROLES}. */
export const registry = () =>
  roleRegistry({
    admin: {
      capabilities: [...ROLES.admin.capabilities],
      grants: [...ROLES.admin.grants],
    },
    member: {},
  });

/** The identity our session check answers for {@linkcode USER}. */
export const IDENTITY = {
  ...USER,
  capabilities: [...ROLES.admin.capabilities],
  grantable: [...ROLES.admin.grants],
};
