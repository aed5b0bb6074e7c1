// What `requireSession` learned about a request: the Identity (public,
// through `identityFromContext`) and the session it was admitted with
// (private: the handlers of one's own sessions, re-authentication and the
// `fresh` guard read it). One WeakMap entry per request, the request
// object being the context: it lives exactly as long as the request.

import type { Identity } from "./identity.ts";

/** The session a request was admitted with. */
export interface SessionContext {
  /** Digest of the cookie's token. */
  readonly tokenHash: string;
  /** The session's public id. */
  readonly id: string;
  /** When its holder last proved who they are, ms. */
  readonly authenticatedAt: number;
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

/** The session `requireSession` attached to `req`, or null. */
export function sessionFromContext(req: Request): SessionContext | null {
  return contexts.get(req)?.session ?? null;
}
