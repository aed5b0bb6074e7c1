/**
 * The shapes of single sign-on with a company's OpenID Connect provider
 * (DESIGN.md §13), as the client hands them to your code: the server's
 * JSON with camelCase names, like the rest of `types.ts`.
 *
 * @module
 */

import type { SsoErrorCode } from "@gatehouse/contract";

export type { SsoErrorCode };

/**
 * A single sign-on provider, as the login screen offers it: its button
 * ("Sign in with {name}") and the address domains it speaks for.
 *
 * @example A company's provider that its staff must use
 * ```ts
 * import type { SsoProvider } from "@gatehouse/client/sso";
 *
 * const acme: SsoProvider = {
 *   id: "acme",
 *   name: "Acme SSO",
 *   domains: ["acme.example"],
 *   enforce: true,
 * };
 * ```
 */
export interface SsoProvider {
  /** Its id (`[a-z0-9-]{1,32}`): the `{id}` of its routes. */
  readonly id: string;
  /** The name its button shows. */
  readonly name: string;
  /** The address domains it speaks for (lower case); none for any. */
  readonly domains: readonly string[];
  /**
   * Whether addresses in `domains` must sign in through it (every other
   * way to sign in refuses them with `sso_required`); absent from a server
   * that does not say.
   */
  readonly enforce?: boolean;
}

/**
 * An identity at a provider linked to the signed-in account.
 *
 * @example Ada's identity at Acme
 * ```ts
 * import type { SsoIdentity } from "@gatehouse/client/sso";
 *
 * const linked: SsoIdentity = {
 *   id: "0190f0a0-0000-7000-8000-0000000000e1",
 *   provider: "acme",
 *   name: "Ada Lovelace",
 *   email: "ada@acme.example",
 *   linkedAt: "2026-03-01T10:00:00.000Z",
 * };
 * ```
 */
export interface SsoIdentity {
  /** Its own id (a UUID), for `unlinkSsoIdentity`. */
  readonly id: string;
  /** The provider's id (an {@linkcode SsoProvider}'s `id`). */
  readonly provider: string;
  /** The person's name at the provider; "" when it gave none. */
  readonly name: string;
  /** The person's address at the provider; "" when it gave none. */
  readonly email: string;
  /** When it was linked (ISO 8601; wire: `linked_at`). */
  readonly linkedAt: string;
}

/**
 * How {@linkcode startSso} leaves the page.
 *
 * @example Renewing the proof of identity, back to the same page
 * ```ts
 * import type { SsoStartOptions } from "@gatehouse/client/sso";
 *
 * const options: SsoStartOptions = { returnTo: "/users", reauthenticate: true };
 * ```
 */
export interface SsoStartOptions {
  /**
   * Where the browser comes back to: a path of this site (`/…`); the server
   * takes anything else as `/`. The page's own path by default.
   */
  readonly returnTo?: string;
  /**
   * Renew the signed-in session's proof of identity (DESIGN.md §8) instead
   * of signing in: the provider asks the person to sign in again.
   */
  readonly reauthenticate?: boolean;
}
