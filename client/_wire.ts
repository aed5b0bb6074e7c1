// The client's camelCase shapes written back as the server's JSON, for the
// test harness's fake server: driven by the contract's schemas, the inverse
// of _call.ts's `fromWire`. The keys a closed object schema names become
// snake_case; open objects (`detail`, WebAuthn options) keep their keys.

import {
  type JsonSchema,
  type SchemaName,
  SCHEMAS,
} from "@gatehouse/contract/shapes";

/** A JSON object. */
export type Json = Record<string, unknown>;

const snake = (key: string) =>
  key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function write(schema: JsonSchema, value: unknown): unknown {
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.slice(schema.$ref.lastIndexOf("/") + 1);
    return write(SCHEMAS[name as SchemaName], value);
  }
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined
      ? value
      : value.map((item) => write(items, item));
  }
  if (typeof value !== "object" || value === null) return value;
  // The fields every branch names (an `InviteAnswer` is one of two).
  const branches = Array.isArray(schema.oneOf)
    ? schema.oneOf as JsonSchema[]
    : [schema];
  const properties: Record<string, JsonSchema> = {};
  for (const branch of branches) {
    const resolved: JsonSchema = typeof branch.$ref === "string"
      ? SCHEMAS[
        branch.$ref.slice(branch.$ref.lastIndexOf("/") + 1) as SchemaName
      ]
      : branch;
    if (resolved.additionalProperties !== false) continue;
    Object.assign(properties, resolved.properties);
  }
  if (Object.keys(properties).length === 0) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value)) {
    const name = snake(key);
    if (field !== undefined && name in properties) {
      out[name] = write(properties[name]!, field);
    }
  }
  return out;
}

/**
 * The JSON of the named wire shape from the client's camelCase value (for
 * fake servers).
 */
export function toWire(name: SchemaName, value: unknown): Json {
  return write(SCHEMAS[name], value) as Json;
}

/** The JSON `schema` describes, from the client's camelCase value. */
export function toWireBy(schema: JsonSchema, value: unknown): unknown {
  return write(schema, value);
}
