/**
 * Answers for any outcome of any endpoint: an error code, a 404 from a
 * server too old for the route, or no answer at all.
 *
 * @module
 */

import { HttpResponse } from "msw";
import type { HttpHandler } from "../_peer_types.ts";
import { type Endpoint, route, statusOf } from "./_routes.ts";

/**
 * Options of {@linkcode answerError}.
 *
 * @example A missing field, named
 * ```ts
 * import { answerError, type AnswerErrorOptions } from "@gatehouse/client/testing";
 *
 * const options: AnswerErrorOptions = { meta: { field: "name" } };
 * const handler = answerError("createUser", "body_field_required", options);
 * ```
 */
export interface AnswerErrorOptions {
  /** The status; the code's status from DESIGN.md §4 by default (400 for an unknown code). */
  readonly status?: number;
  /** `meta` of the error body, e.g. `{field: "email"}`. */
  readonly meta?: Readonly<Record<string, string>>;
  /** The English `error` text. */
  readonly message?: string;
  /** A `Retry-After` header in seconds (60 by default for `login_rate_limited`). */
  readonly retryAfter?: number;
  /**
   * Answer only the first request, then step aside for the handlers behind
   * (e.g. `reauthentication_required` once, then the success).
   */
  readonly once?: boolean;
}

/**
 * Answers an endpoint with an error body `{error, code, meta?}`, for any
 * outcome that has no named handler.
 *
 * @param endpoint The operation whose endpoint answers.
 * @param code The error code.
 * @param options Status, meta, message and `Retry-After`.
 * @returns The handler.
 *
 * @example A duplicate email on account creation
 * ```ts
 * import { createUser, EmailTakenError } from "@gatehouse/client/admin";
 * import { answerError, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("createUser() throws EmailTakenError for a taken address", async () => {
 *   env.use(answerError("createUser", "email_taken"));
 *   const error = await createUser({ email: "a@example.com", name: "A", password: "long enough password" })
 *     .catch((e) => e);
 *   if (!(error instanceof EmailTakenError)) throw error;
 * });
 * ```
 */
export function answerError(
  endpoint: Endpoint,
  code: string,
  options: AnswerErrorOptions = {},
): HttpHandler {
  const status = options.status ?? statusOf(code) ?? 400;
  const retryAfter = options.retryAfter ??
    (code === "login_rate_limited" ? 60 : undefined);
  const body = {
    error: options.message ?? `Refused: ${code}`,
    code,
    ...(options.meta === undefined ? {} : { meta: { ...options.meta } }),
  };
  const headers = retryAfter === undefined
    ? undefined
    : { "retry-after": String(retryAfter) };
  return route(
    endpoint,
    () => HttpResponse.json(body, { status, headers }),
    { once: options.once ?? false },
  );
}

/**
 * Answers an endpoint with a 404 and no JSON, as a server too old for the
 * route does.
 *
 * @param endpoint The operation whose endpoint is missing.
 * @returns The handler.
 *
 * @example A server without invitations
 * ```ts
 * import { ServerTooOldError } from "@gatehouse/client/admin";
 * import { invite } from "@gatehouse/client/admin";
 * import { installTestEnvironment, serverTooOld } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("invite() explains an old server", async () => {
 *   env.use(serverTooOld("invite"));
 *   const error = await invite({ email: "a@example.com", name: "A" }).catch((e) => e);
 *   if (!(error instanceof ServerTooOldError)) throw error;
 * });
 * ```
 */
export function serverTooOld(endpoint: Endpoint): HttpHandler {
  return route(endpoint, () => new HttpResponse("Not Found", { status: 404 }));
}

/**
 * Fails an endpoint's requests at the network level (no answer).
 *
 * @param endpoint The operation whose requests fail.
 * @returns The handler.
 *
 * @example The session cannot be read
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { installTestEnvironment, networkFailure } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("fetchSession() answers null when offline", async () => {
 *   env.use(networkFailure("fetchSession"));
 *   if ((await fetchSession()) !== null) throw new Error("expected null");
 * });
 * ```
 */
export function networkFailure(endpoint: Endpoint): HttpHandler {
  return route(endpoint, () => HttpResponse.error());
}
