// What accepting an invitation and confirming a reset share: read
// `{token, password}`, refuse a bad password *before* touching the link (so
// the person can retry with the same link), refuse a token that cannot be
// one, and hash the new password.

import { hashToken, isTokenShaped } from "./_crypto.ts";
import { validPassword } from "./_validate.ts";
import type { Auth } from "./auth.ts";
import { decode, requiredString } from "./decode.ts";
import { AuthError } from "./errors.ts";
import type { Limits } from "./limits.ts";
import type { Logger } from "./logger.ts";
import type { PasswordHasher } from "./password.ts";
import type { Store } from "./store.ts";

/** Collaborators of the public link handlers. */
export interface LinkSettings {
  store: Store;
  auth: Auth;
  hasher: PasswordHasher;
  limits: Limits;
  logger: Logger;
  now: () => number;
}

/** The 410 answer for a link that is unknown, spent or expired. */
export const DEAD_LINK: AuthError = new AuthError("token_invalid", {
  message: "This link is no longer valid: it was already used or has expired",
});

/** Reads and checks `{token, password}`; returns the token's digest and the new hash. */
export async function spendableLink(
  req: Request,
  settings: LinkSettings,
): Promise<{ tokenHash: string; passwordHash: string }> {
  const body = await decode(req, { maxBytes: settings.limits.maxBodyBytes });
  const token = requiredString(body, "token");
  const password = validPassword(
    requiredString(body, "password"),
    settings.limits,
  );
  if (!isTokenShaped(token)) throw DEAD_LINK;
  return {
    tokenHash: hashToken(token),
    passwordHash: await settings.hasher.hash(password),
  };
}
