// Every request the single sign-on layer sends to a provider (discovery,
// token, userinfo, JWKS) goes through this fetch, which never follows a
// redirect (DESIGN.md §13): a redirect could move a request carrying the
// client secret, or the keys tokens are checked with, to another host.
// openid-client and jose already ask for `redirect: "manual"` and refuse a
// non-200 answer; this makes the rule ours, whatever fetch is underneath.

/** The fetch the protocol layer calls: a URL string and a request init. */
export type SsoFetch = (url: string, init: RequestInit) => Promise<Response>;

/** Thrown when a provider answers a request with a redirect. */
export class SsoRedirectError extends Error {
  /** The redirect's HTTP status (0 for an opaque redirect). */
  readonly status: number;

  /**
   * A refused redirect.
   *
   * @param url The URL that answered with a redirect.
   * @param status The answer's status.
   */
  constructor(url: string, status: number) {
    super(
      `Refused to follow a redirect (HTTP ${status}) from "${
        withoutQuery(url)
      }"`,
    );
    this.name = "SsoRedirectError";
    this.status = status;
  }
}

/**
 * A fetch that sends `redirect: "manual"` and throws
 * {@linkcode SsoRedirectError} for any 3xx answer, instead of following it.
 *
 * @param inner The fetch underneath (the global one by default; tests and
 *   proxies may pass their own).
 * @returns The guarded fetch.
 *
 * @example
 * ```ts
 * import { noRedirectFetch, SsoRedirectError } from "./no_redirect_fetch.ts";
 *
 * const moved = () => Promise.resolve(new Response(null, {
 *   status: 302,
 *   headers: { location: "https://elsewhere.example/" },
 * }));
 * const guarded = noRedirectFetch(moved);
 * const error = await guarded("https://idp.example/jwks", {}).catch((e) => e);
 * console.assert(error instanceof SsoRedirectError);
 * ```
 */
export function noRedirectFetch(inner: SsoFetch = fetch): SsoFetch {
  return async function fetchWithoutRedirects(url, init) {
    const response = await inner(url, { ...init, redirect: "manual" });
    if (
      response.type === "opaqueredirect" ||
      (response.status >= 300 && response.status < 400)
    ) {
      await response.body?.cancel();
      throw new SsoRedirectError(url, response.status);
    }
    return response;
  };
}

function withoutQuery(url: string): string {
  if (!URL.canParse(url)) return "(invalid URL)";
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
