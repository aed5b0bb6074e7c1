// The client's camelCase shapes written back as the server's JSON, for the
// test harness's fake server: driven by the contract's schemas, the inverse
// of _call.ts's `fromWire`. The keys a closed object schema names become
// snake_case; open objects (`detail`, WebAuthn options) keep their keys.

import type { JsonSchema } from "@gatehouse/contract/shapes";
import { resolve } from "./_call.ts";

/** A JSON object. */
type Json = Record<string, unknown>;

const snake = (key: string) =>
  key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The JSON `schema` describes, from the client's camelCase value. */
export function toWire(schema: JsonSchema, value: unknown): unknown {
  if (typeof schema.$ref === "string") return toWire(resolve(schema), value);
  if (Array.isArray(value)) {
    const items = schema.items as JsonSchema | undefined;
    return items === undefined
      ? value
      : value.map((item) => toWire(items, item));
  }
  if (typeof value !== "object" || value === null) return value;
  // The fields every branch names (an `InviteAnswer` is one of two).
  const branches = Array.isArray(schema.oneOf)
    ? schema.oneOf as JsonSchema[]
    : [schema];
  const properties: Record<string, JsonSchema> = {};
  for (const branch of branches) {
    const resolved = resolve(branch);
    if (resolved.additionalProperties !== false) continue;
    Object.assign(properties, resolved.properties);
  }
  if (Object.keys(properties).length === 0) return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value)) {
    const name = snake(key);
    if (field !== undefined && name in properties) {
      out[name] = toWire(properties[name]!, field);
    }
  }
  return out;
}
