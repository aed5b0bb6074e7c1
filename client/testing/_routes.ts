// The endpoints of the HTTP contract as msw routes, derived from
// `@gatehouse/contract` (method and path of each operation), and small
// helpers the canned handlers share. Paths start with `*`, so they match
// whatever origin the transport talks to.

import { type OperationName, OPERATIONS } from "@gatehouse/contract/operations";
import { http } from "msw";
import type { HttpHandler } from "../_peer_types.ts";

/**
 * An operation of the contract (`@gatehouse/contract`'s `OperationName`):
 * what `answer`, `refuse`, `serverTooOld` and `networkFailure` answer for.
 *
 * @example Failing every call of one kind
 * ```ts
 * import { type Endpoint, networkFailure } from "@gatehouse/client/testing";
 *
 * const offline = (endpoints: Endpoint[]) => endpoints.map(networkFailure);
 * const handlers = offline(["fetchSession", "login"]);
 * ```
 */
export type Endpoint = OperationName;

type Method = "get" | "post" | "patch" | "put" | "delete";

export function route(
  endpoint: Endpoint,
  resolver: Parameters<typeof http.get>[1],
  options: { once?: boolean } = {},
): HttpHandler {
  // msw's method and path of the operation, from the contract.
  const { method, path } = OPERATIONS[endpoint];
  const once = options.once ? { once: true } : {};
  return http[method.toLowerCase() as Method](`*${path}`, resolver, once);
}

export async function jsonBody(
  request: Request,
): Promise<Record<string, unknown>> {
  const body: unknown = await request.json().catch(() => ({}));
  return typeof body === "object" && body !== null
    ? body as Record<string, unknown>
    : {};
}

export const text = (value: unknown, fallback: string): string =>
  typeof value === "string" ? value : fallback;
