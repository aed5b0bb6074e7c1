/**
 * The public side of single-use links: accepting an invitation, the two
 * steps of a password reset, and the check a link's page makes when it
 * opens. (The administrator's side, `invite`, comes with `createAdmin`.)
 * Mount `requestPasswordReset` behind the login rate limiter, and the
 * others behind one that counts dead links (410), as `createGatehouse`'s
 * routes do.
 *
 * @module
 */

import { checkLinkOperation } from "./_link_handlers.ts";
import type { Auth } from "../core/auth.ts";
import { type GatehouseContext, isContext, withMail } from "../core/context.ts";
import { handlersOf, type Operations } from "../core/operation.ts";
import type { Handler } from "../http/respond.ts";
import { acceptInviteOperation } from "./invitations.ts";
import {
  confirmResetOperation,
  requestResetOperation,
} from "./password_reset.ts";
import type { MailOptions, SharedOptions } from "../core/options.ts";

/** Options of {@linkcode createAccountLinks}: the shared settings (the store `auth` uses) and how reset links reach people. */
export interface AccountLinksOptions extends SharedOptions, MailOptions {
  /** Signs the invited person in after acceptance. */
  auth: Auth;
}

/** The public link handlers, named as their operations. */
export interface AccountLinks {
  /** `POST /api/auth/invite/accept` `{token, password}`: 200 Identity + `Set-Cookie`; 410 `token_invalid` for a dead link. */
  acceptInvite: Handler;
  /** `POST /api/auth/password-reset` `{email}`: 202 whatever the address. */
  requestPasswordReset: Handler;
  /** `POST /api/auth/password-reset/confirm` `{token, password}`: 204; 410 `token_invalid` for a dead link. */
  resetPassword: Handler;
  /** `POST /api/auth/links/check` `{token, kind}`: 200 `{status}` (`ready`, `account_exists`); 410 `token_invalid` for a dead link. Spends nothing. */
  checkLink: Handler;
}

/**
 * Builds the public invitation and password-reset handlers.
 *
 * This is the hand-composition path: `createGatehouse` builds it from the
 * same options as sign-in and administration, so the mailer, `publicUrl`,
 * limits and hasher are given once.
 *
 * @param config The auth service, store, optional mailer and public URL.
 * @returns The handlers.
 *
 * @example Mounting the public link routes
 * ```ts
 * import { createAuth } from "../core/auth.ts";
 * import { createAccountLinks } from "./account_links.ts";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const links = createAccountLinks({ auth, store, publicUrl: "https://app.example" });
 * const res = await links.resetPassword(new Request("http://localhost/api/auth/password-reset/confirm", {
 *   method: "POST",
 *   body: JSON.stringify({ token: "x".repeat(43), password: "a long new password" }),
 * }));
 * console.assert(res.status === 410);
 * kv.close();
 * ```
 */
export function createAccountLinks(
  config: AccountLinksOptions | GatehouseContext,
): AccountLinks {
  if (
    !isContext(config) &&
    (config.auth === undefined || config.store === undefined)
  ) {
    throw new TypeError(
      "Invalid account links config: auth and store are required",
    );
  }
  // By hand, the links take the mail settings of their own options and
  // everything else from the context of the Auth they sign people in with.
  const context = isContext(config)
    ? config
    : withMail(config.auth.context, config);
  return handlersOf(accountLinkOperations(context));
}

/** The operations of single-use links, on one context. */
export function accountLinkOperations(
  context: GatehouseContext,
): Operations<
  "acceptInvite" | "requestPasswordReset" | "resetPassword" | "checkLink"
> {
  return {
    acceptInvite: acceptInviteOperation(context),
    requestPasswordReset: requestResetOperation(context),
    resetPassword: confirmResetOperation(context),
    checkLink: checkLinkOperation(context),
  };
}
