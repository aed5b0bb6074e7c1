/**
 * The optional mailer: how Gatehouse hands a message to your mail system.
 * Without one, invitations answer the activation link to the
 * administrator and no reset link or notice is sent. Links are secrets:
 * the library never logs one; in development, {@linkcode developmentMailer}
 * prints them, because you asked it to. `smtpMailer` (server/core/mail/
 * smtp.ts) sends over SMTP; any object with `send` fits.
 *
 * @module
 */

import { defaultLogger, type Logger } from "../http/logger.ts";
import type { MailKind } from "./mail/kinds.ts";

export type { MailKind } from "./mail/kinds.ts";

/**
 * One message to send, written in the recipient's language: a subject, a
 * plain-text part and an HTML part (send both, as multipart/alternative).
 */
export interface MailMessage {
  /** The recipient address. */
  to: string;
  /**
   * The recipient's name, when known: for the To header, where a
   * transport must encode it (never splice it into a header line).
   */
  toName?: string;
  /** What the message is for. */
  kind: MailKind;
  /** The language it is written in (`en`, `es`). */
  locale: string;
  /** The subject: one line, not yet encoded. */
  subject: string;
  /** The plain-text part, containing the link when there is one. */
  text: string;
  /** The HTML part: a whole document, inline styles, no remote images. */
  html: string;
  /** The single-use link, when the message carries one (invitations, resets). */
  link?: string;
}

/**
 * Sends messages. A rejection is logged and counted and, for invitations,
 * answered as 502 `mail_failed` with no invitation left behind (the
 * administrator must know the mail did not go out); a reset request still
 * answers 202 and a change still succeeds when its mail fails.
 *
 * @example A mailer that posts to an HTTP mail API
 * ```ts
 * import type { Mailer } from "@gatehouse/server/mail";
 *
 * const mailer: Mailer = {
 *   async send(message) {
 *     const res = await fetch("http://127.0.0.1:9/send", {
 *       method: "POST",
 *       body: JSON.stringify(message),
 *     }).catch(() => null);
 *     await res?.body?.cancel();
 *   },
 * };
 * ```
 */
export interface Mailer {
  /** Sends one message. */
  send(message: MailMessage): Promise<void>;
  /**
   * The kinds of mail it delivers; absent: every kind. For the others
   * Gatehouse acts as without a mailer: an invitation (and its
   * `account_exists` notice) is answered to the administrator as its
   * activation link, a reset link or a notice is not sent.
   */
  readonly kinds?: readonly MailKind[];
}

/** Options of {@linkcode developmentMailer}. */
export interface DevelopmentMailerOptions {
  /** Where the messages are written; `console` by default. */
  logger?: Logger;
  /**
   * The kinds it prints ({@linkcode Mailer.kinds}); every kind by default.
   * `["password_reset"]` prints reset links and leaves invitation links on
   * the administrator's screen.
   */
  kinds?: readonly MailKind[];
}

/**
 * A mailer for development only: instead of sending, it writes each message
 * (its link included) to the logger at info level, labelled as coming from
 * the development mailer. Never use it in production: a link is a secret,
 * and this puts every link in your logs.
 *
 * @param options Where to write.
 * @returns The mailer.
 *
 * @example Reset links printed by a local demo
 * ```ts
 * import { createGatehouse } from "@gatehouse/server";
 * import { developmentMailer } from "@gatehouse/server/mail";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const { routes } = createGatehouse({
 *   store,
 *   publicUrl: "http://localhost:8000",
 *   mailer: developmentMailer(),
 * });
 * kv.close();
 * ```
 */
export function developmentMailer(
  options: DevelopmentMailerOptions = {},
): Mailer {
  const logger = options.logger ?? defaultLogger;
  return {
    ...(options.kinds === undefined
      ? {}
      : { kinds: Object.freeze([...options.kinds]) }),
    send(message) {
      logger.info(
        `development mailer (not for production): "${message.subject}"`,
        { to: message.to, kind: message.kind, link: message.link ?? null },
      );
      return Promise.resolve();
    },
  };
}
