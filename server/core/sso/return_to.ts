// Where the browser goes after a single sign-on: a path of this site, and
// nothing that a browser could read as another origin. The value arrives in
// `?return_to=` at the start, travels in the flow record, and ends in a
// Location header at the callback: it is checked here, once, before it is
// stored, so no later step ever holds an unchecked target (STYLE.md: "any
// redirect target is checked to be a same-origin path in one helper").

/** The longest return path kept; a longer one becomes `/`. */
export const RETURN_TO_MAX_LENGTH = 1024;

// A path: "/" then printable ASCII only (no space, no control character, no
// CR/LF that could split a header, nothing a Headers object would refuse).
const PRINTABLE_PATH = /^\/[\x21-\x7e]*$/;
const BASE = "https://gatehouse.invalid";

/**
 * The same-origin path `value` names, or `/` when it names anything else.
 * Refused (answered `/`): absent or empty values, anything not starting
 * with a single `/` (`//evil`, `https://evil`, `/\evil`), any backslash,
 * CR, LF or other control character, space or non-ASCII character, and any
 * path a browser would resolve to another origin or to a path starting
 * with `//`.
 *
 * @param value The `return_to` query parameter, if any.
 * @returns A path safe for a Location header on this site.
 *
 * @example
 * ```ts
 * import { safeReturnPath } from "./return_to.ts";
 *
 * console.assert(safeReturnPath("/account?tab=keys") === "/account?tab=keys");
 * console.assert(safeReturnPath("//evil.example") === "/");
 * console.assert(safeReturnPath("https://evil.example/") === "/");
 * console.assert(safeReturnPath("/\r\nSet-Cookie:x=y") === "/");
 * ```
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (typeof value !== "string" || value.length > RETURN_TO_MAX_LENGTH) {
    return "/";
  }
  if (!PRINTABLE_PATH.test(value) || value.includes("\\")) return "/";
  if (value.startsWith("//")) return "/";
  // What a browser makes of it, relative to this site: the same origin and
  // a path that does not start with `//` (which some clients would read as
  // a host when the path is copied into another URL).
  let resolved: URL;
  try {
    resolved = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (resolved.origin !== BASE || resolved.pathname.startsWith("//")) {
    return "/";
  }
  return value;
}
