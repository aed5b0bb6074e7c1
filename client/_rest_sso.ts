// The REST side of single sign-on (DESIGN.md §13), beside rest.ts's: the
// providers and the linked identities are fetches like any other call; the
// start is a navigation of the page to the start route, which answers the
// provider's 302 (a fetch could not follow it: the provider's pages are for
// the person, and the cookie the start sets binds the browser).

import type { Ask } from "./_call.ts";
import { pathOfCall, resolveUrl } from "./_http.ts";
import type { AuthTransport } from "./auth_transport.ts";
import type { SsoIdentity, SsoProvider } from "./sso_types.ts";

/** The operations this file builds. */
export type SsoOperations = Pick<
  AuthTransport,
  | "listSsoProviders"
  | "startSso"
  | "listSsoIdentities"
  | "unlinkSsoIdentity"
>;

/** What the start needs besides `ask`: where URLs resolve and how the page leaves. */
export interface SsoNavigation {
  /** Base the `/api/...` paths resolve against; the page's location by default. */
  readonly baseUrl?: string | URL;
  /** Leaves the page for `url`; `location.assign` by default. */
  readonly navigate?: (url: string) => void;
}

/**
 * The query parameter a failed single sign-on comes back with
 * (`/?sso_error=CODE`): never sent back to the server in a return path.
 */
export const SSO_ERROR_PARAM = "sso_error";

/** The page's path and query, without a single sign-on failure's code; `/` without a page. */
export function pagePath(): string {
  if (typeof location === "undefined" || location === null) return "/";
  const params = new URLSearchParams(location.search);
  params.delete(SSO_ERROR_PARAM);
  const query = params.size === 0 ? "" : `?${params}`;
  return `${location.pathname}${query}`;
}

function assignLocation(url: string): void {
  if (typeof location === "undefined" || location === null) {
    throw new TypeError(
      "startSso navigates the page: call it in a browser, or give restTransport a `navigate`",
    );
  }
  location.assign(url);
}

/** Builds the operations over `ask` (rest.ts's generic call). */
export function ssoOperations(
  ask: Ask,
  navigation: SsoNavigation = {},
): SsoOperations {
  const none: (...call: Parameters<Ask>) => Promise<void> = ask;

  return {
    listSsoProviders: async () =>
      (await ask<{ providers: SsoProvider[] }>("listSsoProviders")).providers,
    startSso: (provider, options = {}) => {
      const path = pathOfCall({
        operation: "startSso",
        params: { id: provider },
        query: {
          return_to: options.returnTo ?? pagePath(),
          reauthenticate: options.reauthenticate === true ? "1" : undefined,
        },
      });
      try {
        (navigation.navigate ?? assignLocation)(
          resolveUrl(path, navigation.baseUrl),
        );
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    listSsoIdentities: async () =>
      (await ask<{ identities: SsoIdentity[] }>("listSsoIdentities"))
        .identities,
    unlinkSsoIdentity: (id) => none("unlinkSsoIdentity", { params: { id } }),
  };
}
