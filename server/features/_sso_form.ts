// The form body of a provider's back-channel logout
// (`application/x-www-form-urlencoded`, OIDC Back-Channel Logout 1.0
// §2.5), read by the HTTP layer's capped reader under the same byte limit
// as a JSON body, with the same refusals: `body_too_large`, and
// `body_malformed` for another type or bytes that are not UTF-8.

import { decodeForm } from "../http/decode.ts";

/** The form fields of `req`, read within `maxBytes`. */
export function readForm(
  req: Request,
  maxBytes: number,
): Promise<URLSearchParams> {
  return decodeForm(req, { maxBytes });
}
