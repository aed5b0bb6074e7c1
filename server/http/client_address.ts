/**
 * The client address of a request: the connection's peer, or, behind a
 * trusted reverse proxy, the address the proxy vouches for. The login
 * limiter counts per this address, and sessions and audit events record it.
 *
 * @module
 */

import { canonicalAddress } from "./_ip.ts";

/**
 * A reverse proxy whose client-address header may be believed. The header
 * is read only on requests whose direct peer is one of `addresses`.
 */
export interface TrustedProxy {
  /**
   * The header the proxy sets, e.g. `x-forwarded-for`: a comma-separated
   * list to which each proxy appends the address it saw. The client is the
   * right-most entry that is not a trusted proxy.
   */
  header: string;
  /** Addresses of your proxies (exact IPv4 or IPv6 addresses). */
  addresses: readonly string[];
}

/** Options of {@linkcode clientAddress}. */
export interface ClientAddressOptions {
  /** The proxy header and addresses to believe; without it, only the peer counts. */
  trustedProxy?: TrustedProxy;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** A trusted proxy as the resolver uses it. */
export interface PreparedProxy {
  header: string;
  addresses: ReadonlySet<string>;
}

/**
 * The address a request comes from: the connection's peer, or, when the
 * peer is a trusted proxy, the right-most address in the proxy's header that
 * is not itself a trusted proxy. Addresses come back in canonical form
 * (IPv6 as eight lower-case groups, IPv4-mapped IPv6 as IPv4); null when
 * nothing usable is known (no `info`, a Unix socket).
 *
 * @param request The request.
 * @param info The connection info the server passed to the handler.
 * @param options The trusted proxy, if any.
 * @returns The client address, or null.
 *
 * @example Behind a trusted proxy
 * ```ts
 * import { clientAddress } from "./client_address.ts";
 *
 * const req = new Request("http://localhost/api/auth/login", {
 *   headers: { "x-forwarded-for": "198.51.100.7, 10.0.0.2" },
 * });
 * const info = {
 *   remoteAddr: { transport: "tcp" as const, hostname: "10.0.0.1", port: 4711 },
 *   completed: Promise.resolve(),
 * };
 * const proxy = { header: "x-forwarded-for", addresses: ["10.0.0.1", "10.0.0.2"] };
 * console.assert(clientAddress(req, info, { trustedProxy: proxy }) === "198.51.100.7");
 * console.assert(clientAddress(req, info) === "10.0.0.1");
 * ```
 */
export function clientAddress(
  request: Request,
  info: Deno.ServeHandlerInfo | undefined,
  options: ClientAddressOptions = {},
): string | null {
  const { trustedProxy } = options;
  const proxy = trustedProxy === undefined
    ? undefined
    : prepareProxy(trustedProxy);
  return resolveClient(request, info, proxy);
}

/** A trusted proxy checked and normalised once, when configured. */
export function prepareProxy(proxy: TrustedProxy): PreparedProxy {
  const header = proxy.header.trim().toLowerCase();
  if (!HEADER_NAME.test(header)) {
    throw new TypeError(`Invalid trusted proxy header: "${proxy.header}"`);
  }
  const addresses = new Set<string>();
  for (const raw of proxy.addresses) {
    const address = canonicalAddress(raw);
    if (address === null) {
      throw new TypeError(`Invalid trusted proxy address: "${raw}"`);
    }
    addresses.add(address);
  }
  if (addresses.size === 0) {
    throw new TypeError("Invalid trusted proxy: no addresses given");
  }
  return { header, addresses };
}

/** The client address of `request` (see {@linkcode clientAddress}). */
export function resolveClient(
  request: Request,
  info: Deno.ServeHandlerInfo | undefined,
  proxy: PreparedProxy | undefined,
): string | null {
  const remote: Deno.Addr | undefined = info?.remoteAddr;
  const peer = remote !== undefined && "hostname" in remote
    ? canonicalAddress(remote.hostname)
    : null;
  if (proxy === undefined || peer === null || !proxy.addresses.has(peer)) {
    return peer;
  }
  const hops = request.headers.get(proxy.header)?.split(",") ?? [];
  let client = peer;
  // Walk from the nearest hop outwards; each trusted proxy vouches for the
  // entry left of its own. An unparsable entry ends the walk: everything
  // left of it is the client's own claim.
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalAddress(hops[i]!);
    if (hop === null) break;
    client = hop;
    if (!proxy.addresses.has(hop)) break;
  }
  return client;
}
