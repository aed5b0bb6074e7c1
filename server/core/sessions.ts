/**
 * Sessions: checking a password, issuing and recording a session after a
 * sign-in, the session check of every signed-in request, and ending one.
 * Built once per context (`gatehouseContext`) from settings already
 * resolved there: nothing here picks a default.
 *
 * @module
 */

import type { AuditTrail } from "./_audit.ts";
import { inBackground } from "../http/_background.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import {
  hashToken,
  randomToken,
  sessionToken,
  sessionTokenAccount,
  uuidv7,
} from "./_crypto.ts";
import { fold } from "./_fold.ts";
import { isSignInPassword, recordableAddress, signInKey } from "./_input.ts";
import { attachContext, type Identity } from "./identity.ts";
import { identityBuilder } from "./_roles.ts";
import { readCookie, serializeCookie } from "../http/cookie.ts";
import { AuthError } from "../http/errors.ts";
import type { Limits } from "../http/limits.ts";
import type { Logger } from "../http/logger.ts";
import type { PasswordHasher } from "./password.ts";
import type { RoleRegistry } from "./roles.ts";
import type {
  AccountFactors,
  AuditEvent,
  Store,
  UserCredentials,
  UserRecord,
} from "./store.ts";
import { hasSecondFactor } from "./store_factors.ts";
import type { SecondFactorMethod } from "@gatehouse/contract";

/** The cookie of a sign-in waiting for its second factor. */
export const PENDING_COOKIE = "__Host-gatehouse-pending";
/** How long a pending sign-in lives, ms (also its cookie's Max-Age). */
export const PENDING_TTL = 5 * 60_000;

/**
 * How a session's holder proved who they are, as events name it: a
 * password, a second factor, or a single sign-on (DESIGN.md §13).
 */
export type SignInMethod = "password" | SecondFactorMethod | "sso";

/** What a session issued after a sign-in is bound to. */
export interface SignInBinding {
  /** The generation the password was verified under; absent: any. */
  generation?: number;
  /** The factor version a second factor was verified under; absent: any. */
  factorVersion?: number;
  /**
   * The proof, for the `login.succeeded` event. A password alone binds
   * the session to the account having no second factor still.
   */
  method: SignInMethod;
  /**
   * A single sign-on's provider (its `id`), session id (`sid`) and
   * identity (`subjectKey`): the session remembers them, owes no second
   * factor, and ends with a back-channel logout naming them.
   */
  sso?: { provider: string; sid: string | null; subjectKey?: string };
}

/** The resolved settings sessions are built from (see `gatehouseContext`). */
export interface SessionSettings {
  store: Store;
  hasher: PasswordHasher;
  limits: Limits;
  logger: Logger;
  now: () => number;
  trail: AuditTrail;
  /** The registry identities read capabilities from; none: no capabilities. */
  registry: RoleRegistry | undefined;
  cookieName: string;
  ttl: number;
  idleTimeout: number;
  requireSecondFactor: ReadonlySet<string>;
  /**
   * The enforcing single sign-on provider (its id) of a folded address, or
   * null: a password sign-in to such an address is refused `sso_required`
   * after the same argon2 work (DESIGN.md §13). None by default.
   */
  enforcedBy?: (emailKey: string) => string | null;
  /**
   * The digest of the trusted-device cookie (DESIGN.md §15) a sign-in's
   * request presented for a folded address, or null: kept in the
   * `login.succeeded` event, where the `new_sign_in` notice (§14) looks
   * for the browsers an account used. None by default.
   */
  presentedDevice?: (client: ClientMeta, emailKey: string) => string | null;
}

// A session's token and cookie, made before it is recorded.
interface SessionTicket {
  userId: string;
  tokenHash: string;
  id: string;
  cookie: string;
}

/** A password check begun: the account read, argon2id running. */
export interface PasswordCheck {
  key: string | null;
  found: UserCredentials | null;
  /** The account a session would be for; a made-up one when none is found. */
  accountId: string;
  matches: Promise<boolean>;
  /**
   * False when the check's gate refused it: no argon2 work was started
   * (`matches` is false), and the caller answers the refusal it holds.
   */
  admitted: boolean;
}

/** What {@linkcode sessions} builds: every use of a session, in one place. */
export interface Sessions {
  /** The session cookie's name. */
  readonly cookieName: string;
  /** The cookie that clears the session cookie. */
  readonly clearing: string;
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
  /** A session's token and cookie, made before any password check ends. */
  ticket(at: number, userId: string): SessionTicket;
  /**
   * Starts a password check (reads the account, starts argon2id); with
   * `signingIn`, lets the store anticipate the session's reads. With
   * `gate`, argon2id starts only if it admits the check (it runs beside
   * the account's read, for a well-formed address only).
   */
  beginCheck(
    email: string,
    password: string,
    signingIn?: boolean,
    gate?: (key: string) => Promise<boolean>,
  ): Promise<PasswordCheck>;
  /**
   * Ends a sign-in's check: the credentials, or `credentials_invalid` (with
   * its `login.failed` event when `client` is named).
   */
  endSignInCheck(
    check: PasswordCheck,
    password: string,
    client?: ClientMeta,
  ): Promise<UserCredentials>;
  /**
   * Whether `password` is the account's current one: the same single
   * argon2 verification whatever the answer; the credentials, or null.
   */
  verifyPassword(
    email: string,
    password: string,
  ): Promise<UserCredentials | null>;
  /** The Identity for an email and password, or `credentials_invalid`. */
  authenticate(email: string, password: string): Promise<Identity>;
  /**
   * Records a session, bound to what a sign-in's proof was verified under
   * (with its `login.succeeded` event); `credentials_invalid` when the
   * account changed meanwhile. Returns the cookie and the events.
   */
  signIn(
    user: UserRecord,
    binding?: SignInBinding,
    client?: ClientMeta,
    made?: SessionTicket,
  ): Promise<{ cookie: string; events: AuditEvent[] }>;
  /** A session for an enabled account, bound to no proof; its cookie. */
  startSession(userId: string): Promise<string>;
  /** Ends the session behind `token` (with its event given `client`). */
  endSession(token: string, client?: ClientMeta): Promise<string>;
  /** The Identity behind a token; with `req`, attached to it. */
  lookup(token: string, req?: Request): Promise<Identity | null>;
  /** Reads the request's session cookie and attaches its Identity. */
  resolve(req: Request): Promise<Identity | null>;
  /** A pending sign-in waiting for its second factor: its cookie. */
  pendingSignIn(verified: UserCredentials): Promise<string>;
  /** The Identity of an account, reading the registry now. */
  identityOf(user: UserRecord): Promise<Identity>;
  /** The Identity of one's own account: its second factors, its password. */
  ownIdentity(user: UserRecord, factors: AccountFactors): Promise<Identity>;
}

/**
 * Builds the sessions of one context.
 *
 * @example Through the context (the usual way)
 * ```ts
 * import { gatehouseContext } from "./context.ts";
 * import { KvStore } from "../stores/kv/kv_store.ts";
 *
 * const kv = await Deno.openKv(":memory:");
 * const context = gatehouseContext({ store: new KvStore(kv) });
 * console.assert(await context.sessions.lookup("nonsense") === null);
 * kv.close();
 * ```
 */
export function sessions(settings: SessionSettings): Sessions {
  const { store, hasher, limits, logger, now, trail, ttl, idleTimeout } =
    settings;
  const name = settings.cookieName;
  const registry = settings.registry;
  const requireSecondFactor = settings.requireSecondFactor;
  const enforcedBy = settings.enforcedBy ?? (() => null);
  const presentedDevice = settings.presentedDevice ?? (() => null);
  // Use is written at most this often per session (DESIGN.md §8).
  const touchInterval = Math.min(60_000, idleTimeout / 10);
  const maxAge = Math.floor(ttl / 1000);
  const buildIdentity = identityBuilder(registry);
  const identityOf = (user: UserRecord) => Promise.resolve(buildIdentity(user));
  // The signed-in account's own Identity: its factors, and whether its
  // role's policy still waits for one. A single sign-on's session owes
  // none: the company's provider owns its second factor (DESIGN.md §13).
  const own = (user: UserRecord, factors: AccountFactors, sso = false) => ({
    factors,
    required: !sso && !hasSecondFactor(factors) &&
      requireSecondFactor.has(user.role),
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
  const accounts = accountGuesses();

  // Checks a password, in two halves: `beginCheck` reads the account and
  // starts argon2id, `endCheck` waits for its answer. Every path (unknown
  // or malformed email, wrong or malformed password, disabled account)
  // makes the same single verification before it is refused. Between the
  // halves a sign-in does what does not depend on the answer, on a main
  // thread that would otherwise wait (see `login`).

  // A sign-in (`signingIn`) also lets the store begin the reads of the
  // session it may record, for every address alike: an unknown one
  // anticipates an account that does not exist. When this instance saw
  // the address before, they begin in the turn of the account's read, for
  // the account it saw there (`accountGuesses`), so that a store can make
  // them one read; else, or when the account read is another, they begin
  // once it is read.
  async function beginCheck(
    email: string,
    password: string,
    signingIn = false,
    gate?: (key: string) => Promise<boolean>,
  ): Promise<PasswordCheck> {
    const fallback = await dummy();
    const key = signInKey(email, limits);
    const guess = key === null || !signingIn ? undefined : accounts.of(key);
    // The gate (the account lock) in the round trip of the account's read.
    // Both settle before either failure is thrown: a gate that admitted
    // holds a reservation its caller must still see to give back.
    const reads = key === null ? undefined : Promise.allSettled([
      store.credentialsByEmail(key),
      gate === undefined ? true : gate(key),
    ]);
    if (guess !== undefined) anticipate(guess);
    const [read, opened] = reads === undefined ? [] : await reads;
    if (opened?.status === "rejected") throw opened.reason;
    if (read?.status === "rejected") throw read.reason;
    const found = read?.value ?? null;
    const admitted = opened?.value ?? true;
    const accountId = found?.user.id ?? guess ?? uuidv7(now());
    // Known or not, the address's account is remembered: a later guess is
    // made the same way for both.
    if (key !== null && signingIn) accounts.keep(key, accountId);
    if (!admitted) {
      return {
        key,
        found,
        accountId,
        matches: Promise.resolve(false),
        admitted,
      };
    }
    // The verify first: everything else waits on it, and it waits on
    // nothing but a thread of its own. An account without a password (made
    // by single sign-on) verifies against the made-up hash, like an
    // unknown address: the same work, and no match.
    const matches = hasher.verify(
      found === null || found.passwordHash === ""
        ? fallback
        : found.passwordHash,
      password,
    );
    // Observed at once: if what runs between the halves throws, a failed
    // verify must not also surface as an unhandled rejection.
    matches.catch(() => {});
    if (signingIn && accountId !== guess) anticipate(accountId);
    return { key, found, accountId, matches, admitted };
  }

  async function endCheck(
    { found, matches }: PasswordCheck,
    password: string,
  ): Promise<UserCredentials | null> {
    // Awaited whatever was found: an unknown address waits like a known one.
    const matched = await matches;
    const ok = found !== null && matched && found.passwordHash !== "" &&
      !found.user.disabled && isSignInPassword(password, limits);
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
    // An address an enforcing provider speaks for signs in only through
    // it: refused after the verify, known or unknown, right or wrong.
    const provider = check.key === null ? null : enforcedBy(check.key);
    if (provider !== null) {
      if (client !== undefined) {
        trail.refused([trail.event("login.failed", {
          actor: check.found?.user ?? null,
          client,
          detail: recordableAddress(check.key!, check.found !== null)
            ? { email: check.key!, reason: "sso_required", provider }
            : { email_invalid: true, reason: "sso_required", provider },
        })]);
      }
      throw new AuthError("sso_required", { meta: { provider } });
    }
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
    const sso = binding?.sso;
    const device = binding === undefined
      ? null
      : presentedDevice(client, fold(user.email));
    const events = binding === undefined ? [] : [
      trail.event("login.succeeded", {
        actor: user,
        client,
        detail: {
          session_id: id,
          method: binding.method,
          ...(sso === undefined ? {} : { provider: sso.provider }),
          ...(device === null ? {} : { device }),
        },
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
      idleCutoff: createdAt - idleTimeout,
      events,
      ...(generation === undefined ? {} : { expectedGeneration: generation }),
      ...(factorVersion === undefined
        ? {}
        : { expectedFactorVersion: factorVersion }),
      // A password alone was checked against an account read with no
      // second factor; one enabled since is owed at this sign-in too.
      ...(binding?.method === "password" ? { withoutSecondFactor: true } : {}),
      ...(sso === undefined ? {} : { sso }),
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
    const built = buildIdentity(
      found.user,
      own(found.user, found.factors, found.ssoProvider !== undefined),
    );
    const identity = built instanceof Promise ? await built : built;
    if (req !== undefined) {
      attachContext(req, identity, {
        tokenHash,
        id: found.id,
        authenticatedAt: found.authenticatedAt,
        generation: found.generation,
      });
    }
    return identity;
  }

  const resolve = (req: Request) => {
    const token = readCookie(req.headers.get("cookie"), name);
    return token === null ? Promise.resolve(null) : lookup(token, req);
  };

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

  return {
    cookieName: name,
    clearing,
    issue,
    ticket,
    beginCheck,
    endSignInCheck,
    verifyPassword,
    authenticate,
    signIn: recordSession,
    startSession,
    endSession,
    lookup,
    resolve,
    pendingSignIn,
    identityOf,
    ownIdentity,
  };
}

// Addresses whose account id an instance remembers; past this many the
// memory starts over (a guess only saves a read).
const MAX_GUESSES = 1024;

// The account id each address signed in to last on this instance: the
// account found, or, for an address without one, the id made up for it, so
// that an unknown address is guessed like a known one. Which account a
// sign-in is for is always decided by the account read, never by a guess.
function accountGuesses() {
  const ids = new Map<string, string>();
  return {
    of: (key: string): string | undefined => ids.get(key),
    keep(key: string, accountId: string): void {
      if (ids.size >= MAX_GUESSES && !ids.has(key)) ids.clear();
      ids.set(key, accountId);
    },
  };
}

/** The second-factor methods of an account, as the 202 of login names them. */
export function methodsOf(factors: AccountFactors): SecondFactorMethod[] {
  const methods: SecondFactorMethod[] = [];
  if (factors.totpEnabled) methods.push("totp", "recovery_code");
  if (factors.passkeyCount > 0) methods.push("passkey");
  return methods;
}
