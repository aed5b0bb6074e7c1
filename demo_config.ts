// The demo's roles (DESIGN.md §7), shared by the demo server and
// `deno task create-admin`: `admin` carries `users.manage` (so it is the
// role that may administer users, on the server and in the screens alike)
// and may grant `admin` and `member`; `member` carries nothing and grants
// nothing. An account may also have no role.

import { type RoleDefinition, USERS_MANAGE } from "@gatehouse/server";

/** The demo's roles, as `createGatehouse` and `runCreateAdmin` take them. */
export const ROLES: Readonly<Record<string, RoleDefinition>> = {
  admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] },
  member: {},
};
