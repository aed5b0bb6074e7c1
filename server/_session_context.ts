// The session behind a request, beside its Identity: `requireSession`
// attaches it, and the handlers of one's own sessions, re-authentication
// and the `fresh` guard read it back. Module-private like the identity
// map: the request object is the context.

/** The session a request was admitted with. */
export interface SessionContext {
  /** Digest of the cookie's token. */
  readonly tokenHash: string;
  /** The session's public id. */
  readonly id: string;
  /** When its holder last proved who they are, ms. */
  readonly authenticatedAt: number;
}

const sessions = new WeakMap<Request, SessionContext>();

/** Attaches `session` to `req`. */
export function withSession(req: Request, session: SessionContext): void {
  sessions.set(req, session);
}

/** The session `requireSession` attached to `req`, or null. */
export function sessionFromContext(req: Request): SessionContext | null {
  return sessions.get(req) ?? null;
}
