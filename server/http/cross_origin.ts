/**
 * Cross-origin protection for browser writes, with the rules of Go 1.25's
 * `http.CrossOriginProtection`: safe methods pass; `Sec-Fetch-Site` of
 * `same-origin` or `none` passes and any other value is refused; without it,
 * an `Origin` whose host equals the request's `Host` passes (scheme ignored)
 * and any other `Origin` is refused; with neither header (scripts, servers,
 * API clients) the request passes.
 *
 * @module
 */

import { AuthError, errorResponseForAuthError } from "./errors.ts";
import { type Middleware, respondError } from "./respond.ts";
import { defaultLogger, type Logger } from "./logger.ts";

/** The decision of {@linkcode checkCrossOrigin}. */
export type CrossOriginVerdict =
  | { allowed: true }
  | { allowed: false; reason: "fetch-site" | "origin" };

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);
const ALLOWED: CrossOriginVerdict = Object.freeze({ allowed: true });

/**
 * Decides whether a request may pass, without answering it: the pure half of
 * {@linkcode crossOriginGuard}.
 *
 * @param req The request.
 * @returns The verdict and, for a refusal, which header decided it.
 *
 * @example A write from another site
 * ```ts
 * import { checkCrossOrigin } from "./cross_origin.ts";
 *
 * const verdict = checkCrossOrigin(new Request("https://app.example/api/users", {
 *   method: "POST",
 *   headers: { "sec-fetch-site": "cross-site" },
 * }));
 * console.assert(!verdict.allowed && verdict.reason === "fetch-site");
 * ```
 */
export function checkCrossOrigin(req: Request): CrossOriginVerdict {
  if (SAFE_METHODS.has(req.method)) return ALLOWED;
  const fetchSite = req.headers.get("sec-fetch-site");
  if (fetchSite !== null) {
    return SAME_SITE_FETCH.has(fetchSite)
      ? ALLOWED
      : { allowed: false, reason: "fetch-site" };
  }
  const origin = req.headers.get("origin");
  if (origin === null) return ALLOWED;
  // Host only, never the scheme: an old browser's http->https write passes,
  // as in Go. HSTS closes that gap.
  const host = (req.headers.get("host") ?? new URL(req.url).host).toLowerCase();
  return originHost(origin) === host
    ? ALLOWED
    : { allowed: false, reason: "origin" };
}

function originHost(origin: string): string | null {
  if (!URL.canParse(origin)) return null; // "null" and garbage never match
  return new URL(origin).host;
}

/**
 * Options of {@linkcode crossOriginGuard}.
 *
 * @example Logging refusals elsewhere
 * ```ts
 * import { crossOriginGuard, type CrossOriginGuardOptions } from "@gatehouse/server";
 *
 * const options: CrossOriginGuardOptions = { logger: console };
 * const guard = crossOriginGuard(options);
 * ```
 */
export interface CrossOriginGuardOptions {
  /** Where refusals are logged; `console` by default. */
  readonly logger?: Logger;
}

/**
 * Middleware that refuses cross-origin browser writes with 403
 * `request_cross_origin` and logs `write refused` with the reason
 * (`fetch-site` or `origin`). `createGatehouse`'s routes carry it already;
 * mount it once, at the root, in front of routes of your own.
 *
 * @param options The logger. (A logger passed directly, the older form, is
 * still accepted: deprecated.)
 * @returns The middleware.
 *
 * @example Wrapping the whole server
 * ```ts
 * import { crossOriginGuard } from "@gatehouse/server";
 *
 * const app = (_req: Request) => new Response("ok");
 * const handler = crossOriginGuard()(app);
 * const res = await handler(new Request("http://localhost/", {
 *   method: "POST",
 *   headers: { origin: "http://localhost" },
 * }));
 * console.assert(res.status === 200);
 * ```
 */
export function crossOriginGuard(
  options: CrossOriginGuardOptions | Logger = {},
): Middleware {
  const logger = isLogger(options)
    ? options
    : (options.logger ?? defaultLogger);
  const [status, body] = errorResponseForAuthError(
    new AuthError("request_cross_origin"),
  );
  return (next) =>
    function crossOriginProtected(req, params, info) {
      const verdict = checkCrossOrigin(req);
      if (verdict.allowed) return next(req, params, info);
      logger.warn("write refused", {
        reason: verdict.reason,
        method: req.method,
        path: new URL(req.url).pathname,
        origin: req.headers.get("origin"),
        secFetchSite: req.headers.get("sec-fetch-site"),
      });
      return respondError(status, body);
    };
}

// The first form of crossOriginGuard took the logger itself.
function isLogger(value: CrossOriginGuardOptions | Logger): value is Logger {
  return typeof (value as Partial<Logger>).warn === "function";
}
