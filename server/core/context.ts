/**
 * The one context of a Gatehouse: every setting resolved once (store,
 * hasher, limits, logger, clock, audit trail, roles, sealing keys, the
 * sessions and the guards), and handed to every operation. Nothing below
 * `gatehouseContext` picks a default again: a handler reads what it needs
 * from the context it was built with.
 *
 * @module
 */

import { type AccountLock, accountLock } from "./_account_lock.ts";
import { type AdminRules, adminRules } from "./_admin_rules.ts";
import { type AuditTrail, auditTrail, type CommitHook } from "./_audit.ts";
import { type ClientMeta, clientMeta } from "../http/_client_meta.ts";
import { hashToken } from "./_crypto.ts";
import { type DeviceKeys, deviceKeys } from "./_device_cookie.ts";
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
  DEFAULT_AUDIT_RETENTION,
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_REAUTHENTICATION_WINDOW,
  DEFAULT_SESSION_TTL,
  type Limits,
  resolveLimits,
} from "../http/limits.ts";
import { defaultLogger, type Logger } from "../http/logger.ts";
import type { Mailer } from "./mailer.ts";
import { mailOutbox, type Outbox } from "./mail/outbox.ts";
import { type NoticeAccounts, noticeAccounts } from "./mail/accounts.ts";
import { type RequestFacts, requestFactsBook } from "./mail/request_facts.ts";
import type { AuthOptions, MailOptions } from "./options.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import { answeringErrors, type Middleware } from "../http/respond.ts";
import { madeOnFirstUse } from "../http/_lazy_import.ts";
import type { RoleRegistry } from "./roles.ts";
import { type Sessions, sessions } from "./sessions.ts";
import {
  type GatehouseSsoOptions,
  type SsoSettings,
  ssoSettings,
} from "./sso_settings.ts";
import type { Store } from "./store.ts";
import type { TrustedProxy } from "../http/client_address.ts";

/** Every setting a context is built from; each has its default here. */
export interface ContextOptions extends AuthOptions, MailOptions {
  /** Single sign-on providers (DESIGN.md §13); none by default. */
  sso?: GatehouseSsoOptions;
  /**
   * How long (ms) the audit trail keeps events (the reaper's setting; 90
   * days by default): within it, no earlier sign-in is an account's first.
   */
  auditRetention?: number;
}

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
  /** The mail: which kinds go out, templates, languages, sends, notices. */
  readonly mail: Outbox;
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
  /** Single sign-on: the providers, their connections, enforcement. */
  readonly sso: SsoSettings;
  /**
   * Failed proofs counted per address key, and the trusted-device cookie
   * (DESIGN.md §15).
   */
  readonly accountLock: AccountLock;
  /** The guards, built once. */
  readonly guards: ContextGuards;
  /** Answers a thrown error as its JSON (`answeringErrors`). */
  readonly answering: Middleware;
  /** The client of a request, as sessions and events record it. */
  client(req: Request, info?: Deno.ServeHandlerInfo): ClientMeta;
  /** What a notice needs of the request a client meta was made from. */
  requestFacts(client: object): RequestFacts | undefined;
  /** What the notices read of their accounts; a sign-in sets the language. */
  readonly noticeAccounts: NoticeAccounts;
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
  const base = linkBase(options.publicUrl, options.mailer);
  // Notices are sent from the events a change commits (mail/notices.ts),
  // in the language and after the answer of the request that made them
  // (mail/request_facts.ts: noted by `client` below).
  const requests = requestFactsBook();
  const mail = mailOutbox(mailSettings(options, base), {
    logger,
    owner: store,
  });
  const accounts = noticeAccounts({
    store,
    logger,
    retention: options.auditRetention ?? DEFAULT_AUDIT_RETENTION,
  });
  const devices = deviceKeysOf(options.deviceKeys, now);
  const trail = auditTrail({
    store,
    logger,
    now,
    onEvent: options.onEvent,
    onCommitted: notifier(mail, requests.of, accounts),
  });
  const requireSecondFactor: ReadonlySet<string> = new Set(
    options.requireSecondFactor ?? [],
  );
  const sso = ssoSettings(options.sso, {
    publicUrl: options.publicUrl,
    logger,
    now,
  });
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
    enforcedBy: (emailKey) => sso.enforcedBy(emailKey)?.id ?? null,
    // The browser a sign-in's event names, for the `new_sign_in` notice.
    presentedDevice: (client, emailKey) => {
      const cookie = requests.of(client)?.deviceCookie ?? null;
      const id = cookie === null ? null : devices.deviceOf(cookie, emailKey);
      return id === null ? null : hashToken(id);
    },
  });
  const trustedProxy = options.trustedProxy;
  const lock = accountLock({
    store,
    limits,
    logger,
    now,
    trail,
    devices,
    // Unused: the `account_locked` notice (DESIGN.md §14) comes from the
    // committed `login.locked` event (mail/notices.ts), which carries the
    // refused attempt's browser and address; a hook would send it twice.
    onLocked: undefined,
  });
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
    mail,
    linkBase: base,
    publicUrl: options.publicUrl,
    idleTimeout,
    reauthenticationWindow,
    requireSecondFactor,
    totpSealing: totpSealing(options.totpKeys),
    sessions: built,
    sso,
    accountLock: lock,
    guards: Object.freeze({
      session: sessionGuard(built.resolve, logger),
      // Made by their first request: each prepares its refusal, an Error,
      // which costs a cold start a parse at start-up (../http/_lazy_import.ts).
      privilege: madeOnFirstUse(() => privilegeGuard(rules.privileged, logger)),
      fresh: madeOnFirstUse(() =>
        freshGuard(reauthenticationWindow, now, logger)
      ),
      secondFactor: madeOnFirstUse(() => secondFactorGuard(logger)),
      capability: (capability: string) => capabilityGuard(capability, logger),
    }),
    answering: answeringErrors(logger),
    client: (req: Request, info?: Deno.ServeHandlerInfo) =>
      requests.note(clientMeta(req, info, trustedProxy), req, info),
    requestFacts: requests.of,
    noticeAccounts: accounts,
  });
}

// The trusted-device keys (DESIGN.md §15). Given keys are read now, so a
// bad one throws at start-up. Without any, the process's random key is
// made by the first sign-in that reads or issues a device cookie, not at
// start-up: a cold start answering a session check needs none, and making
// one (random bytes, a hash) was the largest single step of
// `gatehouseContext` (issue 31).
function deviceKeysOf(
  keys: readonly string[] | undefined,
  now: () => number,
): DeviceKeys {
  if (keys !== undefined && (!Array.isArray(keys) || keys.length > 0)) {
    return deviceKeys(keys, now);
  }
  let made: DeviceKeys | undefined;
  const keysMade = () => made ??= deviceKeys(keys, now);
  return {
    deviceOf: (cookie, addressKey) => keysMade().deviceOf(cookie, addressKey),
    issue: (cookie, addressKey) => keysMade().issue(cookie, addressKey),
  };
}

function mailSettings(options: MailOptions, base: string | undefined) {
  return {
    mailer: options.mailer,
    linkBase: base,
    productName: options.productName,
    templates: options.templates,
    notices: options.notices,
  };
}

// The commit hook of a trail: a sign-in sets its account's language, and
// the notices of committed events go out, each with the facts of the
// request it was made in, the name of its account and what the notice
// reads of that account after the answer.
function notifier(
  mail: Outbox,
  factsOf: (client: object) => RequestFacts | undefined,
  accounts: NoticeAccounts,
): CommitHook {
  return (events, partsOf) => {
    for (const event of events) {
      const parts = partsOf(event);
      accounts.committed(
        event,
        parts,
        parts === undefined ? undefined : factsOf(parts.client),
      );
    }
    mail.notify(events, (event) => {
      const parts = partsOf(event);
      if (parts === undefined) return undefined;
      const account = parts.target === undefined ? parts.actor : parts.target;
      return {
        request: factsOf(parts.client),
        name: account?.name,
        ...accounts.origin(event),
      };
    });
  };
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
  const base = linkBase(mail.publicUrl, mail.mailer);
  const outbox = context.mail.reconfigured(mailSettings(mail, base));
  return Object.freeze({
    ...context,
    mailer: mail.mailer,
    mail: outbox,
    trail: context.trail.withCommitHook(
      notifier(outbox, context.requestFacts, context.noticeAccounts),
    ),
    linkBase: base,
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
