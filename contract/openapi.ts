/**
 * The OpenAPI 3.1 description of the HTTP API, built from the contract's
 * data: every operation of `OPERATIONS`, its request and answer from
 * `SHAPES`, and one response per error status whose `code` is limited to
 * the codes that operation may answer with that status.
 *
 * @module
 */

import { ERROR_STATUS, type ErrorCode } from "./errors.ts";
import {
  OPERATION_NAMES,
  OPERATIONS,
  type OperationSpec,
} from "./operations.ts";
import {
  type CookieEffect,
  errorsOf,
  type JsonSchema,
  SCHEMAS,
  SHAPES,
} from "./shapes.ts";

/** The version of the HTTP API this contract describes. */
export const API_VERSION = "0.12.0";

/**
 * Options of {@linkcode openApiDocument}.
 *
 * @example A description for a deployment
 * ```ts
 * import type { OpenApiOptions } from "@gatehouse/contract";
 *
 * const options: OpenApiOptions = { cookieName: "__Host-session", servers: ["https://app.example"] };
 * ```
 */
export interface OpenApiOptions {
  /** The session cookie's name; `__Host-session` by default. */
  readonly cookieName?: string;
  /** Base URLs the API is served at (the `servers` list); none by default. */
  readonly servers?: readonly string[];
  /** The document's title; `Gatehouse` by default. */
  readonly title?: string;
}

/**
 * An OpenAPI 3.1 document, as plain JSON.
 *
 * @example Reading the paths
 * ```ts
 * import { openApiDocument, type OpenApiDocument } from "@gatehouse/contract";
 *
 * const doc: OpenApiDocument = openApiDocument();
 * console.assert("/api/auth/login" in doc.paths);
 * ```
 */
export interface OpenApiDocument {
  /** Always `3.1.0`. */
  readonly openapi: "3.1.0";
  /** Title and version. */
  readonly info: { readonly title: string; readonly version: string };
  /** Every path with its operations. */
  readonly paths: Readonly<Record<string, Record<string, JsonSchema>>>;
  /** The named schemas and the session cookie scheme. */
  readonly components: JsonSchema;
  /** The rest of the document (`servers`, `jsonSchemaDialect`). */
  readonly [key: string]: unknown;
}

const JSON_TYPE = "application/json";
const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * Builds the OpenAPI 3.1 description of every operation, body, answer and
 * error of the contract.
 *
 * @param options Cookie name, servers and title.
 * @returns The document.
 *
 * @example Serving it
 * ```ts
 * import { openApiDocument } from "@gatehouse/contract";
 *
 * const body = JSON.stringify(openApiDocument({ servers: ["https://app.example"] }));
 * const res = new Response(body, { headers: { "content-type": "application/json" } });
 * console.assert(res.ok);
 * ```
 */
export function openApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const name of OPERATION_NAMES) {
    const spec: OperationSpec = OPERATIONS[name];
    const path = spec.path.replace(/:([A-Za-z_]\w*)/g, "{$1}");
    paths[path] ??= {};
    paths[path][spec.method.toLowerCase()] = operationObject(name, spec);
  }
  const doc: Record<string, unknown> = {
    openapi: "3.1.0",
    info: { title: options.title ?? "Gatehouse", version: API_VERSION },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: options.cookieName ?? "__Host-session",
        },
      },
    },
  };
  if (options.servers !== undefined && options.servers.length > 0) {
    doc.servers = options.servers.map((url) => ({ url }));
  }
  return doc as unknown as OpenApiDocument;
}

function operationObject(
  name: keyof typeof OPERATIONS,
  spec: OperationSpec,
): JsonSchema {
  const shape = SHAPES[name];
  const parameters: JsonSchema[] = [];
  for (const [key, schema] of Object.entries(shape.params ?? {})) {
    parameters.push({ name: key, in: "path", required: true, schema });
  }
  for (const [key, schema] of Object.entries(shape.query ?? {})) {
    parameters.push({ name: key, in: "query", required: false, schema });
  }
  const operation: Record<string, unknown> = {
    operationId: name,
    summary: shape.summary,
    responses: { ...successResponse(spec, shape), ...errorResponses(name) },
  };
  if (spec.guard !== "public") operation.security = [{ session: [] }];
  if (parameters.length > 0) operation.parameters = parameters;
  if (shape.body !== undefined) {
    operation.requestBody = {
      required: true,
      content: { [JSON_TYPE]: { schema: shape.body } },
    };
  }
  if (shape.form !== undefined) {
    operation.requestBody = {
      required: true,
      content: { [FORM_TYPE]: { schema: shape.form } },
    };
  }
  return operation;
}

function successResponse(
  spec: OperationSpec,
  shape: (typeof SHAPES)[keyof typeof SHAPES],
): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {
    [String(spec.success)]: responseObject(shape),
  };
  if (shape.alternative !== undefined) {
    responses[String(shape.alternative.status)] = responseObject(
      shape.alternative,
    );
  }
  return responses;
}

const COOKIE_DESCRIPTIONS: Readonly<Record<CookieEffect, string>> = {
  set: "The session cookie",
  cleared: "The session cookie, cleared",
  pending: "The pending sign-in cookie (`__Host-gatehouse-pending`, 5 minutes)",
  sso: "The single sign-on cookie (`__Host-gatehouse-sso`, 10 minutes)",
  sso_done:
    "The single sign-on cookie, cleared; after a sign-in, the session cookie too",
};

function responseObject(
  success: {
    readonly summary: string;
    readonly answer?: string;
    readonly cookie?: CookieEffect;
    readonly location?: string;
  },
): JsonSchema {
  const response: Record<string, unknown> = { description: success.summary };
  const headers: Record<string, JsonSchema> = {};
  if (success.answer !== undefined) {
    response.content = {
      [JSON_TYPE]: {
        schema: { $ref: `#/components/schemas/${success.answer}` },
      },
    };
  }
  if (success.cookie !== undefined) {
    headers["Set-Cookie"] = {
      description: COOKIE_DESCRIPTIONS[success.cookie],
      schema: { type: "string" },
    };
  }
  if (success.location !== undefined) {
    headers.Location = {
      description: success.location,
      schema: { type: "string" },
    };
  }
  if (Object.keys(headers).length > 0) response.headers = headers;
  return response;
}

// One response per status, its `code` limited to the operation's codes of
// that status, so a code answered with the wrong status fails validation.
function errorResponses(
  name: keyof typeof OPERATIONS,
): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorsOf(name)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response: Record<string, unknown> = {
      description: codes.map((code) => `\`${code}\``).join(", "),
      content: {
        [JSON_TYPE]: {
          schema: {
            allOf: [
              { $ref: "#/components/schemas/Error" },
              { type: "object", properties: { code: { enum: codes } } },
            ],
          },
        },
      },
    };
    if (codes.includes("login_rate_limited")) {
      response.headers = {
        "Retry-After": {
          description: "Seconds until the limiter admits the client again",
          schema: { type: "integer" },
        },
      };
    }
    responses[String(status)] = response;
  }
  return responses;
}
