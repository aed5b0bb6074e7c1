// The mail of one context: which kinds go out (the mailer's `kinds`, and
// `notices` for the security notices), writing a message with the
// templates in the recipient's language, sending it, and the counts of
// sent and failed messages. A failed send is logged and counted here, once;
// the caller decides what it means (an invitation answers 502, anything
// else goes on: DESIGN.md §14).

import { afterAnswer } from "../../http/_background.ts";
import type { Logger } from "../../http/logger.ts";
import type { AuditEvent } from "../audit_event.ts";
import type { Mailer, MailMessage } from "../mailer.ts";
import type { MailDataOf, MailTemplates } from "./data.ts";
import {
  isMailKind,
  isNoticeKind,
  type MailKind,
  NOTICE_KINDS,
} from "./kinds.ts";
import { mailLocale, negotiateLocale } from "./locale.ts";
import { noticeOf } from "./notices.ts";
import type { RequestFacts } from "./request_facts.ts";
import { defaultMailTemplates } from "./templates.ts";

/** How many messages the mailer took and how many it refused, so far. */
export interface MailCounts {
  /** Messages the mailer accepted. */
  readonly sent: number;
  /** Messages whose send failed (logged, each once). */
  readonly failed: number;
}

/** The mail settings an outbox is built from. */
export interface OutboxSettings {
  mailer: Mailer | undefined;
  /** The origin of every link, checked (`linkBase`); required with a mailer. */
  linkBase: string | undefined;
  /** Named in every message; the host of `linkBase` by default. */
  productName?: string | undefined;
  templates?: MailTemplates | undefined;
  /** The notices to send: all by default, none with `false`. */
  notices?: false | readonly MailKind[] | undefined;
}

/** Who a message goes to. */
export interface Recipient {
  email: string;
  /** Greets them and names them in the To header. */
  name?: string | undefined;
}

/** What an event was made from, as far as a notice reads it. */
export interface EventOrigin {
  /** The facts of the request, when it had one. */
  request: RequestFacts | undefined;
  /** The name of the account acted upon, when the caller knew it. */
  name: string | undefined;
  /**
   * The language of the account's own mail, read after the answer; ""
   * (or absent) while it has none: the request's `Accept-Language` then.
   */
  accountLocale?: () => Promise<string>;
  /**
   * For a notice that depends on more than its event (`new_sign_in`):
   * whether to send it, decided after the answer. Absent: send.
   */
  sends?: () => Promise<boolean>;
}

/** The mail of a context. */
export interface Outbox {
  /** Whether messages of `kind` go out. */
  delivers(kind: MailKind): boolean;
  /**
   * The language of a message caused by `req`, for an address without an
   * account (or with no language of its own yet): its `Accept-Language`.
   */
  localeOf(req: Request | undefined): string;
  /** Writes a message of `kind` to `to` in `locale`; a template's throw is thrown. */
  compose<K extends MailKind>(
    kind: K,
    to: Recipient,
    data: Omit<MailDataOf[K], "product" | "email" | "name">,
    locale: string,
  ): MailMessage;
  /** Sends `message`; a failure is counted, logged and thrown. */
  send(message: MailMessage): Promise<void>;
  /** Sends `message`; a failure is counted and logged, never thrown. */
  deliver(message: MailMessage): Promise<void>;
  /**
   * Sends the notices of committed `events` once each answer has been
   * written, off the answer's path, at most one per event.
   */
  notify(
    events: readonly AuditEvent[],
    originOf: (event: AuditEvent) => EventOrigin | undefined,
  ): void;
  /** How many messages went out and failed so far. */
  readonly counts: MailCounts;
  /** The same outbox with other settings (counts and owner shared). */
  reconfigured(settings: OutboxSettings): Outbox;
}

/** Builds the outbox of a context. */
export function mailOutbox(
  settings: OutboxSettings,
  shared: {
    logger: Logger;
    /** Background sends are tracked under it (`Gatehouse.settled()`). */
    owner: object;
  },
  counts: { sent: number; failed: number } = { sent: 0, failed: 0 },
): Outbox {
  const { logger, owner } = shared;
  const { mailer, linkBase } = settings;
  const templates = checkedTemplates(settings.templates);
  const notices = checkedNotices(settings.notices);
  const product = settings.productName?.trim() ||
    (linkBase === undefined ? "" : new URL(linkBase).host);
  // Each event gives one notice at most, whoever hands it over again.
  const notified = new WeakSet<AuditEvent>();

  const delivers = (kind: MailKind) =>
    mailer !== undefined &&
    (mailer.kinds === undefined || mailer.kinds.includes(kind)) &&
    (!isNoticeKind(kind) || notices.has(kind));

  const send = async (message: MailMessage) => {
    if (mailer === undefined) return;
    try {
      await mailer.send(message);
    } catch (error) {
      counts.failed++;
      // The message itself stays out of the log: it may hold a link.
      logger.error("mail failed", { error, kind: message.kind });
      throw error;
    }
    counts.sent++;
  };
  const deliver = (message: MailMessage) => send(message).catch(() => {});

  const compose = <K extends MailKind>(
    kind: K,
    to: Recipient,
    data: Omit<MailDataOf[K], "product" | "email" | "name">,
    locale: string,
  ): MailMessage => {
    const language = mailLocale(locale);
    const full = {
      ...data,
      product,
      email: to.email,
      ...(to.name === undefined || to.name === "" ? {} : { name: to.name }),
    } as MailDataOf[K];
    const template = (templates[kind] ?? defaultMailTemplates[kind]) as (
      data: MailDataOf[K],
      locale: string,
    ) => unknown;
    const content = template(full, language);
    if (!isContent(content)) {
      throw new TypeError(
        `The ${kind} mail template must return {subject, text, html}, each a string`,
      );
    }
    const link = (data as { link?: unknown }).link;
    const toName = oneLine(to.name ?? "");
    return {
      to: to.email,
      ...(toName === "" ? {} : { toName }),
      kind,
      locale: language,
      subject: oneLine(content.subject),
      text: content.text,
      html: content.html,
      ...(typeof link === "string" ? { link } : {}),
    };
  };

  const outbox: Outbox = {
    delivers,
    localeOf: (req) => negotiateLocale(req?.headers.get("accept-language")),
    compose,
    send,
    deliver,
    notify(events, originOf) {
      for (const event of events) {
        const notice = noticeOf(event);
        if (notice === null || !delivers(notice.kind)) continue;
        if (notified.has(event)) continue;
        notified.add(event);
        const origin = originOf(event);
        const completed = origin?.request?.completed;
        afterAnswer(
          owner,
          completed === undefined ? undefined : { completed },
          async () => {
            if (origin?.sends !== undefined && !(await origin.sends())) return;
            const own = await origin?.accountLocale?.() ?? "";
            await deliver(compose(
              notice.kind,
              { email: notice.to, name: origin?.name },
              notice.facts,
              own !== ""
                ? own
                : negotiateLocale(origin?.request?.acceptLanguage),
            ));
          },
          (error) => {
            // A template that threw, or the reads that decide a notice
            // failed: nothing was sent.
            counts.failed++;
            logger.error("mail failed", { error, kind: notice.kind });
          },
        );
      }
    },
    counts: {
      get sent() {
        return counts.sent;
      },
      get failed() {
        return counts.failed;
      },
    },
    reconfigured: (next) => mailOutbox(next, shared, counts),
  };
  return Object.freeze(outbox);
}

// One line, as a header must be: a template's subject, and a recipient's
// name (an account named before names refused line separators still gets
// its mail; the mailer refuses a name with a line break outright).
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").trim();
}

function isContent(
  value: unknown,
): value is { subject: string; text: string; html: string } {
  if (typeof value !== "object" || value === null) return false;
  const { subject, text, html } = value as Record<string, unknown>;
  return typeof subject === "string" && typeof text === "string" &&
    typeof html === "string";
}

function checkedTemplates(templates: MailTemplates | undefined): MailTemplates {
  if (templates === undefined) return {};
  if (typeof templates !== "object" || templates === null) {
    throw new TypeError(
      "Invalid templates: give an object of templates by kind",
    );
  }
  for (const [kind, template] of Object.entries(templates)) {
    if (!isMailKind(kind)) {
      throw new TypeError(`Invalid templates: "${kind}" is not a kind of mail`);
    }
    if (template !== undefined && typeof template !== "function") {
      throw new TypeError(
        `Invalid templates: the ${kind} template is not a function`,
      );
    }
  }
  return { ...templates };
}

function checkedNotices(
  notices: false | readonly MailKind[] | undefined,
): ReadonlySet<MailKind> {
  if (notices === undefined) return new Set(NOTICE_KINDS);
  if (notices === false) return new Set();
  if (!Array.isArray(notices)) {
    throw new TypeError(
      "Invalid notices: give false or a list of notice kinds",
    );
  }
  for (const kind of notices) {
    if (!isNoticeKind(kind)) {
      throw new TypeError(
        `Invalid notices: "${String(kind)}" is not a notice (${
          NOTICE_KINDS.join(", ")
        })`,
      );
    }
  }
  return new Set(notices);
}
