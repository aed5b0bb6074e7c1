/**
 * The Identity of a signed-in account, and the request as its context:
 * `requireSession` attaches the identity (and, privately, the session it
 * was admitted with) to the request object, and handlers behind it read it
 * back. One WeakMap entry per request, the request object being the
 * context: it lives exactly as long as the request. Credential material
 * never enters it.
 *
 * @module
 */

import type { IdentityJson } from "@gatehouse/contract";
import type { ActorStanding } from "./actor.ts";

/**
 * Who is signed in: the contract's `Identity` schema (`IdentityJson`, the
 * one place its shape is written), read-only. `capabilities` is present
 * only when a registry is configured, `grantable` only when the registry
 * also answers it; `second_factor` and `has_password` only in the
 * signed-in account's own Identity; `second_factor_required` when its role
 * requires a second factor it has not enrolled.
 *
 * @example
 * ```ts
 * import type { Identity } from "@gatehouse/server";
 *
 * const me: Identity = { id: "0192f3a0-0000-7000-8000-000000000000", email: "a@example.com", name: "A", role: "admin" };
 * console.assert(me.role === "admin");
 * ```
 */
export type Identity = {
  readonly [K in keyof IdentityJson]: IdentityJson[K] extends
    (infer E)[] | undefined ? readonly E[] | Extract<IdentityJson[K], undefined>
    : Readonly<IdentityJson[K]>;
};

/** Which second factors an account has, as its own Identity shows them. */
export type SecondFactorSummary = NonNullable<Identity["second_factor"]>;

/**
 * Attaches `identity` to `req` and returns the same request. The request
 * object is the context: pass that very object on to the next handler.
 *
 * @param req The request.
 * @param identity Who is signed in.
 * @returns `req`.
 *
 * @example Faking a signed-in request in a test
 * ```ts
 * import { identityFromContext, withIdentity } from "@gatehouse/server";
 *
 * const req = withIdentity(new Request("http://localhost/"), {
 *   id: "0190f0a0-0000-7000-8000-000000000001",
 *   email: "ada@example.com",
 *   name: "Ada",
 *   role: "admin",
 * });
 * console.assert(identityFromContext(req)?.name === "Ada");
 * ```
 */
export function withIdentity(req: Request, identity: Identity): Request {
  const context = contextOf(req);
  if (context === undefined) attachContext(req, identity, null);
  else context.identity = identity;
  return req;
}

/**
 * The identity `requireSession` attached to `req`, or null.
 *
 * @param req The request.
 * @returns The identity or null.
 *
 * @example In a handler behind `requireSession`
 * ```ts
 * import { type Handler, identityFromContext, respond } from "@gatehouse/server";
 *
 * const whoami: Handler = (req) => respond({ name: identityFromContext(req)?.name });
 * ```
 */
export function identityFromContext(req: Request): Identity | null {
  return contextOf(req)?.identity ?? null;
}

/** The session a request was admitted with (private to the library). */
export interface SessionContext {
  /** Digest of the cookie's token. */
  readonly tokenHash: string;
  /** The session's public id. */
  readonly id: string;
  /** When its holder last proved who they are, ms. */
  readonly authenticatedAt: number;
  /** The account's generation it was issued under. */
  readonly generation: number;
}

/** Everything attached to one request. */
export interface RequestContext {
  identity: Identity;
  session: SessionContext | null;
}

const contexts = new WeakMap<Request, RequestContext>();

/** Attaches `identity` and `session` to `req` (one entry, on the hot path). */
export function attachContext(
  req: Request,
  identity: Identity,
  session: SessionContext | null,
): void {
  contexts.set(req, { identity, session });
}

/** What is attached to `req`, if anything. */
export function contextOf(req: Request): RequestContext | undefined {
  return contexts.get(req);
}

/**
 * What an administrator's change made on `req` is bound to: the account,
 * the role the guard admitted and the generation of its session, checked
 * again in the change's commit. Undefined for an identity attached without
 * a session ({@linkcode withIdentity}): the app that attached it vouches
 * for it.
 */
export function standingOf(
  req: Request,
  identity: Identity,
): ActorStanding | undefined {
  const session = contexts.get(req)?.session;
  return session == null ? undefined : {
    id: identity.id,
    role: identity.role,
    generation: session.generation,
  };
}

/** The session `requireSession` attached to `req`, or null. */
export function sessionFromContext(req: Request): SessionContext | null {
  return contexts.get(req)?.session ?? null;
}
