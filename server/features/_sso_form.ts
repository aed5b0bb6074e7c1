// The form body of a provider's back-channel logout
// (`application/x-www-form-urlencoded`, OIDC Back-Channel Logout 1.0
// §2.5), read under the same byte limit as a JSON body, with the same
// refusals: `body_too_large`, and `body_malformed` for another type or
// bytes that are not UTF-8.

import { AuthError } from "../http/errors.ts";

const FORM_TYPE = "application/x-www-form-urlencoded";

/** The form fields of `req`, read within `maxBytes`. */
export async function readForm(
  req: Request,
  maxBytes: number,
): Promise<URLSearchParams> {
  const type = req.headers.get("content-type") ?? "";
  if (type.split(";")[0]!.trim().toLowerCase() !== FORM_TYPE) {
    await req.body?.cancel();
    throw new AuthError("body_malformed", {
      message: `Request body must be ${FORM_TYPE}`,
    });
  }
  const declared = Number(req.headers.get("content-length"));
  if (declared > maxBytes) {
    await req.body?.cancel();
    throw tooLarge(maxBytes);
  }
  const bytes = await readCapped(req, maxBytes);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AuthError("body_malformed", {
      message: "Request body is not valid UTF-8",
    });
  }
  return new URLSearchParams(text);
}

async function readCapped(req: Request, maxBytes: number): Promise<Uint8Array> {
  if (req.body === null) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): AuthError {
  return new AuthError("body_too_large", {
    message: `Request body is too large: the limit is ${maxBytes} bytes`,
  });
}
