// What accepting an invitation and confirming a reset share: read
// `{token, password}`; refuse a bad password before touching the link (so
// the person can retry with the same link); refuse a dead link with one
// cheap store read and no argon2 work (DESIGN.md §5); only then hash the new
// password. Spending the link re-checks everything in the store's commit.

import { linkTokenHash, readNewPassword } from "./_input.ts";
import type { Auth } from "./auth.ts";
import { decode, requiredString } from "./decode.ts";
import { AuthError } from "./errors.ts";
import type { Limits } from "./limits.ts";
import type { Logger } from "./logger.ts";
import type { PasswordHasher } from "./password.ts";
import type { LinkKind, LinkRecord, Store } from "./store.ts";

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

/** A live link, its token's digest and the hash of the new password. */
export interface SpendableLink {
  tokenHash: string;
  link: LinkRecord;
  passwordHash: string;
}

/** Reads and checks `{token, password}` for a link of `kind`. */
export async function spendableLink(
  req: Request,
  settings: LinkSettings,
  kind: LinkKind,
): Promise<SpendableLink> {
  const { store, limits, hasher } = settings;
  const body = await decode(req, { maxBytes: limits.maxBodyBytes });
  const token = requiredString(body, "token");
  const password = await readNewPassword(
    requiredString(body, "password"),
    limits,
  );
  const tokenHash = linkTokenHash(token);
  const link = tokenHash === null
    ? null
    : await store.findLink(tokenHash, kind, settings.now());
  if (link === null) throw DEAD_LINK;
  return {
    tokenHash: tokenHash!,
    link,
    passwordHash: await hasher.hash(password),
  };
}
