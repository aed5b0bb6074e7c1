/**
 * Bounded body decoding: caps the body, refuses malformed JSON and
 * anything that is not an object (or, for a form, another content type),
 * and reads typed fields with the codes of the HTTP contract.
 *
 * @module
 */

import { AuthError } from "./errors.ts";
import { DEFAULT_LIMITS } from "./limits.ts";

/** Options of {@linkcode decode} and {@linkcode decodeForm}. */
export interface DecodeOptions {
  /** Largest accepted body in bytes; 16 KiB by default. */
  maxBytes?: number;
}

/** A decoded JSON object body. */
export type JsonObject = Record<string, unknown>;

/**
 * Reads a request body as one JSON object, never more than `maxBytes`.
 * Throws {@linkcode AuthError} `body_too_large` (413) over the cap and
 * `body_malformed` (400) for invalid JSON, trailing content after the value,
 * a value that is not an object, or a body the client stopped sending.
 *
 * @param req The request.
 * @param options The byte cap.
 * @returns The object.
 *
 * @example Decoding a login body
 * ```ts
 * import { decode } from "@gatehouse/server";
 *
 * const req = new Request("http://localhost/", {
 *   method: "POST",
 *   body: JSON.stringify({ email: "a@example.com" }),
 * });
 * const body = await decode(req);
 * console.assert(body.email === "a@example.com");
 * ```
 */
export async function decode(
  req: Request,
  options: DecodeOptions = {},
): Promise<JsonObject> {
  const text = await readText(req, options);
  let value: unknown;
  try {
    // JSON.parse refuses trailing content (`{}{}`, `{} x`) by itself.
    value = JSON.parse(text);
  } catch {
    throw new AuthError("body_malformed");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new AuthError("body_malformed", {
      message: "Request body must be a JSON object",
    });
  }
  return value as JsonObject;
}

const FORM_TYPE = "application/x-www-form-urlencoded";

/**
 * Reads a request body as form fields (`application/x-www-form-urlencoded`),
 * under the same cap and with the same refusals as {@linkcode decode}:
 * `body_too_large` (413) over the cap, `body_malformed` (400) for another
 * content type, bytes that are not UTF-8, or a body cut off.
 *
 * @param req The request.
 * @param options The byte cap.
 * @returns The fields.
 *
 * @example Decoding a form body
 * ```ts
 * import { decodeForm } from "./decode.ts";
 *
 * const req = new Request("http://localhost/", {
 *   method: "POST",
 *   body: new URLSearchParams({ logout_token: "t" }),
 * });
 * const form = await decodeForm(req);
 * console.assert(form.get("logout_token") === "t");
 * ```
 */
export async function decodeForm(
  req: Request,
  options: DecodeOptions = {},
): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== FORM_TYPE) {
    await discard(req.body);
    throw new AuthError("body_malformed", {
      message: `Request body must be ${FORM_TYPE}`,
    });
  }
  return new URLSearchParams(await readText(req, options));
}

// The body as UTF-8 text, never more than the cap: refused on its declared
// length before a byte is read, and on the bytes that arrive otherwise.
async function readText(
  req: Request,
  options: DecodeOptions,
): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxBodyBytes;
  if (Number(req.headers.get("content-length")) > maxBytes) {
    await discard(req.body);
    throw tooLarge(maxBytes);
  }
  if (req.body === null) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The client hung up mid-body (or its stream failed): its input,
      // not our failure, so a 400 (which no one may read) and no error in
      // the log, whoever sends such bodies and however many.
      throw new AuthError("body_malformed", {
        message: "Request body ended before it was complete",
      });
    }
    if (read.done) break;
    size += read.value.byteLength;
    if (size > maxBytes) {
      await discard(reader);
      throw tooLarge(maxBytes);
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AuthError("body_malformed", {
      message: "Request body is not valid UTF-8",
    });
  }
}

// Drops the rest of a body we refuse; one whose stream already failed has
// nothing left to drop.
async function discard(
  body: { cancel(): Promise<void> } | null,
): Promise<void> {
  try {
    await body?.cancel();
  } catch {
    // Already failed: the refusal stands on its own.
  }
}

function tooLarge(maxBytes: number): AuthError {
  return new AuthError("body_too_large", {
    message: `Request body is too large: the limit is ${maxBytes} bytes`,
  });
}

/**
 * Reads a required string field: `body_field_required` when it is absent or
 * null, `body_malformed` when it is not a string.
 */
export function requiredString(body: JsonObject, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) throw fieldRequired(field);
  if (typeof value !== "string") throw wrongType(field, "a string");
  return value;
}

/** Reads an optional string field; absent or null gives `undefined`. */
export function optionalString(
  body: JsonObject,
  field: string,
): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw wrongType(field, "a string");
  return value;
}

/** Reads a required boolean field. */
export function requiredBoolean(body: JsonObject, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) throw fieldRequired(field);
  if (typeof value !== "boolean") throw wrongType(field, "true or false");
  return value;
}

function fieldRequired(field: string): AuthError {
  return new AuthError("body_field_required", {
    message: `Request body is missing a required field: "${field}"`,
    meta: { field },
  });
}

function wrongType(field: string, expected: string): AuthError {
  return new AuthError("body_malformed", {
    message: `Field "${field}" must be ${expected}`,
    meta: { field },
  });
}
