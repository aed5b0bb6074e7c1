// Whether a completed sign-in deserves the `new_sign_in` notice (DESIGN.md
// §14): its browser or its network is one the account has not used in the
// last 90 days, and it is not the account's first sign-in. Decided from the
// account's own `login.succeeded` events (each keeps the address and the
// browser label of its request, and the digest of the trusted-device
// cookie the browser presented, if any): nothing else is stored for it.
//
// The browser: a browser that presented a trusted-device cookie (§15) is
// that device, known when an earlier sign-in presented the same one; any
// browser is also known by an earlier sign-in of its label that presented
// no cookie (the sign-in that issued a device its cookie presented none).
// The network: the IPv4 /24 or the IPv6 /64 of the address.
//
// The events are read newest first, a page at a time, until both are
// known, the window ends, or MAX_PAGES pages were read (an account signing
// in more often than that is judged on its latest sign-ins). No earlier
// sign-in at all is the first one only when the trail still holds the
// whole life of the account (younger than the audit retention); an older
// account with nothing in the window gets the notice.

import { addressBucket, canonicalAddress } from "../../http/_ip.ts";
import type { AuditEvent, Store } from "../store.ts";

/** How far back a browser or network counts as used: 90 days, ms. */
export const SIGN_IN_MEMORY = 90 * 24 * 60 * 60 * 1000;

const PAGE = 100;
const MAX_PAGES = 5;

/** What the decision needs besides the event. */
export interface SignInHistory {
  store: Pick<Store, "listAuditEvents">;
  /** When the account was made, ms (its events since are all kept, if `retention` allows). */
  createdAt: number;
  /** How long the trail keeps events, ms. */
  retention: number;
}

/** The network of an address: its IPv4 /24 or IPv6 /64; null when unknown. */
export function networkOf(ip: string): string | null {
  const address = canonicalAddress(ip);
  if (address === null) return null;
  if (address.includes(":")) return addressBucket(address);
  return `${address.slice(0, address.lastIndexOf("."))}.0/24`;
}

// The device digest an event's sign-in presented, if any.
const deviceOf = (event: AuditEvent) =>
  typeof event.detail.device === "string" ? event.detail.device : null;

/**
 * Whether the sign-in of `event` (a committed `login.succeeded`) is from a
 * browser or a network its account has not used in {@linkcode SIGN_IN_MEMORY},
 * and not its first sign-in.
 */
export async function isNewSignIn(
  event: AuditEvent,
  history: SignInHistory,
): Promise<boolean> {
  const userId = event.actorId;
  if (userId === null) return false;
  const since = event.at - SIGN_IN_MEMORY;
  const device = deviceOf(event);
  const network = networkOf(event.ip);
  let browserUsed = false;
  // An address that is no address cannot be judged new.
  let networkUsed = network === null;
  let earlier = false;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { events, nextCursor } = await history.store.listAuditEvents({
      limit: PAGE,
      userId,
      type: "login.succeeded",
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const seen of events) {
      // Only the account's own sign-ins before this one count (a racing
      // sign-in from the same new browser does not make it known).
      if (seen.actorId !== userId || seen.id >= event.id) continue;
      earlier = true;
      if (seen.at < since) return !(browserUsed && networkUsed);
      const other = deviceOf(seen);
      if (
        (device !== null && other === device) ||
        (other === null && seen.userAgent === event.userAgent)
      ) {
        browserUsed = true;
      }
      if (!networkUsed && networkOf(seen.ip) === network) networkUsed = true;
      if (browserUsed && networkUsed) return false;
    }
    if (nextCursor === null) break;
    cursor = nextCursor;
  }
  if (!earlier) {
    // The first sign-in, unless the trail may have lost earlier ones.
    return history.createdAt < event.at - history.retention;
  }
  return true;
}
