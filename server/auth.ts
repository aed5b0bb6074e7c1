/**
 * `createAuth`: sign-in with email and password, server-side sessions in a
 * cookie, and the guards that read them.
 *
 * @module
 */

import { hashToken, isTokenShaped, randomToken } from "./_crypto.ts";
import { isSignInPassword, signInKey } from "./_input.ts";
import { identityBuilder } from "./_roles.ts";
import { isCookieName, readCookie, serializeCookie } from "./cookie.ts";
import { decode, requiredString } from "./decode.ts";
import { AuthError } from "./errors.ts";
import { capabilityGuard, privilegeGuard, sessionGuard } from "./guards.ts";
import {
  answeringErrors,
  type Handler,
  type Middleware,
  NO_STORE,
  respond,
} from "./http.ts";
import { type Identity, identityFromContext } from "./identity.ts";
import { DEFAULT_SESSION_TTL, resolveLimits } from "./limits.ts";
import { defaultLogger } from "./logger.ts";
import { argon2Hasher } from "./password.ts";
import type { RoleOptions, SharedOptions } from "./options.ts";
import type { RoleRegistry } from "./roles.ts";
import type { UserCredentials, UserRecord } from "./store.ts";

/** Options of {@linkcode createAuth}. */
export interface AuthOptions extends SharedOptions, RoleOptions {
  /** Session cookie name; `__Host-session` by default. */
  cookieName?: string;
  /** Session lifetime in ms; bounds the session and the cookie's Max-Age. 7 days by default. */
  sessionTtl?: number;
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

/** What the link handlers need of an Auth to start a session themselves. */
export interface SessionIssuer {
  /** A fresh token's digest and expiry, and the cookie that carries it. */
  issue(now: number): { tokenHash: string; expiresAt: number; cookie: string };
  /** The privileged roles and the registry the Auth was built with. */
  privileged: readonly string[];
  capabilities: RoleRegistry | undefined;
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
  const buildIdentity = identityBuilder(registry);
  const identityOf = (user: UserRecord) => Promise.resolve(buildIdentity(user));

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

  // Verifies a sign-in. Every path (unknown or malformed email, wrong or
  // malformed password, disabled account) makes the same single argon2
  // verification before it is refused.
  async function verify(
    email: string,
    password: string,
  ): Promise<UserCredentials> {
    const fallback = await dummy();
    const key = signInKey(email, limits);
    const found = key === null ? null : await store.credentialsByEmail(key);
    const matches = await hasher.verify(
      found?.passwordHash ?? fallback,
      password,
    );
    if (
      found === null || !matches || found.user.disabled ||
      !isSignInPassword(password, limits)
    ) {
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

  async function authenticate(
    email: string,
    password: string,
  ): Promise<Identity> {
    return await identityOf((await verify(email, password)).user);
  }

  function issue(at: number) {
    const token = randomToken();
    return {
      tokenHash: hashToken(token),
      expiresAt: at + ttl,
      cookie: serializeCookie(name, token, { maxAge }),
    };
  }

  // Records a session; with `expectedGeneration`, only while the password
  // verified under it is still the account's (DESIGN.md §5).
  async function recordSession(
    userId: string,
    expectedGeneration?: number,
  ): Promise<string> {
    const createdAt = now();
    const { tokenHash, expiresAt, cookie } = issue(createdAt);
    const created = await store.createSession({
      tokenHash,
      userId,
      createdAt,
      expiresAt,
      maxSessions: limits.maxSessionsPerAccount,
      ...(expectedGeneration === undefined ? {} : { expectedGeneration }),
    });
    if (!created) throw new AuthError("credentials_invalid");
    return cookie;
  }

  const startSession = (userId: string) => recordSession(userId);

  async function endSession(token: string): Promise<string> {
    if (isTokenShaped(token)) await store.deleteSession(hashToken(token));
    return clearing;
  }

  async function sessionIdentity(token: string): Promise<Identity | null> {
    if (!isTokenShaped(token)) return null;
    const at = now();
    const found = await store.findSession(hashToken(token), at);
    // The store already checks; checking again here keeps a faulty store
    // from extending a session past its lifetime.
    if (found === null || found.expiresAt <= at || found.user.disabled) {
      return null;
    }
    return await buildIdentity(found.user);
  }

  const resolve = (req: Request) => {
    const token = readCookie(req.headers.get("cookie"), name);
    return token === null ? Promise.resolve(null) : sessionIdentity(token);
  };
  const requireSession = sessionGuard(resolve, logger);

  const answering = answeringErrors(logger);

  const login = answering(async function login(req) {
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const email = requiredString(body, "email");
    const password = requiredString(body, "password");
    const verified = await verify(email, password);
    const cookie = await recordSession(
      verified.user.id,
      verified.generation,
    );
    return respond(await identityOf(verified.user), {
      headers: { ...NO_STORE, "set-cookie": cookie },
    });
  });

  const logout = answering(async function logout(req) {
    const token = readCookie(req.headers.get("cookie"), name);
    const cookie = token === null ? clearing : await endSession(token);
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
  issuers.set(auth, { issue, privileged, capabilities: registry });
  return auth;
}
