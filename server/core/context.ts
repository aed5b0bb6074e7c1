/**
 * The one context of a Gatehouse: every setting resolved once (store,
 * hasher, limits, logger, clock, audit trail, roles, sealing keys, the
 * sessions and the guards), and handed to every operation. Nothing below
 * `gatehouseContext` picks a default again: a handler reads what it needs
 * from the context it was built with.
 *
 * @module
 */

import { type AdminRules, adminRules } from "./_admin_rules.ts";
import { type AuditTrail, auditTrail } from "./_audit.ts";
import { type ClientMeta, clientMeta } from "../http/_client_meta.ts";
import { linkBase } from "./_links.ts";
import { type TotpSealing, totpSealing } from "./_totp_sealing.ts";
import { isCookieName } from "../http/cookie.ts";
import {
  capabilityGuard,
  freshGuard,
  privilegeGuard,
  secondFactorGuard,
  sessionGuard,
} from "./guards.ts";
import {
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_REAUTHENTICATION_WINDOW,
  DEFAULT_SESSION_TTL,
  type Limits,
  resolveLimits,
} from "../http/limits.ts";
import { defaultLogger, type Logger } from "../http/logger.ts";
import type { Mailer } from "./mailer.ts";
import type { AuthOptions, MailOptions } from "./options.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import { answeringErrors, type Middleware } from "../http/respond.ts";
import type { RoleRegistry } from "./roles.ts";
import { type Sessions, sessions } from "./sessions.ts";
import type { Store } from "./store.ts";
import type { TrustedProxy } from "../http/client_address.ts";

/** Every setting a context is built from; each has its default here. */
export interface ContextOptions extends AuthOptions, MailOptions {}

/** The guards of a context, each built once. */
export interface ContextGuards {
  /** Admits a live session and attaches its Identity to the request. */
  readonly session: Middleware;
  /** Behind `session`: admits the roles that may administer users. */
  readonly privilege: Middleware;
  /** Behind `session`: refuses a proof of identity older than the window. */
  readonly fresh: Middleware;
  /** Behind `session`: refuses an account that still owes a second factor. */
  readonly secondFactor: Middleware;
  /** Behind `session`: admits identities carrying `capability`. */
  capability(capability: string): Middleware;
}

/**
 * What every handler of a Gatehouse is built from: one per `createGatehouse`
 * (or per hand-composed `createAuth`), never re-resolved.
 */
export interface GatehouseContext {
  readonly store: Store;
  readonly hasher: PasswordHasher;
  readonly limits: Limits;
  readonly logger: Logger;
  /** The clock, ms since the epoch. */
  readonly now: () => number;
  /** The audit events of this configuration. */
  readonly trail: AuditTrail;
  readonly trustedProxy: TrustedProxy | undefined;
  /** The privileged roles (copied). */
  readonly privileged: readonly string[];
  /** The role registry identities read; none: no capabilities. */
  readonly capabilities: RoleRegistry | undefined;
  /** Who may administer whom (DESIGN.md §5). */
  readonly rules: AdminRules;
  readonly mailer: Mailer | undefined;
  /** The origin of every link (checked against the mailer), if given. */
  readonly linkBase: string | undefined;
  /** The site's public URL as given: a passkey's relying party. */
  readonly publicUrl: string | undefined;
  readonly idleTimeout: number;
  readonly reauthenticationWindow: number;
  /** The roles that must have a second factor. */
  readonly requireSecondFactor: ReadonlySet<string>;
  /** Seals TOTP secrets for the store and opens them (`totpKeys`). */
  readonly totpSealing: TotpSealing;
  /** Sign-in, issuing, checking and ending sessions. */
  readonly sessions: Sessions;
  /** The guards, built once. */
  readonly guards: ContextGuards;
  /** Answers a thrown error as its JSON (`answeringErrors`). */
  readonly answering: Middleware;
  /** The client of a request, as sessions and events record it. */
  client(req: Request, info?: Deno.ServeHandlerInfo): ClientMeta;
}

/**
 * Resolves every setting once and builds the context every handler is
 * given. A bad setting throws here.
 *
 * @param options The store and every setting.
 * @returns The context.
 *
 * @example One context, read by everything built on it
 * ```ts
 * import { gatehouseContext } from "./context.ts";
 * import { KvStore } from "../stores/kv/kv_store.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const context = gatehouseContext({ store: new KvStore(kv), privileged: ["admin"] });
 * console.assert(context.limits.maxBodyBytes > 0);
 * kv.close();
 * ```
 */
export function gatehouseContext(options: ContextOptions): GatehouseContext {
  const store = options.store;
  if (store === undefined || store === null) {
    throw new TypeError("Invalid gatehouse options: a store is required");
  }
  const cookieName = options.cookieName || "__Host-session";
  if (!isCookieName(cookieName)) {
    throw new TypeError(`Invalid cookie name: "${cookieName}"`);
  }
  const ttl = options.sessionTtl || DEFAULT_SESSION_TTL;
  if (!Number.isFinite(ttl) || ttl < 1000) {
    throw new RangeError("Invalid session TTL: use at least 1000 ms");
  }
  const idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  if (!Number.isFinite(idleTimeout) || idleTimeout < 1000) {
    throw new RangeError("Invalid idle timeout: use at least 1000 ms");
  }
  const reauthenticationWindow = options.reauthenticationWindow ??
    DEFAULT_REAUTHENTICATION_WINDOW;
  if (
    !Number.isFinite(reauthenticationWindow) || reauthenticationWindow < 1000
  ) {
    throw new RangeError(
      "Invalid re-authentication window: use at least 1000 ms",
    );
  }
  const capabilities = options.roles ?? options.capabilities;
  // Checks the privileged list ("" cannot be privileged) and copies it.
  const rules = adminRules(options.privileged ?? [], capabilities);
  const logger = options.logger ?? defaultLogger;
  const hasher = options.hasher ?? argon2Hasher({ logger });
  const limits = resolveLimits(options.limits);
  const now = options.now ?? Date.now;
  const trail = auditTrail({ store, logger, now, onEvent: options.onEvent });
  const requireSecondFactor: ReadonlySet<string> = new Set(
    options.requireSecondFactor ?? [],
  );
  const built = sessions({
    store,
    hasher,
    limits,
    logger,
    now,
    trail,
    registry: capabilities,
    cookieName,
    ttl,
    idleTimeout,
    requireSecondFactor,
  });
  const trustedProxy = options.trustedProxy;
  return Object.freeze({
    store,
    hasher,
    limits,
    logger,
    now,
    trail,
    trustedProxy,
    privileged: rules.privileged,
    capabilities,
    rules,
    mailer: options.mailer,
    linkBase: linkBase(options.publicUrl, options.mailer),
    publicUrl: options.publicUrl,
    idleTimeout,
    reauthenticationWindow,
    requireSecondFactor,
    totpSealing: totpSealing(options.totpKeys),
    sessions: built,
    guards: Object.freeze({
      session: sessionGuard(built.resolve, logger),
      privilege: privilegeGuard(rules.privileged, logger),
      fresh: freshGuard(reauthenticationWindow, now, logger),
      secondFactor: secondFactorGuard(logger),
      capability: (capability: string) => capabilityGuard(capability, logger),
    }),
    answering: answeringErrors(logger),
    client: (req: Request, info?: Deno.ServeHandlerInfo) =>
      clientMeta(req, info, trustedProxy),
  });
}

/**
 * The same context with other mail settings: for `createAccountLinks`
 * composed by hand over an existing `createAuth`, which takes its own
 * mailer and public URL.
 */
export function withMail(
  context: GatehouseContext,
  mail: MailOptions,
): GatehouseContext {
  if (mail.mailer === undefined && mail.publicUrl === undefined) return context;
  return Object.freeze({
    ...context,
    mailer: mail.mailer,
    linkBase: linkBase(mail.publicUrl, mail.mailer),
    publicUrl: mail.publicUrl,
  });
}

/**
 * The context a per-area factory composed by hand builds on: the one it is
 * given, or the context of the `auth` in its options with the options' own
 * public URL (a passkey's relying party, an account's links).
 */
export function contextOfOptions(
  options:
    | {
      readonly auth: { readonly context: GatehouseContext };
      readonly publicUrl?: string;
    }
    | GatehouseContext,
): GatehouseContext {
  if (isContext(options)) return options;
  return { ...options.auth.context, publicUrl: options.publicUrl };
}

/** Whether `value` is a context built by {@linkcode gatehouseContext}. */
export function isContext(value: unknown): value is GatehouseContext {
  return typeof value === "object" && value !== null &&
    "sessions" in value && "guards" in value && "rules" in value;
}
