/**
 * The shapes of the HTTP contract as JSON Schema (draft 2020-12, the
 * dialect of OpenAPI 3.1): the named wire shapes in {@linkcode SCHEMAS},
 * and for each operation its request (body, query, path values) and its
 * answer in {@linkcode SHAPES}. Answers are closed (`additionalProperties:
 * false`) so a field the contract does not name is caught by the tests that
 * check every answer; requests are open, as the server ignores fields it
 * does not read.
 *
 * @module
 */

import type { OperationName } from "./operations.ts";

/**
 * A JSON Schema (draft 2020-12) as a plain object.
 *
 * @example A schema
 * ```ts
 * import type { JsonSchema } from "@gatehouse/contract";
 *
 * const name: JsonSchema = { type: "string", minLength: 1 };
 * ```
 */
export type JsonSchema = { readonly [keyword: string]: unknown };

const string = { type: "string" } as const;
const uuid = { type: "string", format: "uuid" } as const;
const time = { type: "string", format: "date-time" } as const;
const strings = { type: "array", items: string } as const;
const ref = (name: string): JsonSchema => ({
  $ref: `#/components/schemas/${name}`,
});

// An object schema whose keys are all required but `optional`. Answers are
// closed (no field the contract does not name); request bodies are open.
function object(
  properties: Record<string, JsonSchema>,
  options: { optional?: readonly string[]; open?: boolean } = {},
): JsonSchema {
  const optional = options.optional ?? [];
  return {
    type: "object",
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
    ...(options.open ? {} : { additionalProperties: false }),
  };
}

const closed = (
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
) => object(properties, { optional });

const body = (
  properties: Record<string, JsonSchema>,
  optional: readonly string[] = [],
) => object(properties, { optional, open: true });

/**
 * The named wire shapes (DESIGN.md §4, §8), snake_case as on the wire. The
 * OpenAPI description lists them under `components.schemas`; `$ref`s point
 * there.
 *
 * @example The fields of a User
 * ```ts
 * import { SCHEMAS } from "@gatehouse/contract";
 *
 * console.assert("created_at" in (SCHEMAS.User.properties as object));
 * ```
 */
export const SCHEMAS: { readonly [Name in SchemaName]: JsonSchema } = {
  Identity: closed({
    id: uuid,
    email: string,
    name: string,
    role: string,
    capabilities: strings,
    grantable: strings,
  }, ["capabilities", "grantable"]),
  User: closed({
    id: uuid,
    email: string,
    name: string,
    role: string,
    disabled: { type: "boolean" },
    created_at: time,
  }),
  UserPage: closed({
    users: { type: "array", items: ref("User") },
    next_cursor: { type: ["string", "null"] },
  }),
  InviteAnswer: {
    oneOf: [
      closed({ delivered: { const: true } }),
      closed({
        delivered: { const: false },
        activation_link: { type: "string", format: "uri" },
      }),
    ],
  },
  Invitation: closed({
    id: uuid,
    email: string,
    name: string,
    role: string,
    invited_by: {
      oneOf: [
        closed({ id: uuid, email: string, name: string }),
        { type: "null" },
      ],
    },
    created_at: time,
    expires_at: time,
  }),
  InvitationList: closed({
    invitations: { type: "array", items: ref("Invitation") },
  }),
  Error: closed({
    error: string,
    code: string,
    meta: { type: "object", additionalProperties: string },
  }, ["meta"]),
  OpenApiDocument: {
    type: "object",
    required: ["openapi", "info", "paths"],
    properties: { openapi: { const: "3.1.0" } },
  },
};

/**
 * The name of a wire shape in {@linkcode SCHEMAS}.
 *
 * @example Naming a shape
 * ```ts
 * import type { SchemaName } from "@gatehouse/contract";
 *
 * const shape: SchemaName = "Identity";
 * ```
 */
export type SchemaName =
  | "Identity"
  | "User"
  | "UserPage"
  | "InviteAnswer"
  | "Invitation"
  | "InvitationList"
  | "Error"
  | "OpenApiDocument";

/** What an operation takes and answers, beyond its method and path. */
export interface OperationShape {
  /** The JSON body, when the operation reads one. */
  readonly body?: JsonSchema;
  /** Each query parameter, by name (all optional). */
  readonly query?: Readonly<Record<string, JsonSchema>>;
  /** Each path value, by name (the `:name`s of the path). */
  readonly params?: Readonly<Record<string, JsonSchema>>;
  /** The JSON answer of its success; absent for a success without a body. */
  readonly answer?: SchemaName;
  /** Whether the success sets the session cookie (`set`) or clears it. */
  readonly cookie?: "set" | "cleared";
}

const credentials = body({ email: string, password: string });
const linkSpend = body({ token: string, password: string });
const byId = { id: uuid } as const;

/**
 * The request and answer of every operation, by the names of
 * `OPERATIONS` (the type makes a missing one an error).
 *
 * @example What creating an account takes and answers
 * ```ts
 * import { SHAPES } from "@gatehouse/contract";
 *
 * console.assert(SHAPES.createUser.answer === "User");
 * ```
 */
export const SHAPES: { readonly [Name in OperationName]: OperationShape } = {
  login: { body: credentials, answer: "Identity", cookie: "set" },
  logout: { cookie: "cleared" },
  fetchSession: { answer: "Identity" },
  listUsers: {
    query: {
      limit: { type: "integer", minimum: 1, maximum: 100, default: 50 },
      cursor: uuid,
      q: string,
    },
    answer: "UserPage",
  },
  createUser: {
    body: body(
      { email: string, name: string, password: string, role: string },
      [
        "role",
      ],
    ),
    answer: "User",
  },
  setUserDisabled: {
    params: byId,
    body: body({ disabled: { type: "boolean" }, role: string }, ["role"]),
    answer: "User",
  },
  setUserRole: { params: byId, body: body({ role: string }), answer: "User" },
  invite: {
    body: body({ email: string, name: string, role: string }, ["role"]),
    answer: "InviteAnswer",
  },
  listInvitations: { answer: "InvitationList" },
  revokeInvitation: { params: byId },
  acceptInvite: { body: linkSpend, answer: "Identity", cookie: "set" },
  requestPasswordReset: { body: body({ email: string }) },
  resetPassword: { body: linkSpend },
  describeApi: { answer: "OpenApiDocument" },
};
