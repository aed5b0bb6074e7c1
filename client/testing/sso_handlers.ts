/**
 * Canned answers of single sign-on (DESIGN.md §13): the providers the
 * login screen offers, the start and the callback (navigations: their
 * answers are redirects), the provider's back-channel logout, and the
 * signed-in account's linked identities. Factories named
 * `<operation><Outcome>()`, as every canned handler is; `refuse` answers
 * any other code. With sample data ({@linkcode sampleSsoProvider},
 * {@linkcode sampleSsoIdentity}).
 *
 * @module
 */

import { HttpResponse } from "msw";
import type { SsoErrorCode } from "@gatehouse/contract";
import type { HttpHandler } from "../_peer_types.ts";
import type { SsoIdentity, SsoProvider } from "../sso_types.ts";
import { route } from "./_routes.ts";
import { answer, refuse } from "./answers.ts";

/**
 * A provider that speaks for `acme.example`, not enforced: what
 * {@linkcode listSsoProvidersOk} answers by default.
 *
 * @example
 * ```ts
 * import { sampleSsoProvider } from "@gatehouse/client/testing";
 *
 * console.assert(sampleSsoProvider.name === "Acme SSO");
 * ```
 */
export const sampleSsoProvider: SsoProvider = Object.freeze({
  id: "acme",
  name: "Acme SSO",
  domains: Object.freeze(["acme.example"]),
  enforce: false,
});

/**
 * An identity at {@linkcode sampleSsoProvider} linked to the signed-in
 * account: what {@linkcode listSsoIdentitiesOk} answers by default.
 *
 * @example
 * ```ts
 * import { sampleSsoIdentity } from "@gatehouse/client/testing";
 *
 * console.assert(sampleSsoIdentity.provider === "acme");
 * ```
 */
export const sampleSsoIdentity: SsoIdentity = Object.freeze({
  id: "0190f0a0-0000-7000-8000-0000000000e1",
  provider: "acme",
  name: "Ada Lovelace",
  email: "ada@acme.example",
  linkedAt: "2026-03-01T10:00:00.000Z",
});

/**
 * The providers: 200 with `providers` ({@linkcode sampleSsoProvider} by
 * default; `[]` for a server without single sign-on, which the test
 * environment answers unless a test says otherwise).
 *
 * @param providers The providers, in the order of the buttons.
 * @returns The handler.
 *
 * @example A provider that its domain must use
 * ```ts
 * import { listSsoProvidersOk, sampleSsoProvider } from "@gatehouse/client/testing";
 *
 * const handler = listSsoProvidersOk([{ ...sampleSsoProvider, enforce: true }]);
 * ```
 */
export function listSsoProvidersOk(
  providers: readonly SsoProvider[] = [sampleSsoProvider],
): HttpHandler {
  return answer("listSsoProviders", { providers });
}

/**
 * The start of a sign-in: 302 to the provider's authorization endpoint
 * (`location`). Only a navigation follows it; a test of a screen usually
 * replaces `startSso` in the transport instead.
 *
 * @param location Where the provider's sign-in is.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { startSsoOk } from "@gatehouse/client/testing";
 *
 * const handler = startSsoOk("https://login.acme.example/authorize?client_id=app");
 * ```
 */
export function startSsoOk(
  location = "https://login.acme.example/authorize",
): HttpHandler {
  return route("startSso", () =>
    new HttpResponse(null, {
      status: 302,
      headers: { location, "cache-control": "no-store" },
    }));
}

/**
 * The start is refused: 404 `provider_not_found`, 503
 * `provider_unavailable`, or (a re-authentication without a session) 401
 * `session_absent`.
 *
 * @param code What refuses it.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { startSsoRefused } from "@gatehouse/client/testing";
 *
 * const handler = startSsoRefused("provider_unavailable");
 * ```
 */
export function startSsoRefused(
  code:
    | "provider_not_found"
    | "provider_unavailable"
    | "session_absent" = "provider_unavailable",
): HttpHandler {
  return refuse("startSso", code);
}

/**
 * The provider's answer succeeded: 303 to the return path, signed in (the
 * real server sets the session cookie).
 *
 * @param returnTo The path the start was given.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { ssoCallbackOk } from "@gatehouse/client/testing";
 *
 * const handler = ssoCallbackOk("/projects");
 * ```
 */
export function ssoCallbackOk(returnTo = "/"): HttpHandler {
  return route("ssoCallback", () =>
    new HttpResponse(null, {
      status: 303,
      headers: { location: returnTo, "cache-control": "no-store" },
    }));
}

/**
 * The sign-in failed: 303 to `/?sso_error=CODE`, no session.
 *
 * @param code Why (`sso_denied` by default).
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { ssoCallbackError } from "@gatehouse/client/testing";
 *
 * const handler = ssoCallbackError("sso_email_unverified");
 * ```
 */
export function ssoCallbackError(
  code: SsoErrorCode = "sso_denied",
): HttpHandler {
  return ssoCallbackOk(`/?sso_error=${code}`);
}

/**
 * The provider's back-channel logout is taken: 200.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { ssoBackchannelLogoutOk } from "@gatehouse/client/testing";
 *
 * const handler = ssoBackchannelLogoutOk();
 * ```
 */
export function ssoBackchannelLogoutOk(): HttpHandler {
  return answer("ssoBackchannelLogout");
}

/**
 * The logout token fails validation: 400 `logout_token_invalid`.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { ssoBackchannelLogoutRefused } from "@gatehouse/client/testing";
 *
 * const handler = ssoBackchannelLogoutRefused();
 * ```
 */
export function ssoBackchannelLogoutRefused(): HttpHandler {
  return refuse("ssoBackchannelLogout", "logout_token_invalid", {
    meta: { field: "logout_token" },
  });
}

/**
 * The signed-in account's linked identities: 200 with `identities`
 * ({@linkcode sampleSsoIdentity} by default).
 *
 * @param identities The identities.
 * @returns The handler.
 *
 * @example An account linked to no provider
 * ```ts
 * import { listSsoIdentitiesOk } from "@gatehouse/client/testing";
 *
 * const handler = listSsoIdentitiesOk([]);
 * ```
 */
export function listSsoIdentitiesOk(
  identities: readonly SsoIdentity[] = [sampleSsoIdentity],
): HttpHandler {
  return answer("listSsoIdentities", { identities });
}

/**
 * Unlinking succeeds: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { unlinkSsoIdentityOk } from "@gatehouse/client/testing";
 *
 * const handler = unlinkSsoIdentityOk();
 * ```
 */
export function unlinkSsoIdentityOk(): HttpHandler {
  return answer("unlinkSsoIdentity");
}

/**
 * Unlinking is refused: 409 `last_sign_in_method` (the account would keep
 * no way to sign in), 404 `identity_not_found`, or 403
 * `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request (then the handlers behind answer).
 * @returns The handler.
 *
 * @example The last way in, kept
 * ```ts
 * import { unlinkSsoIdentityRefused } from "@gatehouse/client/testing";
 *
 * const handler = unlinkSsoIdentityRefused("last_sign_in_method");
 * ```
 */
export function unlinkSsoIdentityRefused(
  code:
    | "last_sign_in_method"
    | "identity_not_found"
    | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("unlinkSsoIdentity", code, { once });
}
