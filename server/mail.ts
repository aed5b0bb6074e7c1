/**
 * `@gatehouse/server/mail`: the mail Gatehouse sends (DESIGN.md §14), in an
 * entry of its own so that the main entry stays what every application
 * needs. An application without mail never imports it.
 *
 * - {@linkcode smtpMailer}: sends invitations, reset links and security
 *   notices over SMTP, each in the recipient's language with a text and an
 *   HTML part; {@linkcode developmentMailer} prints them, links included, in
 *   development (otherwise no link is ever logged). Any {@linkcode Mailer}
 *   (an object with `send`) fits `createGatehouse({mailer})`.
 * - {@linkcode MailOptions}: the options of `createGatehouse` about mail
 *   (`mailer`, `publicUrl`, `productName`, `templates`, `notices`).
 * - {@linkcode defaultMailTemplates}, replaceable per kind of mail
 *   ({@linkcode MailKind}, {@linkcode NOTICE_KINDS}) with a
 *   {@linkcode MailTemplate} of your own, and the data each template
 *   receives ({@linkcode MailDataOf}).
 * - {@linkcode MailCounts}: what `gatehouse.mail` reports, messages sent and
 *   failed so far.
 *
 * @example Mail through SMTP
 * ```ts
 * import { createGatehouse } from "@gatehouse/server";
 * import { smtpMailer } from "@gatehouse/server/mail";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const mailer = smtpMailer({
 *   url: "smtp://apikey:secret@smtp.example.com:587",
 *   from: "Acme <no-reply@acme.example>",
 * });
 * const { mail } = createGatehouse({
 *   store: new KvStore(kv),
 *   publicUrl: "https://acme.example",
 *   mailer,
 * });
 * console.assert(mail.sent === 0);
 * mailer.close();
 * kv.close();
 * ```
 *
 * @module
 */

export type { MailOptions } from "./core/options.ts";
export {
  developmentMailer,
  type DevelopmentMailerOptions,
  type Mailer,
  type MailKind,
  type MailMessage,
} from "./core/mailer.ts";
export {
  SmtpError,
  type SmtpMailer,
  smtpMailer,
  type SmtpMailerOptions,
} from "./core/mail/smtp.ts";
export { NOTICE_KINDS, type NoticeKind } from "./core/mail/kinds.ts";
export type {
  InvitationData,
  MailContent,
  MailData,
  MailDataOf,
  MailTemplate,
  MailTemplates,
  NoticeData,
  PasswordResetData,
} from "./core/mail/data.ts";
export { defaultMailTemplates } from "./core/mail/templates.ts";
export type { MailCounts } from "./core/mail/outbox.ts";
