// Who is calling, as sessions and audit events record it: the client
// address as the login limiter resolves it (the peer, or the trusted
// proxy's header), and a short label of the browser and system ("Chrome on
// Linux") from a maintained user-agent parser, never from regexes of ours.

import Bowser from "bowser";
import { clientAddress, type TrustedProxy } from "./client_address.ts";

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

/** "Browser on System" for a User-Agent header; "" when neither is known. */
export function userAgentLabel(header: string | null): string {
  if (header === null || header === "") return "";
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(header.slice(0, MAX_HEADER));
  } catch {
    return "";
  }
  const browser = parsed.browser.name ?? "";
  const system = parsed.os.name ?? "";
  const label = browser !== "" && system !== ""
    ? `${browser} on ${system}`
    : browser || system;
  return label.replace(CONTROL, "").slice(0, MAX_LABEL);
}
