// One HTTP exchange of the REST transport: the method and path of the
// operation from the contract, the URL resolved, JSON sent with the page's
// cookies (`credentials: "same-origin"`), and any refusal turned into its
// typed error. A fetch that never answers becomes NetworkError.

import {
  type Method,
  type OperationName,
  OPERATIONS,
  pathOf,
} from "@gatehouse/contract/operations";
import { type CallContext, errorFromAnswer } from "./_error_map.ts";
import type { AuthClientError } from "./errors.ts";
import { NetworkError, UnexpectedResponseError } from "./service_errors.ts";

/** Where and how the REST transport sends requests. */
export interface HttpOptions {
  /** Base the `/api/...` paths resolve against; the page's location by default. */
  baseUrl?: string | URL;
  /** The fetch to use; `globalThis.fetch` at call time by default. */
  fetch?: typeof globalThis.fetch;
}

/** One request: the operation of the contract, and what it sends. */
export interface HttpCall extends CallContext {
  operation: OperationName;
  /** Path values by name, e.g. `{id}`. */
  params?: Readonly<Record<string, string>>;
  /** Query parameters; those left undefined are not sent. */
  query?: Readonly<Record<string, string | number | undefined>>;
  /** Sent as JSON when present. */
  body?: unknown;
}

/** The path (and query string) of a call. */
export function pathOfCall(call: HttpCall): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const path = pathOf(call.operation, call.params);
  return params.size === 0 ? path : `${path}?${params}`;
}

/** Resolves `path` against the base URL, or the page's location, or leaves it relative. */
export function resolveUrl(path: string, baseUrl?: string | URL): string {
  if (baseUrl !== undefined) return new URL(path, baseUrl).href;
  // `location` is the page's in a browser, and whatever a test harness or
  // `--location` set under Deno; without one the path stays relative.
  const here = typeof location === "undefined" ? undefined : location?.href;
  return here === undefined ? path : new URL(path, here).href;
}

/** Sends `call`; answers the response when it is a success, throws the typed error otherwise. */
export function send(options: HttpOptions, call: HttpCall): Promise<Response> {
  const route = {
    method: OPERATIONS[call.operation].method,
    path: pathOfCall(call),
  };
  return sendTo(options, route, call);
}

/**
 * Sends a request to a route given by method and path, as `send` does for
 * an operation of the contract. Only for a route the contract does not
 * have yet (the screens' seams); everything else goes through `send`.
 */
export async function sendTo(
  options: HttpOptions,
  route: { readonly method: Method; readonly path: string },
  call: CallContext & { body?: unknown },
): Promise<Response> {
  const headers: Record<string, string> = { accept: "application/json" };
  const init: RequestInit = {
    method: route.method,
    headers,
    credentials: "same-origin",
  };
  if (call.body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(call.body);
  }
  const doFetch = options.fetch ?? globalThis.fetch;
  let response: Response;
  try {
    response = await doFetch(resolveUrl(route.path, options.baseUrl), init);
  } catch (cause) {
    throw new NetworkError(undefined, { cause });
  }
  if (response.ok) return response;
  throw await refusal(response, call);
}

async function refusal(
  response: Response,
  call: CallContext,
): Promise<AuthClientError> {
  let body: unknown = undefined;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's page, an old server's 404): the status decides.
  }
  const fields = typeof body === "object" && body !== null
    ? body as Record<string, unknown>
    : {};
  return errorFromAnswer({
    status: response.status,
    ...(typeof fields.code === "string" ? { code: fields.code } : {}),
    ...(typeof fields.error === "string" ? { message: fields.error } : {}),
    ...(isMeta(fields.meta) ? { meta: fields.meta } : {}),
    retryAfter: response.headers.get("retry-after"),
  }, call);
}

function isMeta(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === "string");
}

/** The JSON body of a success, or UnexpectedResponseError. */
export async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch (cause) {
    throw new UnexpectedResponseError(
      "Unexpected answer from the server: the body is not JSON",
      { status: response.status, cause },
    );
  }
}
