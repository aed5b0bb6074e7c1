// The record that binds one single sign-on attempt to one browser: made at
// the start, spent (read and deleted at once) at the callback. The browser
// holds only a random token in the `__Host-gatehouse-sso` cookie; the store
// keeps the token's SHA-256 and what the callback must check (state, nonce,
// PKCE verifier) and where to go after. Single use and ten minutes
// (DESIGN.md §13).

/** The cookie that carries a flow's token (`__Host-`, HttpOnly, Secure, Lax). */
export const SSO_COOKIE = "__Host-gatehouse-sso";

/** How long a flow lives, ms: the cookie's Max-Age too (§13: 10 minutes). */
export const SSO_FLOW_TTL = 10 * 60_000;

/**
 * What a flow is for: a sign-in that starts a session, or a
 * re-authentication (§8) that renews the proof of a session that exists.
 */
export type SsoPurpose = "sign_in" | "reauthenticate";

/** One single sign-on attempt, as the store keeps it. */
export interface SsoFlow {
  /** SHA-256 (base64url) of the cookie's token: the record's key. */
  tokenHash: string;
  /** The provider the attempt was started with. */
  providerId: string;
  /** The `state` sent to the provider; the callback must bring it back. */
  state: string;
  /** The `nonce` sent; the ID token must carry it. */
  nonce: string;
  /** The PKCE code verifier (its S256 challenge went to the provider). */
  codeVerifier: string;
  /** Where to go after: a same-origin path, already checked. */
  returnTo: string;
  /** Sign-in or re-authentication. */
  purpose: SsoPurpose;
  /**
   * For a re-authentication, the account whose session asked for it (the
   * callback must find the identity linked to this account); else null.
   */
  userId: string | null;
  /**
   * For a re-authentication, the public id of the session that asked for
   * it: the callback renews that session alone, and only while the
   * browser still holds it (one ended meanwhile renews nothing, not even
   * the account's next session); else null. A flow saved before flows
   * named it has none, and renews nothing.
   */
  sessionId: string | null;
  /** When the flow was started, ms since the epoch. */
  createdAt: number;
  /** When it stops being accepted, ms since the epoch. */
  expiresAt: number;
}

/**
 * Where flows are kept: what the routes pass in (the store, once it has a
 * record kind for flows). `spend` must be atomic: two callbacks racing with
 * one token get the record once between them.
 *
 * @example An in-memory keeper (one process; tests)
 * ```ts
 * import type { SsoFlow, SsoFlowStore } from "./flow.ts";
 *
 * const flows = new Map<string, SsoFlow>();
 * const keeper: SsoFlowStore = {
 *   save: (flow) => {
 *     flows.set(flow.tokenHash, flow);
 *     return Promise.resolve();
 *   },
 *   spend: (tokenHash) => {
 *     const flow = flows.get(tokenHash) ?? null;
 *     flows.delete(tokenHash);
 *     return Promise.resolve(flow);
 *   },
 * };
 * ```
 */
export interface SsoFlowStore {
  /** Keeps a new flow until `expiresAt` (a later sweep may delete it). */
  save(flow: SsoFlow): Promise<void>;
  /**
   * Deletes the flow with this token hash and answers it, or null when
   * there is none (never saved, or already spent). Expiry is checked by the
   * caller, so a store may answer an expired record it has not swept yet.
   */
  spend(tokenHash: string): Promise<SsoFlow | null>;
}
