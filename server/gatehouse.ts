/**
 * `createGatehouse`: the one place an application configures Gatehouse.
 * Every setting is given once and every part reads it from here: sign-in,
 * administration, the public link routes, the rate limiters, the reaper,
 * and `routes`, the whole HTTP API as data with its guards in place.
 *
 * @module
 */

import { type OpenApiDocument, openApiDocument } from "@gatehouse/contract";
import type { Account } from "./features/account.ts";
import type { AccountLinks } from "./features/account_links.ts";
import { inBackground, settled } from "./http/_background.ts";
import { clientMeta } from "./http/_client_meta.ts";
import { isGuess } from "./core/_counted.ts";
import type { Admin } from "./features/admin.ts";
import { type Auth, authOn, authOperations } from "./core/auth.ts";
import { gatehouseContext } from "./core/context.ts";
import { crossOriginGuard } from "./http/cross_origin.ts";
import { madeOnFirstUse } from "./http/_lazy_import.ts";
import {
  defineOperation,
  handlersOf,
  type Operation,
} from "./core/operation.ts";
import { type Middleware, NO_STORE } from "./http/respond.ts";
import type { MailOptions, SharedOptions } from "./core/options.ts";
import type { MailCounts } from "./core/mail/outbox.ts";
import {
  loginRateLimiter,
  type LoginRateLimiterOptions,
} from "./core/rate_limit.ts";
import { Reaper } from "./features/reaper.ts";
import { authority } from "./core/_authority.ts";
import type { RoleDefinition, RoleRegistry } from "./core/roles.ts";
import { type Route, routeTable } from "./core/routes.ts";
import type { SecondFactor } from "./features/second_factor.ts";
import type { Passkeys } from "./features/passkeys.ts";
import type { SingleSignOn } from "./features/sso.ts";
import { featureOperations } from "./features/_deferred.ts";
import type { GatehouseSsoOptions } from "./core/sso_settings.ts";
import { resolveSsoProviders } from "./core/sso/provider_config.ts";

/**
 * WebAuthn challenges the public passkey options route writes per client
 * address and window by default: the login page asks for one per view (for
 * passkey autofill), and an office behind one address has many viewers.
 */
const DEFAULT_MAX_CHALLENGES = 100;

/** Options of {@linkcode createGatehouse}: every setting, once. */
export interface GatehouseOptions extends SharedOptions, MailOptions {
  /**
   * The roles: a plain object (`{admin: {capabilities: [USERS_MANAGE],
   * grants: ["admin", "member"]}, member: {}}`) or a {@linkcode RoleRegistry}
   * that answers synchronously. The roles whose capabilities hold
   * `USERS_MANAGE` are the ones that may administer users: the server's
   * privileged list is derived from them, so it cannot disagree with what
   * identities (and the client's screens) say.
   */
  roles?: RoleRegistry | Readonly<Record<string, RoleDefinition>>;
  /**
   * Without `roles` only: the roles that may administer users (empty or
   * absent: every account may). Their identities carry `USERS_MANAGE`.
   */
  privileged?: readonly string[];
  /** Session lifetime in ms; 7 days by default. */
  sessionTtl?: number;
  /** Session cookie name; `__Host-session` by default. */
  cookieName?: string;
  /**
   * The rate limiters' window (15 minutes by default) and thresholds per
   * client address and window: `maxFailures` counted answers of the
   * sign-in, reset-request and dead-link limiters (10 each by default), and
   * `maxChallenges` WebAuthn challenges written by the public passkey
   * options route (100 by default: the login page asks for one on every
   * view, for passkey autofill, and an office may share one address).
   */
  rateLimit?: {
    readonly maxFailures?: number;
    readonly maxChallenges?: number;
    readonly window?: number;
  };
  /**
   * A session unused this long (ms) is dead, as if expired; 24 hours by
   * default. `sessionTtl` still bounds it.
   */
  idleTimeout?: number;
  /**
   * How long (ms) a sign-in or re-authentication counts as recent for the
   * sensitive writes (the contract's `fresh` operations); 30 minutes by
   * default. Older: 403 `reauthentication_required`.
   */
  reauthenticationWindow?: number;
  /** How long (ms) the reaper keeps audit events; 90 days by default. */
  auditRetention?: number;
  /**
   * Roles whose accounts must have a second factor (TOTP or a passkey).
   * Such an account without one signs in normally, its Identity says
   * `second_factor_required: true`, and every operation but those the
   * contract flags `beforeSecondFactor` (session, sign-out, sessions,
   * enrolment, re-authentication) answers 403 `second_factor_required`
   * until it enrols.
   */
  requireSecondFactor?: readonly string[];
  /**
   * Keys that seal TOTP secrets at rest (AES-256-GCM), each the base64 of
   * 32 random bytes: the first seals new enrolments, every one opens (put a
   * new key first to rotate; drop an old one only once no secret sealed
   * with it is left). Without keys, secrets are stored as they are.
   */
  totpKeys?: readonly string[];
  /**
   * Keys that sign the trusted-device cookie `__Host-gatehouse-device`
   * (HMAC-SHA-256), each the base64 of at least 32 random bytes, rotated
   * like `totpKeys`: the first signs, every one verifies. A browser that
   * completed a sign-in to an address is counted by the account lock on
   * its own, so failed attempts from elsewhere do not lock it out
   * (DESIGN.md §15). Without keys, a random key of the process: give every
   * instance the same keys, or trusted browsers are trusted by one
   * instance only, until it restarts.
   */
  deviceKeys?: readonly string[];
  /**
   * Single sign-on with companies' OpenID Connect providers (DESIGN.md
   * §13): `{providers: [{id, name, issuer, clientId, clientSecret, domains,
   * createAccounts, roleClaim, roleMap, defaultRole, syncRole, enforce}]}`.
   * Each provider is discovered at start-up; one that cannot be reached
   * logs an error, answers 503 `provider_unavailable` and is tried again.
   * Needs `publicUrl` (each redirect URI is
   * `{publicUrl}/api/auth/sso/{id}/callback`).
   */
  sso?: GatehouseSsoOptions;
}

/** The guards `createGatehouse` built, for routes of your own. */
export interface GatehouseGuards {
  /** Admits requests with a live session; attaches the Identity. */
  readonly requireSession: Middleware;
  /** Behind `requireSession`: admits accounts that may administer users. */
  readonly requirePrivilege: Middleware;
  /** Behind `requireSession`: admits identities with `capability`. */
  requireCapability(capability: string): Middleware;
  /** Refuses cross-origin browser writes; mount it at your root. */
  readonly crossOrigin: Middleware;
}

/** The rate limiters of the routes, each counting apart. */
export interface GatehouseLimiters {
  /** Failed sign-ins per client address. */
  readonly login: Middleware;
  /** Password-reset requests per client address. */
  readonly reset: Middleware;
  /** Attempts with dead links (410) per client address. */
  readonly link: Middleware;
  /**
   * WebAuthn challenges written by the public passkey options route per
   * client address: every request counts, not only failures.
   */
  readonly challenge: Middleware;
}

/** What {@linkcode createGatehouse} returns, all built from one configuration. */
export interface Gatehouse {
  /** Sign-in, sessions and the direct methods. */
  readonly auth: Auth;
  /** User administration. */
  readonly admin: Admin;
  /** One's own password, sessions, re-authentication and activity. */
  readonly account: Account;
  /** Accepting invitations and password resets. */
  readonly links: AccountLinks;
  /** TOTP, recovery codes and the second step of a sign-in. */
  readonly secondFactor: SecondFactor;
  /** Passkeys: one's own, and signing in with one. */
  readonly passkeys: Passkeys;
  /** Single sign-on: the providers, sign-in, back-channel logout, identities. */
  readonly sso: SingleSignOn;
  /** The guards, for your own routes. */
  readonly guards: GatehouseGuards;
  /** The rate limiters the routes use. */
  readonly limiters: GatehouseLimiters;
  /**
   * The whole HTTP API: one record per operation, with its guard, limiter
   * and the cross-origin guard in place. Mount them all.
   */
  readonly routes: readonly Route[];
  /** The sweep of expired records; not started (`reaper.start()` or your own cron). */
  readonly reaper: Reaper;
  /** The OpenAPI 3.1 description `GET /api/openapi.json` serves. */
  readonly openapi: OpenApiDocument;
  /** The roles that may administer users, as derived from `roles`. */
  readonly privileged: readonly string[];
  /**
   * How many messages the mailer took and how many failed so far (each
   * failure is also logged): a live view, for health checks and metrics.
   */
  readonly mail: MailCounts;
  /**
   * Resolves once the work started after answers so far has finished
   * (refusal events, last-seen times, reset mail and notices handed to the
   * mailer): for tests and graceful shutdown.
   */
  settled(): Promise<void>;
}

/**
 * Builds all of Gatehouse from one configuration: sign-in, administration,
 * the link routes, the limiters, the reaper and `routes`, the HTTP API as
 * `{method, path, pattern, handler}` records. The lower-level factories
 * (`createAuth`, `createAdmin`, `createAccountLinks`, `loginRateLimiter`,
 * `Reaper`) remain for composing by hand.
 *
 * One authority decides who may administer users: the roles that carry
 * `USERS_MANAGE` (or, without `roles`, the `privileged` list, whose
 * identities then carry it). Options are checked here, once; a bad one
 * throws.
 *
 * @param options The store and every setting.
 * @returns The services, guards, limiters, reaper and routes.
 *
 * @example Mounting the whole API on a URLPattern table
 * ```ts
 * import { createGatehouse, USERS_MANAGE } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const { routes } = createGatehouse({
 *   store,
 *   roles: { admin: { capabilities: [USERS_MANAGE], grants: ["admin", "member"] }, member: {} },
 *   publicUrl: "https://app.example",
 * });
 * const serve = (req: Request, info?: Deno.ServeHandlerInfo) => {
 *   const route = routes.find((r) => r.method === req.method && r.pattern.test(req.url));
 *   return route?.handler(req, undefined, info) ?? new Response("Not found", { status: 404 });
 * };
 * const res = await serve(new Request("http://localhost/api/auth/session"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 */
export function createGatehouse(options: GatehouseOptions): Gatehouse {
  const { store } = options;
  if (store === undefined || store === null) {
    throw new TypeError("Invalid gatehouse options: a store is required");
  }
  const { privileged, roles } = authority(options);
  if (options.sso !== undefined && options.roles !== undefined) {
    // The mapped roles must be roles the application declares (checked
    // here, where the declared list is known; the context resolves again).
    const declared = roles.roles();
    if (Array.isArray(declared)) {
      resolveSsoProviders(options.sso, { knownRoles: declared });
    }
  }
  // The one context: every setting resolved here, once, and read by every
  // operation below (DEVELOPERS.md, "Decisions").
  const context = gatehouseContext({ ...options, privileged, roles });
  const { logger, trail } = context;
  // The OpenAPI description is built when first read (by the property or
  // `GET /api/openapi.json`), not at start-up: a cold start does not pay
  // for a document a session check never serves.
  let openapi: OpenApiDocument | undefined;
  const describe = () =>
    openapi ??= openApiDocument({
      cookieName: context.sessions.cookieName,
      ...(options.publicUrl === undefined
        ? {}
        : { servers: [options.publicUrl] }),
    });
  // Sign-in and the session check built now; each other feature's module
  // imported, and its operations built, by the first call of one of them
  // (features/_deferred.ts): a cold start pays for what it answers.
  const features = featureOperations(context);
  const operations = {
    ...authOperations(context),
    ...features.admin,
    ...features.links,
    ...features.account,
    ...features.secondFactor,
    ...features.passkeys,
    ...features.sso,
    describeApi: describeApiOperation(context, describe),
  };
  const limiter = (
    namespace: string,
    counts?: (res: Response) => boolean,
    more: Pick<
      LoginRateLimiterOptions,
      "maxFailures" | "onRefusal" | "reportFirstRefusalOnly" | "countsRefusal"
    > = {},
  ) =>
    loginRateLimiter({
      store,
      logger,
      namespace,
      now: context.now,
      ...defined({
        maxFailures: options.rateLimit?.maxFailures,
        window: options.rateLimit?.window,
        trustedProxy: context.trustedProxy,
        counts,
      }),
      ...defined(more),
    });
  // Password guesses: failed sign-ins, and a wrong current password of a
  // signed-in person (password change, re-authentication).
  // A 202 of login (the password was right, a second factor follows) is
  // no failure; a wrong code of the second step is (401, or the counted
  // 410 of the one that ends the pending sign-in; not the same 410 of a
  // pending sign-in already dead, which guesses nothing: _counted.ts). The
  // limiter answers what the operation throws, and asks the error itself
  // whether it was a guess (`countsRefusal`).
  // A call without a session never gets here: the routes put the limiter
  // behind the session guard, so its 401 `session_absent` neither counts
  // nor takes an attempt.
  const failedSignIn = (res: Response) => res.status === 401;
  const rateLimited = (req: Request, info?: Deno.ServeHandlerInfo) =>
    trail.refused([trail.event("login.rate_limited", {
      actor: null,
      client: clientMeta(req, info, options.trustedProxy),
      detail: { path: new URL(req.url).pathname.slice(0, 200) },
    })]);
  // Each answer of the passkey options route wrote a challenge (a 200), or
  // may have before failing (a 5xx: counted, the safe side). Counted by
  // requests, not failures: the write is the cost, whoever asks.
  // The start of a single sign-on writes a flow the same way: its 302.
  const wroteChallenge = (res: Response) =>
    res.ok || res.status === 302 || res.status >= 500;
  // A flood past either threshold records one `login.rate_limited` event
  // per address and window, not one per refused request: else the refusals
  // themselves would grow the store without bound (and be kept for the
  // audit retention), the very writes the limiters are there to stop.
  const limiters: GatehouseLimiters = Object.freeze({
    login: limiter("login", failedSignIn, {
      countsRefusal: isGuess,
      onRefusal: rateLimited,
      reportFirstRefusalOnly: true,
    }),
    reset: limiter("reset"),
    link: limiter("link", (res) => res.status === 410),
    challenge: limiter("challenge", wroteChallenge, {
      maxFailures: options.rateLimit?.maxChallenges ?? DEFAULT_MAX_CHALLENGES,
      onRefusal: rateLimited,
      reportFirstRefusalOnly: true,
    }),
  });
  const guards: GatehouseGuards = Object.freeze({
    requireSession: context.guards.session,
    requirePrivilege: context.guards.privilege,
    requireCapability: context.guards.capability,
    // Made by its first request, like the context's guards: it prepares
    // its refusal, an Error (http/_lazy_import.ts).
    crossOrigin: madeOnFirstUse(() => crossOriginGuard({ logger })),
  });
  const handlers = handlersOf(operations);
  const routes = routeTable(context, operations, {
    crossOrigin: guards.crossOrigin,
    limiters,
  });
  const auth = authOn(context);
  // Every provider discovered now, not at its first sign-in: one that is
  // down is logged at start-up. `settled()` waits for it.
  inBackground(
    store,
    context.sso.discover(),
    (error) => logger.error("SSO discovery failed", { error }),
  );
  return Object.freeze({
    auth,
    admin: {
      listUsers: handlers.listUsers,
      createUser: handlers.createUser,
      setUserDisabled: handlers.setUserDisabled,
      setUserRole: handlers.setUserRole,
      invite: handlers.invite,
      listInvitations: handlers.listInvitations,
      revokeInvitation: handlers.revokeInvitation,
      revokeUserSessions: handlers.revokeUserSessions,
      removeUserSecondFactor: handlers.removeUserSecondFactor,
      unlockUser: handlers.unlockUser,
      listAuditEvents: handlers.listAuditEvents,
      privileged,
    },
    account: {
      changePassword: handlers.changePassword,
      reauthenticate: handlers.reauthenticate,
      listSessions: handlers.listSessions,
      revokeSession: handlers.revokeSession,
      revokeOtherSessions: handlers.revokeOtherSessions,
      listActivity: handlers.listActivity,
      updateAccount: handlers.updateAccount,
    },
    links: {
      acceptInvite: handlers.acceptInvite,
      requestPasswordReset: handlers.requestPasswordReset,
      resetPassword: handlers.resetPassword,
      checkLink: handlers.checkLink,
    },
    secondFactor: {
      setupTotp: handlers.setupTotp,
      confirmTotp: handlers.confirmTotp,
      disableTotp: handlers.disableTotp,
      regenerateRecoveryCodes: handlers.regenerateRecoveryCodes,
      countRecoveryCodes: handlers.countRecoveryCodes,
      verifySecondFactor: handlers.verifySecondFactor,
    },
    passkeys: {
      passkeyRegistrationOptions: handlers.passkeyRegistrationOptions,
      registerPasskey: handlers.registerPasskey,
      listPasskeys: handlers.listPasskeys,
      renamePasskey: handlers.renamePasskey,
      removePasskey: handlers.removePasskey,
      passkeyLoginOptions: handlers.passkeyLoginOptions,
      loginWithPasskey: handlers.loginWithPasskey,
    },
    sso: {
      listSsoProviders: handlers.listSsoProviders,
      startSso: handlers.startSso,
      ssoCallback: handlers.ssoCallback,
      ssoBackchannelLogout: handlers.ssoBackchannelLogout,
      listSsoIdentities: handlers.listSsoIdentities,
      unlinkSsoIdentity: handlers.unlinkSsoIdentity,
    },
    guards,
    limiters,
    routes: Object.freeze(routes),
    reaper: new Reaper(store, {
      logger,
      now: context.now,
      ...defined({ auditRetention: options.auditRetention }),
    }),
    get openapi() {
      return describe();
    },
    privileged,
    mail: context.mail.counts,
    settled: () => settled(store),
  });
}

// Leaves out the keys whose value is undefined (exactOptionalPropertyTypes).
function defined<T extends Record<string, unknown>>(
  values: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined),
  ) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

function describeApiOperation(
  context: Parameters<typeof defineOperation>[0],
  document: () => OpenApiDocument,
): Operation {
  let body: string | undefined;
  // Like every answer of the API: the description changes with the
  // deployment's options and version, and a cache must not pin an old one.
  const headers = {
    "content-type": "application/json; charset=utf-8",
    ...NO_STORE,
  };
  return defineOperation(context, "describeApi", function describeApi() {
    body ??= JSON.stringify(document());
    return new Response(body, { headers });
  });
}
