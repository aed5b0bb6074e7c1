/**
 * `@gatehouse/client/admin`: user administration (list, create, disable or
 * enable, change role, invite, list and revoke pending invitations, end an
 * account's sessions, remove its second factor, unlock it after failed
 * sign-ins, read the audit log), with
 * the errors each call throws: {@linkcode EmailTakenError}, {@linkcode ValidationError}
 * and the role errors ({@linkcode RoleRefusedError},
 * {@linkcode SelfRoleError}, {@linkcode LastPrivilegedError},
 * {@linkcode RoleUnknownError}, {@linkcode RoleBeyondReachError},
 * {@linkcode RoleChangedError}), {@linkcode InvitationNotFoundError}.
 *
 * The operations of signed-out people (`acceptInvite`,
 * `requestPasswordReset`, `resetPassword`) moved to the main entry,
 * `@gatehouse/client`; the names here still work, deprecated, as does
 * `fetchUsers`, the earlier name of `listUsers`, also as a transport
 * operation ({@linkcode DeprecatedTransportNames}).
 *
 * Like the session calls, these go through the transport: REST unless
 * `configureAuthTransport` replaced them. A server older than a feature
 * answers its routes with 404, which arrives as {@linkcode ServerTooOldError}
 * while everything else keeps working.
 *
 * @example Listing accounts in a component
 * ```tsx
 * import { listUsers } from "@gatehouse/client/admin";
 * import { useQuery } from "@tanstack/preact-query";
 *
 * export function Users() {
 *   const users = useQuery({ queryKey: ["users"], queryFn: () => listUsers() });
 *   return <ul>{users.data?.users.map((user) => <li key={user.id}>{user.name}</li>)}</ul>;
 * }
 * ```
 *
 * @module
 */

export {
  createUser,
  invite,
  listInvitations,
  listUsers,
  revokeInvitation,
  setUserDisabled,
  setUserRole,
} from "./admin_calls.ts";
export {
  listAuditEvents,
  removeUserSecondFactor,
  revokeUserSessions,
  unlockUser,
} from "./admin_security_calls.ts";
export type {
  AuditAccount,
  AuditEvent,
  AuditEventPage,
  AuditEventType,
  AuditQuery,
} from "./security_types.ts";
export {
  acceptInvite,
  type DeprecatedTransportNames,
  fetchUsers,
  requestPasswordReset,
  resetPassword,
} from "./deprecated.ts";
export {
  EmailTakenError,
  ForbiddenError,
  InvalidTokenError,
  InvitationNotFoundError,
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
export {
  InvitationFailedError,
  type ServerFeature,
  ServerTooOldError,
} from "./service_errors.ts";
export type {
  InviteResult,
  NewInvitation,
  NewUser,
  PendingInvitation,
  SetUserDisabledOptions,
  User,
  UserPage,
  UserQuery,
  UserSort,
} from "./types.ts";
