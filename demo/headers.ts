// Security headers. Every answer carries Strict-Transport-Security (browsers
// ignore it over plain http://localhost and honour it once TLS is in front),
// nosniff and no-referrer; HTML pages also get a Content-Security-Policy that
// admits only this origin's scripts, styles and API, and no framing.

import type { Middleware } from "@gatehouse/server";

/** Two years, subdomains included: what hstspreload.org asks for. */
export const HSTS = "max-age=63072000; includeSubDomains";

/** The pages' policy: nothing inline, nothing from elsewhere, no frames. */
export const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const EVERY_ANSWER: ReadonlyArray<readonly [string, string]> = [
  ["strict-transport-security", HSTS],
  ["x-content-type-options", "nosniff"],
  ["referrer-policy", "no-referrer"],
];

const PAGES: ReadonlyArray<readonly [string, string]> = [
  ["content-security-policy", CSP],
  ["x-frame-options", "DENY"],
  ["cross-origin-opener-policy", "same-origin"],
];

/** Adds the security headers to whatever `next` answers. */
export const securityHeaders: Middleware = (next) =>
  async function withSecurityHeaders(req, params, info) {
    let res = await next(req, params, info);
    try {
      setAll(res.headers, res.headers.get("content-type") ?? "");
    } catch {
      // Headers of e.g. Response.redirect() are immutable: copy the answer.
      res = new Response(res.body, res);
      setAll(res.headers, res.headers.get("content-type") ?? "");
    }
    return res;
  };

function setAll(headers: Headers, contentType: string): void {
  for (const [name, value] of EVERY_ANSWER) headers.set(name, value);
  if (contentType.startsWith("text/html")) {
    for (const [name, value] of PAGES) headers.set(name, value);
  }
}
