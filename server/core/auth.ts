/**
 * `createAuth`: sign-in with email and password, server-side sessions in a
 * cookie, and the guards that read them.
 *
 * @module
 */

import { readCookie } from "../http/cookie.ts";
import { decode, requiredString } from "../http/decode.ts";
import { type GatehouseContext, gatehouseContext } from "./context.ts";
import type { Identity } from "./identity.ts";
import { defineOperation, handlersOf, type Operations } from "./operation.ts";
import {
  type Handler,
  type Middleware,
  NO_STORE,
  respond,
} from "../http/respond.ts";
import { methodsOf } from "./sessions.ts";
import { hasSecondFactor } from "./store_factors.ts";
import type { LockTicket } from "./_account_lock.ts";
import { afterAnswer } from "../http/_background.ts";
import { identityJson } from "./_identity_json.ts";
import { AuthError } from "../http/errors.ts";
import type { AuthOptions } from "./options.ts";

export type { AuthOptions };
import type { UserCredentials, UserRecord } from "./store.ts";

export {
  methodsOf,
  PENDING_COOKIE,
  PENDING_TTL,
  type SignInBinding,
  type SignInMethod,
} from "./sessions.ts";
export { hasSecondFactor } from "./store_factors.ts";

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
  /**
   * The context it was built on, which the other factories read from the
   * `auth` they are given so that they share its settings. Internal: not
   * for applications to read.
   *
   * @ignore
   */
  readonly context: GatehouseContext;
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
  return authOn(gatehouseContext(config));
}

/** The authentication service on a context built already (`createGatehouse`). */
export function authOn(context: GatehouseContext): Auth {
  const { sessions, privileged, guards } = context;
  const handlers = handlersOf(authOperations(context));
  return Object.freeze({
    ...handlers,
    authenticate: sessions.authenticate,
    startSession: sessions.startSession,
    endSession: (token: string) => sessions.endSession(token),
    sessionIdentity: (token: string) => sessions.lookup(token),
    cookieName: () => sessions.cookieName,
    session: handlers.fetchSession,
    requireSession: guards.session,
    requirePrivilege: guards.privilege,
    requireCapability: guards.capability,
    privileged,
    identityOf: sessions.identityOf,
    context,
  });
}

/**
 * The operations of signing in and out and the session check, on one
 * context: what `createAuth` and `createGatehouse` mount.
 */
export function authOperations(
  context: GatehouseContext,
): Operations<"login" | "logout" | "fetchSession"> {
  const { sessions, limits, now, trail } = context;
  const lock = context.accountLock;
  const identityText = identityJson();

  // A completed sign-in's attempt is settled once the answer is out: its
  // writes (a give-back, a count started again) keep no one's sign-in
  // waiting, and an attempt held a moment longer errs on the safe side. A
  // guess that lands before the count starts again settles on the old
  // count and is left behind with it, like a guess in flight during the
  // sign-in.
  const completeAfter = (
    info: Deno.ServeHandlerInfo | undefined,
    ticket: LockTicket | undefined,
  ) => {
    if (ticket === undefined) return;
    afterAnswer(
      context.store,
      info,
      () => ticket.complete(),
      (error) => context.logger.error("account lock not settled", { error }),
    );
  };

  const login = defineOperation(
    context,
    "login",
    async function login(req, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const email = requiredString(body, "email");
      const password = requiredString(body, "password");
      const meta = context.client(req, info);
      // The account lock (DESIGN.md §15): one attempt of this address
      // reserved before any argon2 work (beside the account's read), for a
      // known address and an unknown one alike. An address the input rules
      // refuse is no one's and has no count; the address limiter still
      // counts it.
      let ticket: LockTicket | undefined;
      let refused: Response | undefined;
      const gate = async (key: string) => {
        const admitted = await lock.admit(lock.scopeOf(req, key), meta);
        if (admitted instanceof Response) refused = admitted;
        else ticket = admitted;
        return refused === undefined;
      };
      let verified: UserCredentials;
      let made: ReturnType<typeof sessions.ticket>;
      let device: string | null;
      try {
        const check = await sessions.beginCheck(email, password, true, gate);
        if (refused !== undefined) return refused;
        // While argon2id runs: what follows needs these whatever its answer,
        // the trusted-device cookie (an HMAC) included, for a well-formed
        // address known or not.
        made = sessions.ticket(now(), check.accountId);
        device = check.key === null ? null : lock.deviceCookie(req, check.key);
        verified = await sessions.endSignInCheck(check, password, meta);
      } catch (err) {
        // A wrong password keeps its attempt; anything else judged nothing.
        if (isFailedSignIn(err)) await ticket?.failed();
        else await ticket?.giveBack();
        throw err;
      }
      if (hasSecondFactor(verified.factors)) {
        // A password accepted at the first of two steps clears nothing: its
        // attempt goes back before the code it leads to can be tried.
        await ticket?.giveBack();
        return respond({ second_factor: methodsOf(verified.factors) }, {
          status: 202,
          headers: {
            ...NO_STORE,
            "set-cookie": await sessions.pendingSignIn(verified),
          },
        });
      }
      let signedIn: Awaited<ReturnType<typeof sessions.signIn>>;
      try {
        signedIn = await sessions.signIn(
          verified.user,
          { generation: verified.generation, method: "password" },
          meta,
          made,
        );
      } catch (err) {
        // Refused at the commit (the account disabled, its password reset
        // or a second factor enabled while argon2id ran: 401
        // credentials_invalid, and signing in again meets the account as it
        // is now) or the store failed: no failure of the password, so its
        // attempt goes back. Left unsettled, it would hold
        // the scope's count one too high and keep the lock's report of the
        // scope waiting for it for ever.
        await ticket?.giveBack();
        throw err;
      }
      const { cookie, events } = signedIn;
      // A completed sign-in clears the count it was counted under.
      completeAfter(info, ticket);
      trail.committed(events);
      const headers = new Headers(NO_STORE);
      headers.append("set-cookie", cookie);
      // A right password had a well-formed address: `device` is set.
      if (device !== null) headers.append("set-cookie", device);
      return respond(
        await sessions.ownIdentity(verified.user, verified.factors),
        { headers },
      );
    },
  );

  const logout = defineOperation(
    context,
    "logout",
    async function logout(req, _params, info) {
      const token = readCookie(req.headers.get("cookie"), sessions.cookieName);
      const cookie = token === null
        ? sessions.clearing
        : await sessions.endSession(token, context.client(req, info));
      return new Response(null, {
        status: 204,
        headers: { ...NO_STORE, "set-cookie": cookie },
      });
    },
  );

  const fetchSession = defineOperation(
    context,
    "fetchSession",
    function fetchSession(_req, caller) {
      // The hot path: a constant header record, no merging per request,
      // and the text of an unchanged identity made once.
      return new Response(identityText(caller.identity), {
        headers: IDENTITY_HEADERS,
      });
    },
  );

  return { login, logout, fetchSession };
}

// The refusal of a wrong password (or an unknown address, or a disabled
// account: alike on the wire), which the account lock counts.
const isFailedSignIn = (err: unknown) =>
  err instanceof AuthError && err.code === "credentials_invalid";
