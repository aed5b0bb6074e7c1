// The demo's mail (DESIGN.md §14): `GATEHOUSE_SMTP_URL` and
// `GATEHOUSE_MAIL_FROM` select SMTP; without them the development mailer
// prints each message's subject, recipient and link to the log and, while
// the demo listens on a loopback address only, also keeps the messages
// (invitations too) in memory and shows them at `/dev/mail`: a development
// convenience that must never face a network, since the messages hold live
// links.

import type { Logger } from "@gatehouse/server";
import {
  developmentMailer,
  type Mailer,
  type MailKind,
  type MailMessage,
  NOTICE_KINDS,
  smtpMailer,
} from "@gatehouse/server/mail";

/** Where the demo's mail goes. */
export interface DemoMail {
  /** The mailer, if any (none without a public URL: links need one). */
  mailer?: Mailer;
  /** The development mailbox behind `/dev/mail`, when kept. */
  mailbox?: Mailbox;
  /** One line for the start-up banner. */
  summary: string;
}

/** Messages kept in memory, newest last. */
export interface Mailbox {
  /** The messages kept so far (at most {@linkcode MAILBOX_SIZE}). */
  readonly messages: readonly KeptMessage[];
  /** Keeps one message. */
  keep(message: MailMessage): void;
}

/** A message as the mailbox keeps it. */
export interface KeptMessage extends MailMessage {
  /** When it was handed over, ms. */
  readonly at: number;
}

/** How many messages the development mailbox keeps. */
export const MAILBOX_SIZE = 100;

// The development mailer mails no invitation: the administrator sees its
// link on the screen, so the demo runs without any mail system. Reset
// links and the security notices are printed (and kept).
const DEVELOPMENT_KINDS: readonly MailKind[] = [
  "password_reset",
  ...NOTICE_KINDS,
];
// With the mailbox of /dev/mail, invitations are kept (and printed) too:
// the newcomer follows the invitation from there, as a person would from
// their inbox, and the invite screen says it was sent.
const MAILBOX_KINDS: readonly MailKind[] = [
  "invitation",
  "account_exists",
  ...DEVELOPMENT_KINDS,
];

/** Whether `hostname` (as the server reports it) is a loopback address. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return host === "localhost" || host === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "::ffff:127.0.0.1";
}

/**
 * The demo's mail from its environment: SMTP when `GATEHOUSE_SMTP_URL` is
 * set (with `GATEHOUSE_MAIL_FROM`, else a start-up error), otherwise the
 * development mailer, with the mailbox of `/dev/mail` only while
 * `listening` is a loopback address.
 */
export function demoMailFromEnv(
  env: Record<string, string | undefined>,
  options: { listening: string; logger: Logger; publicUrl?: string },
): DemoMail {
  const url = env.GATEHOUSE_SMTP_URL?.trim() ?? "";
  const from = env.GATEHOUSE_MAIL_FROM?.trim() ?? "";
  if (url !== "" || from !== "") {
    if (url === "" || from === "") {
      throw new TypeError(
        "GATEHOUSE_SMTP_URL and GATEHOUSE_MAIL_FROM go together: set both to send mail over SMTP",
      );
    }
    const host = URL.canParse(url) ? new URL(url).hostname : "";
    return {
      mailer: smtpMailer({
        url,
        from,
        // A relay on this machine (e.g. a mail catcher) may take mail in
        // clear; anything else must offer STARTTLS.
        requireTls: !isLoopback(host),
      }),
      summary: `Mail: SMTP through ${host}`,
    };
  }
  if (options.publicUrl === undefined) {
    return { summary: "Mail: none (no public URL)" };
  }
  if (!isLoopback(options.listening)) {
    return {
      mailer: developmentMailer({
        logger: options.logger,
        kinds: DEVELOPMENT_KINDS,
      }),
      summary: "Mail: reset links and notices printed to this log",
    };
  }
  const mailbox = memoryMailbox();
  const printing = developmentMailer({
    logger: options.logger,
    kinds: MAILBOX_KINDS,
  });
  return {
    mailer: {
      kinds: MAILBOX_KINDS,
      async send(message) {
        mailbox.keep(message);
        await printing.send(message);
      },
    },
    mailbox,
    summary:
      `Mail: invitations, reset links and notices printed to this log and shown at ${options.publicUrl}/dev/mail`,
  };
}

/** A mailbox in memory that keeps the last {@linkcode MAILBOX_SIZE} messages. */
export function memoryMailbox(now: () => number = Date.now): Mailbox {
  const messages: KeptMessage[] = [];
  return {
    messages,
    keep(message) {
      messages.push({ ...message, at: now() });
      if (messages.length > MAILBOX_SIZE) messages.shift();
    },
  };
}
