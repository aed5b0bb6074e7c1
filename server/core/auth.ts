/**
 * `createAuth`: sign-in with email and password, server-side sessions in a
 * cookie, and the guards that read them.
 *
 * @module
 */

import { type AuditTrail, auditTrail } from "./_audit.ts";
import { inBackground } from "../http/_background.ts";
import { type ClientMeta, clientMeta } from "../http/_client_meta.ts";
import {
  hashToken,
  randomToken,
  sessionToken,
  sessionTokenAccount,
  uuidv7,
} from "./_crypto.ts";
import { isSignInPassword, recordableAddress, signInKey } from "./_input.ts";
import {
  attachContext,
  type Identity,
  identityFromContext,
} from "./identity.ts";
import { identityBuilder } from "./_roles.ts";
import { isCookieName, readCookie, serializeCookie } from "../http/cookie.ts";
import { decode, requiredString } from "../http/decode.ts";
import { AuthError } from "../http/errors.ts";
import { capabilityGuard, privilegeGuard, sessionGuard } from "./guards.ts";
import {
  answeringErrors,
  type Handler,
  type Middleware,
  NO_STORE,
  respond,
} from "../http/respond.ts";
import {
  DEFAULT_IDLE_TIMEOUT,
  DEFAULT_REAUTHENTICATION_WINDOW,
  DEFAULT_SESSION_TTL,
  type Limits,
  resolveLimits,
} from "../http/limits.ts";
import { defaultLogger, type Logger } from "../http/logger.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import { type TotpSealing, totpSealing as sealingOf } from "./_totp_sealing.ts";
import type { RoleOptions, SharedOptions } from "./options.ts";
import type { RoleRegistry } from "./roles.ts";
import type {
  AccountFactors,
  AuditEvent,
  Store,
  UserCredentials,
  UserRecord,
} from "./store.ts";
import type { SecondFactorMethod } from "@gatehouse/contract";

/** Options of {@linkcode createAuth}. */
export interface AuthOptions extends SharedOptions, RoleOptions {
  /** Session cookie name; `__Host-session` by default. */
  cookieName?: string;
  /** Session lifetime in ms; bounds the session and the cookie's Max-Age. 7 days by default. */
  sessionTtl?: number;
  /**
   * A session unused this long (ms) is dead; 24 hours by default. Use is
   * recorded at most once per min(60 s, idleTimeout / 10) per session.
   */
  idleTimeout?: number;
  /**
   * How long (ms) a proof of identity counts as recent for the sensitive
   * writes (`fresh` operations); 30 minutes by default.
   */
  reauthenticationWindow?: number;
  /**
   * Roles whose accounts must have a second factor (TOTP or a passkey).
   * Such an account without one signs in, its Identity says
   * `second_factor_required: true`, and every operation but enrolment
   * answers 403 `second_factor_required` until it enrols.
   */
  requireSecondFactor?: readonly string[];
  /**
   * Keys that seal TOTP secrets at rest (AES-256-GCM), each the base64 of
   * 32 random bytes: the first seals new enrolments, every one opens, so a
   * key is rotated by putting the new one first. Without keys, secrets are
   * stored as they are; secrets stored before keys were set keep working.
   * A malformed key throws a `TypeError` here.
   */
  totpKeys?: readonly string[];
}

/** The cookie of a sign-in waiting for its second factor. */
export const PENDING_COOKIE = "__Host-gatehouse-pending";
/** How long a pending sign-in lives, ms (also its cookie's Max-Age). */
export const PENDING_TTL = 5 * 60_000;

/** How a session's holder proved who they are, as events name it. */
export type SignInMethod = "password" | SecondFactorMethod;

/** What a session issued after a sign-in is bound to. */
export interface SignInBinding {
  /** The generation the password was verified under; absent: any. */
  generation?: number;
  /** The factor version a second factor was verified under; absent: any. */
  factorVersion?: number;
  /** The proof, for the `login.succeeded` event. */
  method: SignInMethod;
}

/**
 * @deprecated Use {@linkcode AuthOptions}: every options type is `*Options`.
 */
export type AuthConfig = AuthOptions;

/** What {@linkcode createAuth} returns: direct methods, handlers and guards. */
export interface Auth {
  /**
   * The Identity for an email and password. Throws `AuthError`
   * `credentials_invalid` for an unknown email, a wrong password or a
   * disabled account alike, after the same password work in each case. An
   * email or password that breaks the input rules is an unknown email or a
   * wrong password.
   */
  authenticate(email: string, password: string): Promise<Identity>;
  /**
   * Issues a session for an enabled account, within its session cap;
   * returns the `Set-Cookie` value (it does not set it). Unlike `login`, it
   * is not bound to a password check: `login` records its session only if
   * the password it verified is still the account's.
   */
  startSession(userId: string): Promise<string>;
  /** Deletes the session behind `token`; returns the clearing `Set-Cookie` value. */
  endSession(token: string): Promise<string>;
  /** The Identity behind a session token, or null. */
  sessionIdentity(token: string): Promise<Identity | null>;
  /** The configured cookie name. */
  cookieName(): string;
  /** `POST /api/auth/login` `{email, password}`: 200 Identity + `Set-Cookie`. */
  login: Handler;
  /** `POST /api/auth/logout`: 204 + clearing `Set-Cookie`, with or without a session. */
  logout: Handler;
  /** `GET /api/auth/session`: 200 Identity, or 401 `session_absent`. Guards itself. */
  fetchSession: Handler;
  /** @deprecated Use {@linkcode Auth.fetchSession}: the same handler. */
  session: Handler;
  /** Admits only requests with a live session; attaches the Identity. */
  requireSession: Middleware;
  /** Behind `requireSession`: admits only privileged roles (`role_insufficient`). */
  requirePrivilege: Middleware;
  /** Behind `requireSession`: admits only identities with `capability` (`capability_missing`). */
  requireCapability(capability: string): Middleware;
  /** The privileged roles, as copied at construction. */
  readonly privileged: readonly string[];
  /** Builds the Identity of an account, reading the registry now. */
  identityOf(user: UserRecord): Promise<Identity>;
}

// A session's token and cookie, made before it is recorded.
interface SessionTicket {
  userId: string;
  tokenHash: string;
  id: string;
  cookie: string;
}

/** What the link and account handlers need of an Auth. */
export interface SessionIssuer {
  /**
   * A fresh session token for the account `userId`: its digest, public id
   * and expiry, and the cookie that carries it.
   */
  issue(now: number, userId: string): {
    tokenHash: string;
    id: string;
    expiresAt: number;
    cookie: string;
  };
  /** The privileged roles and the registry the Auth was built with. */
  privileged: readonly string[];
  capabilities: RoleRegistry | undefined;
  /** The settings the Auth was built with. */
  store: Store;
  hasher: PasswordHasher;
  limits: Limits;
  logger: Logger;
  now: () => number;
  idleTimeout: number;
  reauthenticationWindow: number;
  /** The cookie that clears the session cookie. */
  clearing: string;
  /** The client of a request, as sessions and events record it. */
  client(req: Request, info?: Deno.ServeHandlerInfo): ClientMeta;
  /** The events of this configuration. */
  trail: AuditTrail;
  /**
   * Whether `password` is the account's current one: the same single
   * argon2 verification whatever the answer; the credentials it was
   * verified under, or null.
   */
  verifyPassword(
    email: string,
    password: string,
  ): Promise<UserCredentials | null>;
  /**
   * Records a session after a sign-in, bound to what the proof was
   * verified under, with its `login.succeeded` event; `credentials_invalid`
   * when the account changed meanwhile. Returns the cookie and the events
   * (hand them to `trail.committed`).
   */
  signIn(
    user: UserRecord,
    binding: SignInBinding,
    client: ClientMeta,
  ): Promise<{ cookie: string; events: AuditEvent[] }>;
  /** The Identity of one's own account: with its second factors. */
  ownIdentity(user: UserRecord, factors: AccountFactors): Promise<Identity>;
  /** The roles that must have a second factor. */
  requireSecondFactor: ReadonlySet<string>;
  /** Seals TOTP secrets for the store and opens them (`totpKeys`). */
  totpSealing: TotpSealing;
}

// Module-private: the link handlers find an Auth's issuer here, so the
// public Auth stays what DESIGN.md §3 lists.
const issuers = new WeakMap<Auth, SessionIssuer>();

/** The session issuer of an Auth made by {@linkcode createAuth}. */
export function sessionIssuer(auth: Auth): SessionIssuer {
  const issuer = issuers.get(auth);
  if (issuer === undefined) {
    throw new TypeError("Invalid auth: use the value createAuth() returned");
  }
  return issuer;
}

const IDENTITY_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  ...NO_STORE,
};

/**
 * Builds the authentication service.
 *
 * This is the hand-composition path: `createGatehouse` builds it (with the
 * administration, the links, the limiters and the routes) from one set of
 * options.
 *
 * @param config Store, cookie, lifetime, roles and collaborators.
 * @returns The direct methods, the three handlers and the guards.
 *
 * @example Reading the session of a request
 * ```ts
 * import { createAuth } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store, privileged: ["admin"] });
 * const res = await auth.fetchSession(new Request("http://localhost/api/auth/session"));
 * console.assert(res.status === 401);
 * kv.close();
 * ```
 */
export function createAuth(config: AuthOptions): Auth {
  const store = config.store;
  if (store === undefined || store === null) {
    throw new TypeError("Invalid auth config: a store is required");
  }
  const name = config.cookieName || "__Host-session";
  if (!isCookieName(name)) {
    throw new TypeError(`Invalid cookie name: "${name}"`);
  }
  const ttl = config.sessionTtl || DEFAULT_SESSION_TTL;
  if (!Number.isFinite(ttl) || ttl < 1000) {
    throw new RangeError("Invalid session TTL: use at least 1000 ms");
  }
  const idleTimeout = config.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
  if (!Number.isFinite(idleTimeout) || idleTimeout < 1000) {
    throw new RangeError("Invalid idle timeout: use at least 1000 ms");
  }
  const reauthenticationWindow = config.reauthenticationWindow ??
    DEFAULT_REAUTHENTICATION_WINDOW;
  if (
    !Number.isFinite(reauthenticationWindow) || reauthenticationWindow < 1000
  ) {
    throw new RangeError(
      "Invalid re-authentication window: use at least 1000 ms",
    );
  }
  // Use is written at most this often per session (DESIGN.md §8).
  const touchInterval = Math.min(60_000, idleTimeout / 10);
  const maxAge = Math.floor(ttl / 1000);
  const privileged = Object.freeze([...(config.privileged ?? [])]);
  if (privileged.includes("")) {
    throw new TypeError(
      'Invalid privileged roles: "" (no role) cannot be privileged',
    );
  }
  const logger = config.logger ?? defaultLogger;
  const hasher = config.hasher ?? argon2Hasher({ logger });
  const limits = resolveLimits(config.limits);
  const now = config.now ?? Date.now;
  const registry = config.roles ?? config.capabilities;
  const trustedProxy = config.trustedProxy;
  const client = (req: Request, info?: Deno.ServeHandlerInfo) =>
    clientMeta(req, info, trustedProxy);
  const trail = auditTrail({ store, logger, now, onEvent: config.onEvent });
  const buildIdentity = identityBuilder(registry);
  const identityOf = (user: UserRecord) => Promise.resolve(buildIdentity(user));
  const totpSealing = sealingOf(config.totpKeys);
  const requireSecondFactor: ReadonlySet<string> = new Set(
    config.requireSecondFactor ?? [],
  );
  // The signed-in account's own Identity: its factors, and whether its
  // role's policy still waits for one.
  const own = (user: UserRecord, factors: AccountFactors) => ({
    factors,
    required: !hasSecondFactor(factors) && requireSecondFactor.has(user.role),
  });
  const ownIdentity = (user: UserRecord, factors: AccountFactors) =>
    Promise.resolve(buildIdentity(user, own(user, factors)));

  // Unknown emails verify against this hash so every login path does the same
  // argon2 work. Made on first use with the configured parameters.
  let dummyHash: Promise<string> | undefined;
  const dummy = () => {
    dummyHash ??= hasher.hash(randomToken()).catch((err) => {
      dummyHash = undefined;
      throw err;
    });
    return dummyHash;
  };

  const clearing = serializeCookie(name, "", { maxAge: 0 });

  // A hint is worth no failed sign-in: a store whose hint throws is told
  // of it in the log, and the sign-in goes on without it.
  const anticipate = (accountId: string) => {
    try {
      store.anticipateSession?.(accountId);
    } catch (error) {
      logger.error("anticipateSession failed", { error });
    }
  };

  // Checks a password, in two halves: `beginCheck` reads the account and
  // starts argon2id, `endCheck` waits for its answer. Every path (unknown
  // or malformed email, wrong or malformed password, disabled account)
  // makes the same single verification before it is refused. Between the
  // halves a sign-in does what does not depend on the answer, on a main
  // thread that would otherwise wait (see `login`).
  interface PasswordCheck {
    key: string | null;
    found: UserCredentials | null;
    /** The account a session would be for; a made-up one when none is found. */
    accountId: string;
    matches: Promise<boolean>;
  }

  // A sign-in (`signingIn`) also lets the store begin the reads of the
  // session it may record, for every address alike: an unknown one
  // anticipates an account that does not exist.
  async function beginCheck(
    email: string,
    password: string,
    signingIn = false,
  ): Promise<PasswordCheck> {
    const fallback = await dummy();
    const key = signInKey(email, limits);
    const found = key === null ? null : await store.credentialsByEmail(key);
    // The verify first: everything else waits on it, and it waits on
    // nothing but a thread of its own.
    const matches = hasher.verify(found?.passwordHash ?? fallback, password);
    // Observed at once: if what runs between the halves throws, a failed
    // verify must not also surface as an unhandled rejection.
    matches.catch(() => {});
    const accountId = found?.user.id ?? uuidv7(now());
    if (signingIn) anticipate(accountId);
    return { key, found, accountId, matches };
  }

  async function endCheck(
    { found, matches }: PasswordCheck,
    password: string,
  ): Promise<UserCredentials | null> {
    // Awaited whatever was found: an unknown address waits like a known one.
    const matched = await matches;
    const ok = found !== null && matched && !found.user.disabled &&
      isSignInPassword(password, limits);
    return ok ? found : null;
  }

  async function verifyPassword(
    email: string,
    password: string,
  ): Promise<UserCredentials | null> {
    return await endCheck(await beginCheck(email, password), password);
  }

  // The second half of a sign-in's check: `credentials_invalid`, with its
  // `login.failed` event when the client is named, or the credentials
  // (rehashed when the parameters changed).
  async function endSignInCheck(
    check: PasswordCheck,
    password: string,
    client?: ClientMeta,
  ): Promise<UserCredentials> {
    const found = await endCheck(check, password);
    if (found === null) {
      if (client !== undefined) {
        trail.refused([trail.event("login.failed", {
          actor: check.found?.user ?? null,
          client,
          // What was typed is kept only when it is an address
          // (`recordableAddress`): anything else may be a password typed
          // into the wrong field, and every administrator reads the trail.
          detail: check.key !== null &&
              recordableAddress(check.key, check.found !== null)
            ? { email: check.key }
            : { email_invalid: true },
        })]);
      }
      throw new AuthError("credentials_invalid");
    }
    if (hasher.needsRehash(found.passwordHash)) {
      // Not a new credential: the generation stays, so a sign-in racing
      // this one is not refused for it.
      await store.replacePasswordHash(
        found.user.id,
        found.passwordHash,
        await hasher.hash(password),
      );
    }
    return found;
  }

  async function verify(
    email: string,
    password: string,
  ): Promise<UserCredentials> {
    return await endSignInCheck(await beginCheck(email, password), password);
  }

  async function authenticate(
    email: string,
    password: string,
  ): Promise<Identity> {
    return await identityOf((await verify(email, password)).user);
  }

  // A session's token, with its digest and public id, and the cookie that
  // carries it. Nothing in it depends on a password check, so a sign-in
  // makes it while argon2id runs.
  function ticket(at: number, userId: string): SessionTicket {
    const token = sessionToken(userId);
    return {
      userId,
      tokenHash: hashToken(token),
      id: uuidv7(at),
      cookie: serializeCookie(name, token, { maxAge }),
    };
  }

  function issue(at: number, userId: string) {
    const { tokenHash, id, cookie } = ticket(at, userId);
    return { tokenHash, id, expiresAt: at + ttl, cookie };
  }

  // Records a session; bound to a sign-in, only while the password (and
  // second factor) verified are still the account's (DESIGN.md §5).
  async function recordSession(
    user: UserRecord,
    binding?: SignInBinding,
    client: ClientMeta = { ip: "", userAgent: "" },
    made?: SessionTicket,
  ): Promise<{ cookie: string; events: AuditEvent[] }> {
    const createdAt = now();
    const expiresAt = createdAt + ttl;
    // A token names its account: one made for another is of no use here.
    const { tokenHash, id, cookie } = made?.userId === user.id
      ? made
      : ticket(createdAt, user.id);
    const events = binding === undefined ? [] : [
      trail.event("login.succeeded", {
        actor: user,
        client,
        detail: { session_id: id, method: binding.method },
      }),
    ];
    const { generation, factorVersion } = binding ?? {};
    const created = await store.createSession({
      tokenHash,
      id,
      userId: user.id,
      createdAt,
      expiresAt,
      ip: client.ip,
      userAgent: client.userAgent,
      maxSessions: limits.maxSessionsPerAccount,
      events,
      ...(generation === undefined ? {} : { expectedGeneration: generation }),
      ...(factorVersion === undefined
        ? {}
        : { expectedFactorVersion: factorVersion }),
    });
    if (!created) throw new AuthError("credentials_invalid");
    return { cookie, events };
  }

  async function startSession(userId: string): Promise<string> {
    const user = await store.userById(userId);
    if (user === null) throw new AuthError("credentials_invalid");
    return (await recordSession(user)).cookie;
  }

  async function endSession(
    token: string,
    client?: ClientMeta,
  ): Promise<string> {
    const account = sessionTokenAccount(token);
    if (account === null) return clearing;
    const tokenHash = hashToken(token);
    const found = await store.findSession(
      tokenHash,
      now(),
      account === "" ? undefined : account,
    );
    const events = found === null || client === undefined ? [] : [
      trail.event("logout", {
        actor: found.user,
        client,
        detail: { session_id: found.id },
      }),
    ];
    if (await store.deleteSession(tokenHash, { events })) {
      trail.committed(events);
    }
    return clearing;
  }

  // When this instance last recorded a use of each session lately, in two
  // generations of one touch interval each (so memory holds only the
  // sessions used in the last two intervals): a session is written at most
  // once per interval here, even when a read that began before the write
  // returns after it with the older time.
  let recent = new Map<string, number>();
  let previous = new Map<string, number>();
  let rotatedAt = now();
  const touch = (tokenHash: string, at: number) => {
    if (at - rotatedAt >= touchInterval) {
      previous = recent;
      recent = new Map();
      rotatedAt = at;
    }
    const last = recent.get(tokenHash) ?? previous.get(tokenHash);
    if (last !== undefined && at - last < touchInterval) return;
    recent.set(tokenHash, at);
    inBackground(
      store,
      store.touchSession(tokenHash, at),
      (error) => logger.error("session use not recorded", { error }),
    );
  };

  // The hot path: one store read (the token names the account, so a store
  // can read the session and the account at once); a use is recorded at
  // most once per touch interval, after the answer (never awaited), and
  // idle expiry is judged against the recorded time. With `req`, the
  // identity and the session are attached to it (requireSession).
  async function lookup(
    token: string,
    req?: Request,
  ): Promise<Identity | null> {
    const account = sessionTokenAccount(token);
    if (account === null) return null;
    const at = now();
    const tokenHash = hashToken(token);
    const found = await store.findSession(
      tokenHash,
      at,
      account === "" ? undefined : account,
    );
    // The store already checks; checking again here keeps a faulty store
    // from extending a session past its lifetime or handing out another
    // account's session.
    if (
      found === null || found.expiresAt <= at || found.user.disabled ||
      at - found.lastSeenAt >= idleTimeout ||
      (account !== "" && found.user.id !== account)
    ) {
      return null;
    }
    if (at - found.lastSeenAt >= touchInterval) touch(tokenHash, at);
    const built = buildIdentity(found.user, own(found.user, found.factors));
    const identity = built instanceof Promise ? await built : built;
    if (req !== undefined) {
      attachContext(req, identity, {
        tokenHash,
        id: found.id,
        authenticatedAt: found.authenticatedAt,
      });
    }
    return identity;
  }

  const sessionIdentity = (token: string) => lookup(token);

  const resolve = (req: Request) => {
    const token = readCookie(req.headers.get("cookie"), name);
    return token === null ? Promise.resolve(null) : lookup(token, req);
  };
  const requireSession = sessionGuard(resolve, logger);

  const answering = answeringErrors(logger);

  const login = answering(async function login(req, _params, info) {
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const email = requiredString(body, "email");
    const password = requiredString(body, "password");
    const check = await beginCheck(email, password, true);
    // While argon2id runs: what follows needs these whatever its answer.
    const meta = client(req, info);
    const made = ticket(now(), check.accountId);
    const verified = await endSignInCheck(check, password, meta);
    if (hasSecondFactor(verified.factors)) {
      return respond({ second_factor: methodsOf(verified.factors) }, {
        status: 202,
        headers: { ...NO_STORE, "set-cookie": await pendingSignIn(verified) },
      });
    }
    const { cookie, events } = await recordSession(
      verified.user,
      {
        generation: verified.generation,
        method: "password",
      },
      meta,
      made,
    );
    trail.committed(events);
    return respond(await ownIdentity(verified.user, verified.factors), {
      headers: { ...NO_STORE, "set-cookie": cookie },
    });
  });

  // A sign-in whose password was right, waiting for its second factor:
  // bound to the credential and the factors it was verified under.
  async function pendingSignIn(verified: UserCredentials): Promise<string> {
    const token = randomToken();
    const createdAt = now();
    await store.createPendingSignIn({
      tokenHash: hashToken(token),
      userId: verified.user.id,
      generation: verified.generation,
      factorVersion: verified.factors.factorVersion,
      createdAt,
      expiresAt: createdAt + PENDING_TTL,
    });
    return serializeCookie(PENDING_COOKIE, token, {
      maxAge: PENDING_TTL / 1000,
    });
  }

  const logout = answering(async function logout(req, _params, info) {
    const token = readCookie(req.headers.get("cookie"), name);
    const cookie = token === null
      ? clearing
      : await endSession(token, client(req, info));
    return new Response(null, {
      status: 204,
      headers: { ...NO_STORE, "set-cookie": cookie },
    });
  });

  const fetchSession = requireSession(function fetchSession(req) {
    // The hot path: a constant header record, no merging per request.
    return new Response(JSON.stringify(identityFromContext(req)), {
      headers: IDENTITY_HEADERS,
    });
  });

  const auth: Auth = {
    authenticate,
    startSession,
    endSession,
    sessionIdentity,
    cookieName: () => name,
    login,
    logout,
    fetchSession,
    session: fetchSession,
    requireSession,
    requirePrivilege: privilegeGuard(privileged, logger),
    requireCapability: (capability) => capabilityGuard(capability, logger),
    privileged,
    identityOf,
  };
  issuers.set(auth, {
    issue,
    privileged,
    capabilities: registry,
    store,
    hasher,
    limits,
    logger,
    now,
    idleTimeout,
    reauthenticationWindow,
    clearing,
    client,
    trail,
    verifyPassword,
    signIn: recordSession,
    ownIdentity,
    requireSecondFactor,
    totpSealing,
  });
  return auth;
}

/** Whether an account has a second factor (TOTP or a passkey). */
export function hasSecondFactor(factors: AccountFactors): boolean {
  return factors.totpEnabled || factors.passkeyCount > 0;
}

/** The second-factor methods of an account, as the 202 of login names them. */
export function methodsOf(factors: AccountFactors): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (factors.totpEnabled) methods.push("totp", "recovery_code");
  if (factors.passkeyCount > 0) methods.push("passkey");
  return methods;
}
