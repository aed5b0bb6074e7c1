/**
 * Gatehouse: session-cookie authentication for Deno.
 *
 * - {@linkcode createGatehouse}: the one place to configure it. It returns
 *   `routes`, the whole HTTP API as `{method, path, pattern, handler}`
 *   records with guards, limiters and cross-origin protection in place, and
 *   the services, guards and reaper behind them.
 * - For your own routes: {@linkcode identityFromContext} behind
 *   `guards.requireSession`, and {@linkcode respond},
 *   {@linkcode respondError}, {@linkcode decode}, {@linkcode AuthError} and
 *   {@linkcode errorResponseForAuthError} to answer in the same shape.
 * - Composing by hand: {@linkcode createAuth}, {@linkcode createAdmin},
 *   {@linkcode loginRateLimiter}, {@linkcode crossOriginGuard} and
 *   {@linkcode Reaper} are what `createGatehouse` is built from;
 *   {@linkcode firstRunInvitation} is the link that sets up the first
 *   administrator.
 *
 * Other entries: `@gatehouse/server/mail` (the mailers, `smtpMailer` and
 * `developmentMailer`, their templates and the mail options),
 * `@gatehouse/server/sso` (the types of the `sso` option),
 * `@gatehouse/server/kv`, `@gatehouse/server/postgres` and
 * `@gatehouse/server/sqlite` (the stores), `@gatehouse/server/store` (the
 * `Store` interface and its records, for writing a store),
 * `@gatehouse/server/conformance` (the suite a store must pass),
 * `@gatehouse/server/open` (a store from the environment) and
 * `@gatehouse/server/create-admin` (the command).
 *
 * @example Mounting every route on Deno.serve
 * ```ts
 * import { createGatehouse, USERS_MANAGE } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const { routes } = createGatehouse({
 *   store,
 *   roles: { admin: { capabilities: [USERS_MANAGE], grants: ["admin"] } },
 * });
 * const handler = (req: Request, info?: Deno.ServeHandlerInfo) => {
 *   const route = routes.find((r) => r.method === req.method && r.pattern.test(req.url));
 *   return route?.handler(req, undefined, info) ?? new Response("Not found", { status: 404 });
 * };
 * // Deno.serve(handler);
 * const res = await handler(new Request("http://localhost/api/auth/session"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 *
 * @module
 */

export {
  createGatehouse,
  type Gatehouse,
  type GatehouseGuards,
  type GatehouseLimiters,
  type GatehouseOptions,
} from "./server/gatehouse.ts";
export type { Route } from "./server/core/routes.ts";
export type { RoleOptions, SharedOptions } from "./server/core/options.ts";
export { USERS_MANAGE } from "@gatehouse/contract";
export { type Auth, type AuthOptions, createAuth } from "./server/core/auth.ts";
export {
  type Admin,
  type AdminOptions,
  createAdmin,
} from "./server/features/admin.ts";
export type { Account } from "./server/features/account.ts";
export type { SecondFactor } from "./server/features/second_factor.ts";
export type { Passkeys } from "./server/features/passkeys.ts";
export type { AccountLinks } from "./server/features/account_links.ts";
export type { RoleDefinition, RoleRegistry } from "./server/core/roles.ts";
export {
  crossOriginGuard,
  type CrossOriginGuardOptions,
} from "./server/http/cross_origin.ts";
export {
  decode,
  type DecodeOptions,
  type JsonObject,
} from "./server/http/decode.ts";
export {
  AuthError,
  type ErrorCode,
  errorResponseForAuthError,
} from "./server/http/errors.ts";
export {
  type Handler,
  type Middleware,
  respond,
  respondError,
} from "./server/http/respond.ts";
export {
  type Identity,
  identityFromContext,
  withIdentity,
} from "./server/core/identity.ts";
export type { Limits } from "./server/http/limits.ts";
export {
  firstRunInvitation,
  type FirstRunOptions,
} from "./server/features/first_run.ts";
export type { Logger } from "./server/http/logger.ts";
export {
  argon2Hasher,
  type Argon2Options,
  type PasswordHasher,
} from "./server/core/password.ts";
export type { TrustedProxy } from "./server/http/client_address.ts";
export {
  loginRateLimiter,
  type LoginRateLimiterOptions,
} from "./server/core/rate_limit.ts";
export {
  Reaper,
  type ReaperOptions,
  type SweepResult,
} from "./server/features/reaper.ts";
export type { Store } from "./server/core/store.ts";
