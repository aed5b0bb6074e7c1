/**
 * The public side of single-use links: accepting an invitation and the two
 * steps of a password reset. (The administrator's side, `invite`, comes
 * with `createAdmin`.) Mount `requestReset` behind the login rate limiter,
 * and the two link routes behind one that counts dead links (410).
 *
 * @module
 */

import { linkBase } from "./_links.ts";
import type { Auth } from "./auth.ts";
import type { Handler } from "./http.ts";
import { acceptInviteHandler } from "./invitations.ts";
import { type Limits, resolveLimits } from "./limits.ts";
import { defaultLogger, type Logger } from "./logger.ts";
import type { Mailer } from "./mailer.ts";
import { argon2Hasher, type PasswordHasher } from "./password.ts";
import { confirmResetHandler, requestResetHandler } from "./password_reset.ts";
import type { Store } from "./store.ts";

/** Configuration of {@linkcode createAccountLinks}. */
export interface AccountLinksConfig {
  /** Signs the invited person in after acceptance. */
  auth: Auth;
  /** The same store `auth` uses. */
  store: Store;
  /**
   * Sends reset links. Without one no reset link is sent (nor logged: links
   * are secrets); in development, `developmentMailer()` prints them.
   */
  mailer?: Mailer;
  /**
   * The site's public base URL (e.g. `https://app.example.com`), the origin
   * of every mailed link. Required with a mailer.
   */
  publicUrl?: string;
  /** Hashes new passwords; argon2id at OWASP parameters by default. */
  hasher?: PasswordHasher;
  /** Where failures are logged; `console` by default. */
  logger?: Logger;
  /** Input limits and link lifetimes (`resetTtl`). */
  limits?: Partial<Limits>;
  /** The clock, ms since the epoch. */
  now?: () => number;
}

/** The three public link handlers. */
export interface AccountLinks {
  /** `POST /api/auth/invite/accept` `{token, password}`: 200 Identity + `Set-Cookie`; 410 `token_invalid` for a dead link. */
  acceptInvite: Handler;
  /** `POST /api/auth/password-reset` `{email}`: 202 whatever the address. */
  requestReset: Handler;
  /** `POST /api/auth/password-reset/confirm` `{token, password}`: 204; 410 `token_invalid` for a dead link. */
  confirmReset: Handler;
}

/**
 * Builds the public invitation and password-reset handlers.
 *
 * @param config The auth service, store, optional mailer and public URL.
 * @returns The handlers.
 *
 * @example Mounting the public link routes
 * ```ts
 * import { createAccountLinks, createAuth } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const links = createAccountLinks({ auth, store, publicUrl: "https://app.example" });
 * const res = await links.confirmReset(new Request("http://localhost/api/auth/password-reset/confirm", {
 *   method: "POST",
 *   body: JSON.stringify({ token: "x".repeat(43), password: "a long new password" }),
 * }));
 * console.assert(res.status === 410);
 * kv.close();
 * ```
 */
export function createAccountLinks(config: AccountLinksConfig): AccountLinks {
  if (config.auth === undefined || config.store === undefined) {
    throw new TypeError(
      "Invalid account links config: auth and store are required",
    );
  }
  const publicUrl = linkBase(config.publicUrl, config.mailer);
  const logger = config.logger ?? defaultLogger;
  const settings = {
    store: config.store,
    auth: config.auth,
    hasher: config.hasher ?? argon2Hasher({ logger }),
    limits: resolveLimits(config.limits),
    logger,
    now: config.now ?? Date.now,
  };
  return {
    acceptInvite: acceptInviteHandler(settings),
    requestReset: requestResetHandler({
      ...settings,
      mailer: config.mailer,
      publicUrl,
    }),
    confirmReset: confirmResetHandler(settings),
  };
}
