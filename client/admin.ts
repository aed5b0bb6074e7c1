/**
 * `@gatehouse/client/admin`: user administration (list, create, disable or
 * enable, change role), invitations and password resets, with the errors
 * each call throws: {@linkcode EmailTakenError}, {@linkcode ValidationError}
 * and the role errors ({@linkcode RoleRefusedError},
 * {@linkcode SelfRoleError}, {@linkcode LastPrivilegedError},
 * {@linkcode RoleUnknownError}, {@linkcode RoleBeyondReachError},
 * {@linkcode RoleChangedError}).
 *
 * Like the session calls, these go through the transport: REST unless
 * `configureAuthTransport` replaced them. A server older than a feature
 * answers its routes with 404, which arrives as {@linkcode ServerTooOldError}
 * while everything else keeps working.
 *
 * @example Listing accounts in a component
 * ```tsx
 * import { fetchUsers } from "@gatehouse/client/admin";
 * import { useQuery } from "@tanstack/preact-query";
 *
 * export function Users() {
 *   const users = useQuery({ queryKey: ["users"], queryFn: () => fetchUsers() });
 *   return <ul>{users.data?.users.map((user) => <li key={user.id}>{user.name}</li>)}</ul>;
 * }
 * ```
 *
 * @module
 */

export {
  acceptInvite,
  createUser,
  fetchUsers,
  invite,
  requestPasswordReset,
  resetPassword,
  setUserDisabled,
  setUserRole,
} from "./admin_calls.ts";
export {
  EmailTakenError,
  ForbiddenError,
  InvalidTokenError,
  RateLimitedError,
  SelfDisableError,
  UnauthorizedError,
  UserNotFoundError,
  ValidationError,
} from "./errors.ts";
export {
  LastPrivilegedError,
  RoleBeyondReachError,
  RoleChangedError,
  RoleRefusedError,
  RoleUnknownError,
  SelfRoleError,
} from "./role_errors.ts";
export { InvitationFailedError, ServerTooOldError } from "./service_errors.ts";
export type {
  Invitation,
  InviteResult,
  NewUser,
  SetUserDisabledOptions,
  User,
  UserPage,
  UserQuery,
} from "./types.ts";
