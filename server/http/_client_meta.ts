// Who is calling, as sessions and audit events record it: the client
// address as the login limiter resolves it (the peer, or the trusted
// proxy's header), and a short label of the browser and system ("Chrome on
// Linux") from a maintained user-agent parser, never from regexes of ours.
//
// The parser (bowser) is imported by the first operation that may record
// a client, not at start-up: a session check records none, and a cold
// start should not pay for it (issue 31). `withBrowserLabels` puts that
// import in front of an operation; every operation but the session check
// is defined with it (../core/operation.ts), and every route but the
// session check's has it in front of its guards and limiter too
// (../core/routes.ts), so a limiter's refusal names the browser even as a
// fresh process's first answer.

import type Bowser from "bowser";
import { clientAddress, type TrustedProxy } from "./client_address.ts";
import { lazyImport } from "./_lazy_import.ts";
import type { Handler } from "./respond.ts";

/** The client of a request, as stored with sessions and events. */
export interface ClientMeta {
  /** The client address; "" when unknown. */
  ip: string;
  /** "Chrome on Linux" style, at most 64 characters; "" when unknown. */
  userAgent: string;
}

const MAX_LABEL = 64;
const MAX_HEADER = 512;
// Labels are shown on screens and written to stores: no control characters.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** The client address and browser label of `req`. */
export function clientMeta(
  req: Request,
  info: Deno.ServeHandlerInfo | undefined,
  trustedProxy?: TrustedProxy,
): ClientMeta {
  const ip = clientAddress(
    req,
    info,
    trustedProxy === undefined ? {} : { trustedProxy },
  ) ?? "";
  return { ip, userAgent: userAgentLabel(req.headers.get("user-agent")) };
}

let parser: typeof Bowser | undefined;
// The names the parser declares. Its last resort reads any `Name/1 (…)`
// header as a browser called "Name": text of the caller's choosing, which
// a label would carry to the sessions list, the audit trail and the mailed
// notices (anyone who knows an address causes an `account_locked` notice,
// "Browser: Visit https://… on Windows"). A name outside these is unknown.
let declared: ReadonlySet<string> = new Set();
const loadParser = lazyImport(async () => {
  const loaded = (await import("bowser")).default;
  declared = new Set([
    ...Object.values(loaded.BROWSER_MAP),
    ...Object.values(loaded.OS_MAP),
  ]);
  parser = loaded;
  return parser;
});

/**
 * `handler`, once the browser-label parser is loaded (at once after the
 * first call has loaded it).
 */
export function withBrowserLabels(handler: Handler): Handler {
  return function labelling(req, params, info) {
    if (parser !== undefined) return handler(req, params, info);
    return loadParser().then(() => handler(req, params, info));
  };
}

/**
 * "Browser on System" for a User-Agent header; "" when neither is known,
 * and "" before the parser is loaded (only a handler mounted without
 * `withBrowserLabels` can get there; it starts the import for next time).
 */
export function userAgentLabel(header: string | null): string {
  if (header === null || header === "") return "";
  if (parser === undefined) {
    loadParser().catch(() => {});
    return "";
  }
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = parser.parse(header.slice(0, MAX_HEADER));
  } catch {
    return "";
  }
  const browser = known(parsed.browser.name);
  const system = known(parsed.os.name);
  const label = browser !== "" && system !== ""
    ? `${browser} on ${system}`
    : browser || system;
  return label.replace(CONTROL, "").slice(0, MAX_LABEL);
}

function known(name: string | undefined): string {
  return name !== undefined && declared.has(name) ? name : "";
}
