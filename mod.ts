/**
 * Gatehouse: session-cookie authentication for Deno.
 *
 * - {@linkcode createAuth}: login, logout and session handlers, the direct
 *   methods behind them, and the `requireSession`, `requirePrivilege` and
 *   `requireCapability` guards.
 * - {@linkcode crossOriginGuard}: refuses cross-origin browser writes.
 * - {@linkcode createAdmin}: list, create, disable or enable accounts and
 *   change their roles, under race-free role rules; invite, list the pending
 *   invitations and revoke one.
 * - {@linkcode createAccountLinks}: accepting invitations and password
 *   resets, each link spent under the authority it was issued with;
 *   {@linkcode developmentMailer} prints their mail in development.
 * - {@linkcode runCreateAdmin}: the `deno task create-admin` command.
 * - {@linkcode loginRateLimiter}: counts failed sign-ins, reset requests and
 *   dead-link attempts per client IP in the store, reserving each attempt
 *   before the handler runs; 429 `login_rate_limited` past the threshold.
 * - {@linkcode Reaper}: the hourly sweep of expired sessions, links and
 *   limiter counters.
 * - {@linkcode respond}, {@linkcode respondError}, {@linkcode decode} and
 *   {@linkcode errorResponseForAuthError} for handlers of your own that answer
 *   in the same shape.
 * - Stores live in their own entries: `@gatehouse/server/kv` (Deno KV) and
 *   `@gatehouse/server/postgres`; `@gatehouse/server/conformance` tests yours.
 *
 * @example Sign in and read the session back
 * ```ts
 * import { createAuth } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const res = await auth.session(new Request("http://localhost/api/auth/session"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 *
 * @module
 */

export {
  type Admin,
  type AdminConfig,
  createAdmin,
  type UserJson,
  type UserListJson,
} from "./server/admin.ts";
export {
  type AccountLinks,
  type AccountLinksConfig,
  createAccountLinks,
} from "./server/account_links.ts";
export { type Auth, type AuthConfig, createAuth } from "./server/auth.ts";
export {
  type CapabilityRegistry,
  type MaybePromise,
  type RoleDefinition,
  roleRegistry,
  type StaticRoleRegistry,
} from "./server/capabilities.ts";
export {
  type CookieOptions,
  isCookieName,
  readCookie,
  serializeCookie,
} from "./server/cookie.ts";
export {
  type CreateAdminIo,
  type CreateAdminOptions,
  EXIT_CANCELLED,
  EXIT_CREATED,
  EXIT_REFUSED,
  EXIT_USAGE,
  type OpenedStoreHandle,
  runCreateAdmin,
} from "./server/create_admin.ts";
export {
  checkCrossOrigin,
  crossOriginGuard,
  type CrossOriginVerdict,
} from "./server/cross_origin.ts";
export {
  decode,
  type DecodeOptions,
  type JsonObject,
} from "./server/decode.ts";
export {
  AuthError,
  type AuthErrorOptions,
  ERROR_STATUS,
  type ErrorBody,
  type ErrorCode,
  type ErrorMeta,
  errorResponseForAuthError,
} from "./server/errors.ts";
export {
  type Handler,
  type Middleware,
  respond,
  respondError,
} from "./server/http.ts";
export {
  type Identity,
  identityFromContext,
  withIdentity,
} from "./server/identity.ts";
export {
  DEFAULT_LIMITS,
  DEFAULT_SESSION_TTL,
  type Limits,
} from "./server/limits.ts";
export {
  firstRunInvitation,
  type FirstRunOptions,
} from "./server/first_run.ts";
export type { InviteAnswer } from "./server/invitations.ts";
export { defaultLogger, type Logger } from "./server/logger.ts";
export {
  developmentMailer,
  type DevelopmentMailerOptions,
  type Mailer,
  type MailKind,
  type MailMessage,
} from "./server/mailer.ts";
export type {
  InvitationJson,
  InvitationListJson,
  InviterJson,
} from "./server/invitation_admin.ts";
export {
  argon2Hasher,
  type Argon2Options,
  type Argon2Params,
  OWASP_ARGON2ID,
  parsePhc,
  type PasswordHasher,
} from "./server/password.ts";
export {
  clientAddress,
  type ClientAddressOptions,
  loginRateLimiter,
  type LoginRateLimiterOptions,
  type TrustedProxy,
} from "./server/rate_limit.ts";
export {
  Reaper,
  type ReaperOptions,
  type SweepResult,
} from "./server/reaper.ts";
export type {
  AttemptWindow,
  Counter,
  InvitationAcceptance,
  InvitationRevocation,
  LinkKind,
  LinkRecord,
  NewSession,
  NewUser,
  Reservation,
  ResetConfirmation,
  SessionLookup,
  Store,
  UserCredentials,
  UserPage,
  UserQuery,
  UserRecord,
  UserUpdate,
} from "./server/store.ts";
