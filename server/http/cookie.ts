/**
 * Reading the `Cookie` header and writing `Set-Cookie` values. Small on
 * purpose, security-critical, and secure by default: `HttpOnly`, `Secure`,
 * `SameSite=Lax`, `Path=/`; a `__Host-` cookie cannot be given a Domain or
 * lose `Secure`, and no value may carry CR, LF or `;`.
 *
 * @module
 */

/** Options of {@linkcode serializeCookie}. */
export interface CookieOptions {
  /** Lifetime in seconds; `0` expires the cookie at once. */
  maxAge?: number;
  /** Defaults to `/`. A `__Host-` cookie must keep `/`. */
  path?: string;
  /** Never allowed on a `__Host-` cookie. */
  domain?: string;
  /** Defaults to true. A `__Host-` or `__Secure-` cookie must keep it. */
  secure?: boolean;
  /** Defaults to true. */
  httpOnly?: boolean;
  /** Defaults to `Lax`. */
  sameSite?: "Strict" | "Lax" | "None";
}

// RFC 6265 token characters for names; cookie-octets for values.
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const VALUE = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const ATTRIBUTE = /^[\x20-\x3A\x3C-\x7E]*$/;

/**
 * Checks that `name` can be a cookie name (an RFC 6265 token).
 *
 * @param name The name.
 * @returns Whether it is usable.
 */
export function isCookieName(name: string): boolean {
  return NAME.test(name);
}

/**
 * Builds a `Set-Cookie` value, secure by default. Throws a `TypeError` for a
 * name or value that could split the header, and for attributes that break
 * the `__Host-`/`__Secure-` prefix rules browsers enforce.
 *
 * @param name Cookie name.
 * @param value Cookie value (cookie-octets only).
 * @param options Attributes.
 * @returns The header value.
 *
 * @example A session cookie for one hour
 * ```ts
 * import { serializeCookie } from "./cookie.ts";
 *
 * const header = serializeCookie("__Host-session", "abc", { maxAge: 3600 });
 * console.assert(
 *   header === "__Host-session=abc; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Lax",
 * );
 * ```
 */
export function serializeCookie(
  name: string,
  value: string,
  options: CookieOptions = {},
): string {
  if (!NAME.test(name)) {
    throw new TypeError(`Invalid cookie name: "${name}"`);
  }
  if (!VALUE.test(value)) throw new TypeError("Invalid cookie value");
  const path = options.path ?? "/";
  const secure = options.secure ?? true;
  const httpOnly = options.httpOnly ?? true;
  const sameSite = options.sameSite ?? "Lax";
  if (name.startsWith("__Host-")) {
    if (options.domain !== undefined || path !== "/" || !secure) {
      throw new TypeError(
        `Invalid cookie "${name}": a __Host- cookie needs Secure, Path=/ and no Domain`,
      );
    }
  } else if (name.startsWith("__Secure-") && !secure) {
    throw new TypeError(
      `Invalid cookie "${name}": a __Secure- cookie needs Secure`,
    );
  }
  if (sameSite === "None" && !secure) {
    throw new TypeError(`Invalid cookie "${name}": SameSite=None needs Secure`);
  }
  const parts = [`${name}=${value}`];
  if (options.maxAge !== undefined) {
    if (!Number.isInteger(options.maxAge) || options.maxAge < 0) {
      throw new TypeError(
        "Invalid cookie Max-Age: use whole seconds, 0 or more",
      );
    }
    parts.push(`Max-Age=${options.maxAge}`);
  }
  if (options.domain !== undefined) {
    parts.push(`Domain=${attr(options.domain)}`);
  }
  parts.push(`Path=${attr(path)}`);
  if (httpOnly) parts.push("HttpOnly");
  if (secure) parts.push("Secure");
  parts.push(`SameSite=${sameSite}`);
  return parts.join("; ");
}

function attr(value: string): string {
  if (!ATTRIBUTE.test(value)) {
    throw new TypeError(`Invalid cookie attribute: ${JSON.stringify(value)}`);
  }
  return value;
}

/**
 * Finds one cookie in a `Cookie` request header. The first occurrence wins,
 * which is the most specific path's cookie in browsers' ordering.
 *
 * @param header The `Cookie` header, or null.
 * @param name The cookie to find.
 * @returns Its value, or null when absent.
 *
 * @example Reading the session cookie
 * ```ts
 * import { readCookie } from "./cookie.ts";
 *
 * console.assert(readCookie("a=1; __Host-session=xyz", "__Host-session") === "xyz");
 * console.assert(readCookie(null, "__Host-session") === null);
 * ```
 */
export function readCookie(header: string | null, name: string): string | null {
  if (header === null) return null;
  // Scanning for "name=" avoids building a map of every cookie on each request.
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(";", start);
    if (end === -1) end = header.length;
    let from = start;
    while (header.charCodeAt(from) === 32) from++;
    const eq = header.indexOf("=", from);
    if (
      eq !== -1 && eq < end && eq - from === name.length &&
      header.startsWith(name, from)
    ) {
      let value = header.slice(eq + 1, end).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
        value = value.slice(1, -1);
      }
      return value;
    }
    start = end + 1;
  }
  return null;
}
