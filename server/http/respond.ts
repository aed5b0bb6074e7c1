/**
 * Handler and middleware shapes, and the two functions that write JSON
 * answers. Handlers take `(request, params?, info?)` like `@std/http`'s
 * `route()`, so they mount on it, on Fresh, Hono, Oak or a plain
 * `URLPattern` table.
 *
 * @module
 */

import {
  AuthError,
  type AuthErrorOptions,
  errorResponseForAuthError,
} from "./errors.ts";
import type { Logger } from "./logger.ts";
import type { ErrorBody } from "@gatehouse/contract";

/**
 * A request handler with the route shape of `@std/http`: the request, the
 * URLPattern match (for `{id}` path values) and the connection info (for the
 * client address).
 *
 * @example A handler
 * ```ts
 * import { type Handler, respond } from "@gatehouse/server";
 *
 * const hello: Handler = (_req, params) =>
 *   respond({ id: params?.pathname.groups.id ?? null });
 * ```
 */
export type Handler = (
  request: Request,
  params?: URLPatternResult,
  info?: Deno.ServeHandlerInfo,
) => Response | Promise<Response>;

/**
 * Wraps a handler in a check or a side effect.
 *
 * @example Composing middleware
 * ```ts
 * import { type Handler, type Middleware, respond } from "@gatehouse/server";
 *
 * const noStore: Middleware = (next) => async (req, params, info) => {
 *   const res = await next(req, params, info);
 *   res.headers.set("cache-control", "no-store");
 *   return res;
 * };
 * const handler: Handler = noStore(() => respond({ ok: true }));
 * ```
 */
export type Middleware = (next: Handler) => Handler;

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8" };

/**
 * `Cache-Control: no-store`: the one header record of every answer that
 * carries an identity, a session, a link or an account.
 */
export const NO_STORE: Readonly<Record<string, string>> = Object.freeze({
  "cache-control": "no-store",
});

/**
 * Answers with `value` as JSON.
 *
 * @param value Anything `JSON.stringify` accepts.
 * @param init Status (200 by default) and extra headers.
 * @returns The response.
 *
 * @example Answering 201 with a header
 * ```ts
 * import { respond } from "@gatehouse/server";
 *
 * const res = respond({ id: "u1" }, { status: 201, headers: { "x-a": "b" } });
 * console.assert(res.status === 201);
 * ```
 */
export function respond(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("content-type")) {
    headers.set("content-type", JSON_HEADERS["content-type"]);
  }
  return new Response(JSON.stringify(value), { ...init, headers });
}

/**
 * Answers with an error body `{error, code, meta?}`, with `Cache-Control:
 * no-store` unless `init` sets another: an error answer (a 401 above all)
 * says something about this caller at this moment, never worth caching.
 *
 * @param status The HTTP status.
 * @param body The error body.
 * @param init Extra headers, e.g. `Retry-After`.
 * @returns The response.
 *
 * @example A custom refusal in the module's shape
 * ```ts
 * import { respondError } from "@gatehouse/server";
 *
 * const res = respondError(409, { error: "Slot taken", code: "slot_taken" });
 * console.assert(res.status === 409);
 * ```
 */
export function respondError(
  status: number,
  body: ErrorBody,
  init: Omit<ResponseInit, "status"> = {},
): Response {
  const headers = new Headers(init.headers);
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return respond(body, { ...init, headers, status });
}

/**
 * The one error-answering wrapper: whatever the handler throws becomes its
 * JSON answer (an `AuthError` keeps its code; anything else is logged and
 * answered as `internal`). Handlers then read as their happy path.
 */
export function answeringErrors(logger: Logger): Middleware {
  return (next) =>
    async function answering(req, params, info) {
      try {
        return await next(req, params, info);
      } catch (err) {
        return answerError(err, logger);
      }
    };
}

/**
 * Turns a thrown value into its JSON answer, logging what is masked as
 * `internal` (the cause stays in the log, never on the wire).
 */
export function answerError(err: unknown, logger: Logger): Response {
  const [status, body, ok] = errorResponseForAuthError(err);
  if (!ok) logger.error("request failed", { error: err });
  return respondError(status, body);
}

/**
 * 429 `login_rate_limited` with `Retry-After` (`msLeft` in whole seconds, at
 * least 1): the one answer of every limit (the limiters, the per-account
 * code count, the change budget).
 *
 * @param msLeft Milliseconds until the window ends.
 * @param options A message and `meta` of its own (the account lock says
 *   which limit it is, DESIGN.md §15); the code's default otherwise.
 * @returns The answer.
 *
 * @example A window that ends in 90 seconds
 * ```ts
 * import { retryLater } from "./respond.ts";
 *
 * const res = retryLater(90_000);
 * console.assert(res.status === 429 && res.headers.get("retry-after") === "90");
 * ```
 */
export function retryLater(
  msLeft: number,
  options: AuthErrorOptions = {},
): Response {
  const [status, body] = errorResponseForAuthError(
    new AuthError("login_rate_limited", options),
  );
  const seconds = Math.max(1, Math.ceil(msLeft / 1000));
  return respondError(status, body, {
    headers: { "retry-after": String(seconds) },
  });
}
