/**
 * The optional mailer: how Gatehouse hands a message with a link to your
 * mail system. Without one, invitations answer the activation link to the
 * administrator and reset links go to the server log.
 *
 * @module
 */

/** What a mail is about. */
export type MailKind = "invitation" | "password_reset" | "account_exists";

/** One message to send. `text` is plain text in English, ready to send. */
export interface MailMessage {
  /** The recipient address. */
  to: string;
  /** What the message is for; pick your own template by it if you like. */
  kind: MailKind;
  /** A subject line. */
  subject: string;
  /** The body, plain text, containing the link when there is one. */
  text: string;
  /** The single-use link, for templates; absent for `account_exists`. */
  link?: string;
}

/**
 * Sends messages. A rejection is logged and, for invitations, answered as
 * 500 `internal` (the administrator must know the mail did not go out).
 *
 * @example A mailer that posts to an HTTP mail API
 * ```ts
 * import type { Mailer } from "@gatehouse/server";
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
}
