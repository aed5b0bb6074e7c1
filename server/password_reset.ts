/**
 * Password resets by single-use link. Requesting one always answers the same
 * 202, whatever the address: known, unknown and disabled accounts do the
 * same store work (a link record is written in every case; only a live
 * account's link is ever sent). Confirming sets the password and ends every
 * session of the account.
 *
 * @module
 */

import { linkUrl, newLink } from "./_links.ts";
import {
  DEAD_LINK,
  type LinkSettings,
  spendableLink,
} from "./_link_handlers.ts";
import { emailKey, validEmail } from "./_validate.ts";
import { decode, requiredString } from "./decode.ts";
import { answeringErrors, type Handler, NO_STORE } from "./http.ts";
import type { Mailer } from "./mailer.ts";

/** Collaborators of the reset request handler. */
export interface ResetRequestSettings extends LinkSettings {
  mailer: Mailer | undefined;
  publicUrl: string | undefined;
}

/** `POST /api/auth/password-reset` `{email}`: 202 for every address. */
export function requestResetHandler(settings: ResetRequestSettings): Handler {
  const { store, limits, logger, now, mailer, publicUrl } = settings;
  let warned = false;
  return answeringErrors(logger)(async function requestPasswordReset(req) {
    const body = await decode(req, { maxBytes: limits.maxBodyBytes });
    const email = validEmail(requiredString(body, "email"), limits);
    const found = await store.credentialsByEmail(emailKey(email));
    const live = found !== null && !found.user.disabled;
    const createdAt = now();
    const { token, record } = newLink({
      kind: "reset",
      email: found?.user.email ?? email,
      name: "",
      role: "",
      // An unknown or disabled address gets a record that can never be
      // confirmed (no account), written only so every path does the same work.
      userId: live ? found.user.id : "",
      createdAt,
      expiresAt: createdAt + limits.resetTtl,
    });
    await store.createLink(record);
    if (live) {
      const link = linkUrl(publicUrl ?? "", "reset", token);
      if (mailer !== undefined) {
        // Not awaited: the answer must not wait for (or reveal) the mail.
        mailer.send({
          to: found.user.email,
          kind: "password_reset",
          subject: "Reset your password",
          text:
            `Someone asked to reset the password of this account. If it was you, set a new one here:\n\n${link}\n\n` +
            "The link works once and expires in an hour. If it was not you, ignore this message.",
          link,
        }).catch((error) =>
          logger.error("password reset mail failed", { error })
        );
      } else {
        if (publicUrl === undefined && !warned) {
          warned = true;
          logger.warn(
            "publicUrl is not set: reset links in the log are relative",
          );
        }
        logger.info("password reset link (no mailer configured)", {
          email: found.user.email,
          link,
        });
      }
    }
    return new Response(null, {
      status: 202,
      headers: NO_STORE,
    });
  });
}

/** `POST /api/auth/password-reset/confirm` `{token, password}`: 204 on success. */
export function confirmResetHandler(settings: LinkSettings): Handler {
  const { store, logger } = settings;
  return answeringErrors(logger)(async function resetPassword(req) {
    const { tokenHash, passwordHash } = await spendableLink(req, settings);
    const user = await store.confirmReset(tokenHash, {
      passwordHash,
      now: settings.now(),
    });
    if (user === null) throw DEAD_LINK;
    return new Response(null, {
      status: 204,
      headers: NO_STORE,
    });
  });
}
