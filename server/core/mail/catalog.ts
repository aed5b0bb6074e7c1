// The shape of a catalogue of the shipped templates: for each kind of mail,
// the parts of the message in one language (subject, heading, paragraphs,
// the link's button, the facts of a notice, what to do), which the layout
// turns into the plain-text part and the HTML part alike, so the two parts
// always say the same thing.

import type { MailDataOf } from "./data.ts";
import type { MailKind } from "./kinds.ts";
import type { MailLocale } from "./locale.ts";

/** The button of a message and the address it opens. */
export interface MailAction {
  /** The button's words. */
  label: string;
  /** The link. */
  url: string;
  /** Said before the bare address, for mail clients that show no button. */
  fallback: string;
}

/** One message in one language, before layout. */
export interface MailParts {
  subject: string;
  heading: string;
  /** "Hello Ada," when the name is known. */
  greeting?: string;
  /** Said before the button. */
  paragraphs: readonly string[];
  action?: MailAction;
  /** Label and value, e.g. ["When", "3 July 2026, 10:15 UTC"]. */
  facts?: readonly (readonly [string, string])[];
  /** Said after the button and the facts: the link's lifetime, what to do. */
  closing: readonly string[];
}

/** Dates and durations written in the catalogue's language. */
export interface MailFormat {
  /** A moment, with the date, the time and "UTC". */
  dateTime(at: number): string;
  /** A lifetime in days, hours or minutes ("7 days", "1 hora"). */
  duration(ms: number): string;
}

/** Every kind of mail, in one language. */
export interface MailCatalog {
  readonly locale: MailLocale;
  /** The last line of every message. */
  footer(product: string, email: string): string;
  readonly kinds: {
    readonly [K in MailKind]: (
      data: MailDataOf[K],
      format: MailFormat,
    ) => MailParts;
  };
}

/** The formats of `locale`, in UTC. */
export function mailFormat(locale: MailLocale): MailFormat {
  const dateTime = new Intl.DateTimeFormat(locale, {
    dateStyle: "long",
    timeStyle: "long",
    timeZone: "UTC",
  });
  const unit = (name: "day" | "hour" | "minute") =>
    new Intl.NumberFormat(locale, {
      style: "unit",
      unit: name,
      unitDisplay: "long",
    });
  const days = unit("day");
  const hours = unit("hour");
  const minutes = unit("minute");
  return {
    dateTime: (at) => dateTime.format(at),
    duration(ms) {
      if (ms >= 86_400_000) return days.format(Math.round(ms / 86_400_000));
      if (ms >= 3_600_000) return hours.format(Math.round(ms / 3_600_000));
      return minutes.format(Math.max(1, Math.round(ms / 60_000)));
    },
  };
}
