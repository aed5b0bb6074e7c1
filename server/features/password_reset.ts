/**
 * Password resets by single-use link. Requesting one always answers the same
 * 202, whatever the address: known, unknown and disabled accounts make the
 * same store reads and writes (a link record is written in every case; only
 * a live account's link is ever sent, after the answer). Confirming sets the
 * password and ends every session and every other reset link of the account.
 *
 * @module
 */

import { afterAnswer } from "../http/_background.ts";
import { uuidv7 } from "../core/_crypto.ts";
import { fold } from "../core/_fold.ts";
import { readEmail } from "../core/_input.ts";
import { linkUrl, newLink } from "../core/_links.ts";
import { DEAD_LINK, spendableLink } from "./_link_handlers.ts";
import type { GatehouseContext } from "../core/context.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import { decode, requiredString } from "../http/decode.ts";
import { NO_STORE } from "../http/respond.ts";
import { refuseEnforced } from "./_sso_enforced.ts";

/** `POST /api/auth/password-reset` `{email}`: 202 for every address. */
export function requestResetOperation(context: GatehouseContext): Operation {
  const { store, limits, logger, now, trail } = context;
  const publicUrl = context.linkBase;
  const mail = context.mail;
  const mailing = mail.delivers("password_reset");
  let warned = false;
  return defineOperation(
    context,
    "requestPasswordReset",
    async function requestPasswordReset(req, _params, info) {
      const body = await decode(req, { maxBytes: limits.maxBodyBytes });
      const { email, key } = readEmail(requiredString(body, "email"), limits);
      const found = await store.credentialsByEmail(key);
      // An address an enforcing provider speaks for gets no link: it signs
      // in through the provider (DESIGN.md §13). The same work and answer.
      const live = found !== null && !found.user.disabled &&
        context.sso.enforcedBy(key) === null;
      const createdAt = now();
      const { token, record } = newLink({
        id: uuidv7(createdAt),
        kind: "reset",
        email: found?.user.email ?? email,
        emailKey: key,
        name: "",
        role: "",
        // An unknown or disabled address gets a record that can never be
        // confirmed (no account), written only so every path does the same
        // work. A live account's link holds while its generation does.
        userId: live ? found.user.id : "",
        invitedBy: "",
        generation: live ? found.generation : 0,
        createdAt,
        expiresAt: createdAt + limits.resetTtl,
      });
      // Every path writes one event, like one link: the same work.
      const account = live ? found.user : null;
      const events = [
        trail.event("password.reset_requested", {
          actor: account,
          client: context.client(req, info),
          detail: { email: key },
        }),
      ];
      await store.createLink(record, { events });
      trail.committed(events);
      // Every path schedules the message and writes it, once the answer has
      // been written (see afterAnswer: a microtask would run before Deno
      // writes it), never awaited: the answer must not wait for the mail,
      // nor take longer for a known address, and neither must the requests
      // that come after it (the work after an answer shares their thread).
      // Only a live account's is sent. A failed send is logged and counted
      // by the outbox.
      const link = linkUrl(publicUrl ?? "", "reset", token);
      // The account's own language (§14), else the request's.
      const locale = (live ? found.user.locale : undefined) ||
        mail.localeOf(req);
      const name = live ? found.user.name : undefined;
      afterAnswer(store, info, () => {
        if (!mailing) return;
        const message = mail.compose("password_reset", {
          email: record.email,
          name,
        }, {
          link,
          expiresAt: record.expiresAt,
          validFor: limits.resetTtl,
        }, locale);
        if (live) return mail.deliver(message);
      }, (error) => logger.error("password reset mail failed", { error }));
      if (!mailing && !warned) {
        // Said once, whatever the address, and never with a link: secrets stay
        // out of logs (DESIGN.md §5).
        warned = true;
        logger.warn(
          "password reset requested but no mailer is configured: reset links are not sent",
        );
      }
      return new Response(null, { status: 202, headers: NO_STORE });
    },
  );
}

/** `POST /api/auth/password-reset/confirm` `{token, password}`: 204 on success. */
export function confirmResetOperation(context: GatehouseContext): Operation {
  const { store, trail } = context;
  return defineOperation(
    context,
    "resetPassword",
    async function resetPassword(req, _params, info) {
      const { tokenHash, link, passwordHash } = await spendableLink(
        req,
        context,
        "reset",
      );
      // A link sent before the provider enforced the address sets nothing.
      refuseEnforced(context, link.emailKey);
      const account = link.userId === ""
        ? null
        : { id: link.userId, email: link.email };
      const events = [
        trail.event("password.reset", {
          actor: account,
          client: context.client(req, info),
          detail: { link_id: link.id },
        }),
      ];
      const user = await store.confirmReset(tokenHash, {
        passwordHash,
        now: context.now(),
        events,
      });
      if (user === null) throw DEAD_LINK;
      trail.committed(events);
      // A new password ends every count of the address (DESIGN.md §15):
      // failures against the old one, and the lock they made.
      await context.accountLock.clearAll(fold(user.email)).catch((error) =>
        context.logger.error("account lock not cleared after a reset", {
          error,
        })
      );
      return new Response(null, { status: 204, headers: NO_STORE });
    },
  );
}
