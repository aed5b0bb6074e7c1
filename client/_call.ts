// One generic call of any operation of the contract: its method, path and
// success from `OPERATIONS`, its answer read against its schema in
// `SHAPES`/`SCHEMAS` (so an answer outside the contract fails here, loudly,
// instead of deep inside a screen) and turned into the client's camelCase
// shape; refusals are mapped by the one table of _error_map.ts (in
// _http.ts). Nothing here names a field: the schemas do.

import {
  type JsonSchema,
  type SchemaName,
  SCHEMAS,
  SHAPES,
} from "@gatehouse/contract/shapes";
import { type OperationName, OPERATIONS } from "@gatehouse/contract/operations";
import { type HttpCall, type HttpOptions, readJson, send } from "./_http.ts";
import type { CallContext } from "./_error_map.ts";
import { UnexpectedResponseError } from "./service_errors.ts";

/** What a call sends: path values, query parameters and a JSON body. */
export type CallInput = Omit<HttpCall, "operation">;

/** What `call` answers: the status, and the answer in camelCase (undefined without one). */
export interface Answered<T> {
  readonly status: number;
  readonly body: T;
}

function malformed(what: string, status: number): UnexpectedResponseError {
  return new UnexpectedResponseError(
    `Unexpected answer from the server: ${what}`,
    { status },
  );
}

// snake_case (the wire) to camelCase (the client's shapes).
const camel = (key: string) =>
  key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// The JSON types of the `type` keyword, checked.
const TYPES: Readonly<Record<string, (value: unknown) => boolean>> = {
  string: (value) => typeof value === "string",
  boolean: (value) => typeof value === "boolean",
  integer: (value) => Number.isInteger(value),
  number: (value) => typeof value === "number",
  null: (value) => value === null,
  array: Array.isArray,
  object: isObject,
};

/**
 * `value` read against `schema`: checked (types, required keys, `enum`,
 * `const`, `oneOf`, `minimum`, non-empty lists where the schema says so)
 * and converted: the keys an object schema names become camelCase, times
 * (`date-time`, also given as epoch ms) become ISO text, and an object the
 * schema leaves open (WebAuthn options, `detail`) is passed on with its
 * own keys. Counts and patterns the server guarantees are not re-checked.
 */
export function fromWire(
  schema: JsonSchema,
  value: unknown,
  status: number,
  where = "the answer",
): unknown {
  if (typeof schema.$ref === "string") {
    return fromWire(resolve(schema), value, status, where);
  }
  if (Array.isArray(schema.oneOf)) {
    for (const branch of schema.oneOf as JsonSchema[]) {
      try {
        return fromWire(branch, value, status, where);
      } catch {
        // The next branch may match.
      }
    }
    throw malformed(`${where} is none of its shapes`, status);
  }
  if ("const" in schema && value !== schema.const) {
    throw malformed(`${where} is not ${JSON.stringify(schema.const)}`, status);
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) {
    throw malformed(`${where} is not one of its values`, status);
  }
  if (schema.format === "date-time") return time(value, status, where);
  const types = schema.type === undefined
    ? []
    : ([] as string[]).concat(schema.type as string | string[]);
  if (types.length > 0 && !types.some((type) => TYPES[type]?.(value))) {
    throw malformed(`${where} is not ${types.join(" or ")}`, status);
  }
  if (
    typeof schema.minimum === "number" && (value as number) < schema.minimum
  ) {
    throw malformed(`${where} is below ${schema.minimum}`, status);
  }
  if (Array.isArray(value) && schema.items !== undefined) {
    if (typeof schema.minItems === "number" && value.length === 0) {
      throw malformed(`${where} is empty`, status);
    }
    return value.map((item) =>
      fromWire(schema.items as JsonSchema, item, status, `an item of ${where}`)
    );
  }
  if (isObject(value)) return objectFromWire(schema, value, status);
  return value;
}

/** The schema of `SCHEMAS` that `schema`'s `$ref` names, or `schema` itself. */
export function resolve(schema: JsonSchema): JsonSchema {
  if (typeof schema.$ref !== "string") return schema;
  return SCHEMAS[
    schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1) as SchemaName
  ];
}

function objectFromWire(
  schema: JsonSchema,
  value: Record<string, unknown>,
  status: number,
): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as readonly string[];
  // Only what the contract gives a schema is the client's to check.
  for (const key of required) {
    if (key in properties && value[key] === undefined) {
      throw malformed(`"${key}" is missing`, status);
    }
  }
  if (schema.additionalProperties !== false) {
    // Open: passed on as it came, its named fields checked.
    for (const [key, field] of Object.entries(properties)) {
      if (value[key] !== undefined) {
        fromWire(field, value[key], status, `"${key}"`);
      }
    }
    const extra = schema.additionalProperties;
    if (isObject(extra)) {
      for (const [key, item] of Object.entries(value)) {
        fromWire(extra, item, status, `"${key}"`);
      }
    }
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(properties)) {
    if (value[key] === undefined) continue;
    out[camel(key)] = fromWire(field, value[key], status, `"${key}"`);
  }
  return out;
}

// A time: ISO text or epoch ms, answered as ISO text.
function time(value: unknown, status: number, where: string): string {
  const at = typeof value === "number" || typeof value === "string"
    ? new Date(value)
    : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) {
    throw malformed(`${where} is not a time`, status);
  }
  return at.toISOString();
}

/** The schema of the answer an operation gives with `status`, if it has a body. */
export function answerSchema(
  operation: OperationName,
  status: number,
): JsonSchema | undefined {
  const shape = SHAPES[operation];
  const alternative = shape.alternative;
  const name = alternative !== undefined &&
      status === alternative.status &&
      status !== OPERATIONS[operation].success
    ? alternative.answer
    : shape.answer;
  return name === undefined ? undefined : SCHEMAS[name];
}

/**
 * Calls `operation` with `input`: the request from the contract, a
 * refusal thrown as its typed error, and the answer read against the
 * contract's schema into camelCase (`undefined` for a success without a
 * body, whose body is drained).
 */
export async function call<T = unknown>(
  http: HttpOptions,
  operation: OperationName,
  input: CallInput & Omit<CallContext, "operation"> & {
    /** Looks at the JSON before it is read (a refusal the schema cannot say). */
    readonly check?: (json: unknown, status: number) => void;
  } = {},
): Promise<Answered<T>> {
  const { check, ...request } = input;
  const response = await send(http, { ...request, operation });
  const schema = answerSchema(operation, response.status);
  if (schema === undefined) {
    // An answer the body of which is not read: a body breaking off is no
    // failure of its own. But only the contract's status says the server
    // did it: a page answering 200 for any path (a proxy's, a host's
    // fallback) would otherwise pass for a sign-out that never happened.
    await response.body?.cancel().catch(() => {});
    if (response.status !== OPERATIONS[operation].success) {
      throw malformed(`status ${response.status}`, response.status);
    }
    return { status: response.status, body: undefined as T };
  }
  const json = await readJson(response);
  check?.(json, response.status);
  return {
    status: response.status,
    body: fromWire(schema, json, response.status) as T,
  };
}

/** One call of the contract answering only its camelCase answer (rest.ts's). */
export type Ask = <T>(
  operation: OperationName,
  input?: CallInput & Omit<CallContext, "operation">,
) => Promise<T>;
