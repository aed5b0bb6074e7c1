/**
 * `@gatehouse/contract`: the HTTP contract of Gatehouse, written once, as
 * data. The server (`@gatehouse/server`) builds its routes from it, the
 * client (`@gatehouse/client`) its REST transport and test harness, and
 * {@linkcode openApiDocument} the OpenAPI 3.1 description.
 *
 * - {@linkcode OPERATIONS}: every operation by canonical name (method, path,
 *   guard, limiter, success status, its own refusals);
 *   {@linkcode errorsOf} adds the refusals that follow from the guard, the
 *   limiter and the mount; {@linkcode pathOf} fills in path values.
 * - {@linkcode ERROR_STATUS} and {@linkcode ERROR_MESSAGES}: every error
 *   code with its status and default message.
 * - {@linkcode SCHEMAS} and {@linkcode SHAPES}: bodies and answers as JSON
 *   Schema (draft 2020-12); the wire types in TypeScript beside them.
 * - {@linkcode USERS_MANAGE}: the capability of accounts that may
 *   administer users, on which the server and the screens agree.
 *
 * It has no dependencies and no side effects; a bundler keeps only what a
 * client uses (paths and statuses, not the schemas).
 *
 * @example An operation's route and refusals
 * ```ts
 * import { errorsOf, OPERATIONS } from "@gatehouse/contract";
 *
 * const { method, path } = OPERATIONS.login;
 * console.assert(method === "POST" && path === "/api/auth/login");
 * console.assert(errorsOf("login").includes("login_rate_limited"));
 * ```
 *
 * @module
 */

export {
  ERROR_MESSAGES,
  ERROR_STATUS,
  type ErrorCode,
  isErrorCode,
} from "./errors.ts";
export {
  type Guard,
  type Limiter,
  type Method,
  OPERATION_NAMES,
  type OperationName,
  OPERATIONS,
  type OperationSpec,
  pathOf,
} from "./operations.ts";
export { isolatedText } from "./bidi.ts";
export {
  API_VERSION,
  type OpenApiDocument,
  openApiDocument,
  type OpenApiOptions,
} from "./openapi.ts";
export { USERS_MANAGE } from "./roles.ts";
export {
  type AlternativeSuccess,
  AUDIT_EVENT_TYPES,
  type CookieEffect,
  EMAIL_SHAPE,
  emailDomain,
  errorsOf,
  type JsonSchema,
  LINK_STATES,
  type OperationShape,
  type SchemaName,
  SCHEMAS,
  SECOND_FACTOR_METHODS,
  SHAPES,
  SSO_ERROR_CODES,
  USER_SORTS,
} from "./shapes.ts";
export type {
  AuditAccountJson,
  AuditEventJson,
  AuditEventPageJson,
  AuditEventType,
  ErrorBody,
  IdentityJson,
  InvitationJson,
  InvitationListJson,
  InviteAnswer,
  JsonOf,
  LinkCheckJson,
  LinkState,
  PasskeyJson,
  PasskeyListJson,
  RecoveryCodeCountJson,
  RecoveryCodesJson,
  SecondFactorChallengeJson,
  SecondFactorMethod,
  SecondFactorStateJson,
  SessionJson,
  SessionListJson,
  SsoErrorCode,
  SsoIdentityJson,
  SsoIdentityListJson,
  SsoProviderJson,
  SsoProviderListJson,
  TotpSetupJson,
  UserJson,
  UserListJson,
  UserSort,
  WireOf,
} from "./json.ts";
