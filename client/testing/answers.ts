/**
 * Answers for any outcome of any operation: its success with a body
 * ({@linkcode answer}), a refusal with an error code ({@linkcode refuse}),
 * a 404 from a server too old for the route, or no answer at all. The
 * canned handlers are one-liners over these. `answer` and `refuse` only
 * answer what the contract lets the real server answer, so a client test
 * cannot pass against a server that could not exist.
 *
 * @module
 */

import { ERROR_STATUS, type ErrorCode } from "@gatehouse/contract/errors";
import { OPERATIONS } from "@gatehouse/contract/operations";
import { errorsOf, SHAPES } from "@gatehouse/contract/shapes";
import { HttpResponse } from "msw";
import { answerSchema, fromWire } from "../_call.ts";
import type { HttpHandler } from "../_peer_types.ts";
import { UnexpectedResponseError } from "../service_errors.ts";
import { toWire } from "../_wire.ts";
import { type Endpoint, route } from "./_routes.ts";

/**
 * Options of {@linkcode answer}.
 *
 * @example The 202 of a sign-in that waits for its second factor
 * ```ts
 * import { answer, type AnswerOptions } from "@gatehouse/client/testing";
 *
 * const options: AnswerOptions = { status: 202 };
 * const handler = answer("login", { secondFactor: ["totp"] }, options);
 * ```
 */
export interface AnswerOptions {
  /**
   * The status; the operation's success by default. The other success an
   * operation may have (the 202 of `login`) answers its own shape; any
   * other status throws a `TypeError`.
   */
  readonly status?: number;
  /** Answer only the first request, then step aside for the handlers behind. */
  readonly once?: boolean;
}

/**
 * Answers an operation with its success: `body`, in the client's camelCase
 * shapes, is written as the server's JSON by the contract's answer schema
 * (snake_case keys, only the fields the schema names); an operation whose
 * success has no body answers none. `body` may be a function of the
 * request and its path values, for answers that echo the request.
 *
 * What it is told is checked against the contract. A status that is not a
 * success of the operation throws a `TypeError` here. The written body is
 * read as the client's calls read a real answer (required fields, types,
 * values); one they would refuse, or a body where the success has none,
 * throws a `TypeError` naming the operation and the field when the
 * request comes, and the test environment fails the test with it.
 *
 * @param endpoint The operation that answers.
 * @param body The answer, or a function that makes it from the request.
 * @param options Status and `once`.
 * @returns The handler.
 * @throws {TypeError} When the status is not a success of the operation.
 *
 * @example The recovery codes left, and an account echoed from its path
 * ```ts
 * import { countRecoveryCodes } from "../second_factor_calls.ts";
 * import { setUserRole } from "@gatehouse/client/admin";
 * import { accountOf, answer, installTestEnvironment, userWithRole } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("answer() answers any operation", async () => {
 *   env.use(
 *     answer("countRecoveryCodes", { recoveryCodesLeft: 3 }),
 *     answer("setUserRole", (_request, { id }) =>
 *       accountOf(userWithRole("admin"), { id })),
 *   );
 *   if ((await countRecoveryCodes()) !== 3) throw new Error("expected 3");
 *   const user = await setUserRole("0190f0a0-0000-7000-8000-000000000009", "admin");
 *   if (user.id !== "0190f0a0-0000-7000-8000-000000000009") throw new Error("expected the id");
 * });
 * ```
 */
export function answer(
  endpoint: Endpoint,
  body?:
    | ((
      request: Request,
      params: Readonly<Record<string, string>>,
    ) => unknown)
    | object
    | string
    | number
    | boolean
    | null,
  options: AnswerOptions = {},
): HttpHandler {
  const successes = [
    OPERATIONS[endpoint].success,
    SHAPES[endpoint].alternative?.status,
  ].filter((status) => status !== undefined);
  const status = options.status ?? successes[0]!;
  if (!successes.includes(status)) {
    throw new TypeError(
      `Cannot answer ${endpoint} with status ${status}: its successes are ${
        successes.join(" and ")
      }`,
    );
  }
  const schema = answerSchema(endpoint, status);
  return route(endpoint, async ({ request, params }) => {
    const value = typeof body === "function"
      ? await body(request, params as Record<string, string>)
      : body;
    if (schema === undefined) {
      if (value !== undefined) {
        throw new TypeError(
          `Cannot answer ${endpoint}: its ${status} has no body`,
        );
      }
      return new HttpResponse(null, { status });
    }
    const json = toWire(schema, value);
    try {
      // The client's own reading of an answer: what it refuses, the real
      // server never sends.
      fromWire(schema, json, status);
    } catch (error) {
      if (!(error instanceof UnexpectedResponseError)) throw error;
      // Its detail, without "Unexpected answer from the server": the
      // harness is the one at fault.
      const detail = error.message.replace(/^[^:]*: /, "");
      throw new TypeError(`Cannot answer ${endpoint}: ${detail}`);
    }
    return HttpResponse.json(json as object, { status });
  }, { once: options.once ?? false });
}

/**
 * Options of {@linkcode refuse}.
 *
 * @example A missing field, named
 * ```ts
 * import { refuse, type RefuseOptions } from "@gatehouse/client/testing";
 *
 * const options: RefuseOptions = { meta: { field: "name" } };
 * const handler = refuse("createUser", "body_field_required", options);
 * ```
 */
export interface RefuseOptions {
  /**
   * The status: the code's status in the contract's table, the only one
   * the contract gives it (another throws a `TypeError`).
   */
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
 * Refuses an operation with an error body `{error, code, meta?}` and the
 * code's status from the contract, for any refusal.
 *
 * The code must be one the contract declares for the operation
 * (`errorsOf`: its own refusals and those its guard, limiter and method
 * add, the list the server's answers are checked against); another code,
 * or a `status` other than the code's, throws a `TypeError` when the
 * handler is built.
 *
 * @param endpoint The operation whose endpoint answers.
 * @param code The error code.
 * @param options Status, meta, message and `Retry-After`.
 * @returns The handler.
 * @throws {TypeError} When the operation never answers `code`, or never
 *   with `status`.
 *
 * @example A duplicate email on account creation
 * ```ts
 * import { createUser, EmailTakenError } from "@gatehouse/client/admin";
 * import { installTestEnvironment, refuse } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment();
 * Deno.test("createUser() throws EmailTakenError for a taken address", async () => {
 *   env.use(refuse("createUser", "email_taken"));
 *   const error = await createUser({ email: "a@example.com", name: "A", password: "long enough password" })
 *     .catch((e) => e);
 *   if (!(error instanceof EmailTakenError)) throw error;
 * });
 * ```
 */
export function refuse(
  endpoint: Endpoint,
  code: string,
  options: RefuseOptions = {},
): HttpHandler {
  if (!(errorsOf(endpoint) as readonly string[]).includes(code)) {
    throw new TypeError(
      `Cannot refuse ${endpoint} with "${code}": not one of errorsOf("${endpoint}")`,
    );
  }
  const status = ERROR_STATUS[code as ErrorCode];
  if (options.status !== undefined && options.status !== status) {
    throw new TypeError(
      `Cannot refuse ${endpoint} with "${code}" and status ${options.status}: the contract answers it with ${status}`,
    );
  }
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
