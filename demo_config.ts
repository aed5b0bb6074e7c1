// The demo's roles (DESIGN.md §7), shared by the demo server and
// `deno task create-admin`: `admin` is privileged, carries `users.manage` and
// may grant `admin` and `member`; `member` carries nothing and grants nothing.
// An account may also have no role.

import { roleRegistry } from "./mod.ts";

/** Roles that pass `requirePrivilege` and may administer users. */
export const PRIVILEGED: readonly string[] = ["admin"];

/** The demo's role registry. */
export const ROLES = roleRegistry({
  admin: { capabilities: ["users.manage"], grants: ["admin", "member"] },
  member: {},
});
