// Dates in the screens' language (the catalogue's `lang`, English without
// one), as a short day: "Mar 12, 2026", "12 mar 2026"; and the browser
// labels the server stores ("Chrome on Linux") with their joining word in
// that language.

import { __, DOMAIN, screensI18n, sprintf } from "./i18n.ts";

/** The screens' language now (the render's, on a server). */
export function screensLanguage(): string {
  const header = screensI18n().getLocaleData(DOMAIN)?.[""] as
    | { lang?: string }
    | undefined;
  return header?.lang || "en";
}

/** An ISO 8601 time as a day in the screens' language; the text itself if it is no time. */
export function formatDay(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(screensLanguage(), { dateStyle: "medium" })
      .format(at);
  } catch {
    return at.toISOString().slice(0, 10);
  }
}

/** An ISO 8601 time as a day and an hour in the screens' language. */
export function formatTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(screensLanguage(), {
      dateStyle: "medium",
      timeStyle: "short",
    }).format(at);
  } catch {
    return at.toISOString().slice(0, 16).replace("T", " ");
  }
}

/**
 * A moment soon (ms since the epoch) as the screens' language says it: the
 * hour alone today ("2:05 PM", "14:05"), with the day otherwise.
 */
export function formatMoment(at: number, now: number = Date.now()): string {
  const when = new Date(at);
  if (Number.isNaN(when.getTime())) return "";
  const today = new Date(now).toDateString() === when.toDateString();
  try {
    return new Intl.DateTimeFormat(
      screensLanguage(),
      today
        ? { timeStyle: "short" }
        : { dateStyle: "medium", timeStyle: "short" },
    ).format(when);
  } catch {
    return when.toISOString().slice(today ? 11 : 0, 16).replace("T", " ");
  }
}

// The server stores "Browser on System" in English (server/_client_meta.ts),
// language-neutral names joined by one English word: only that word is
// translated, here, where the label is shown.
const JOINED = " on ";

/**
 * A stored browser label in the screens' language: "Chrome on Linux" →
 * "Chrome en Linux" in Spanish. A label without the joining word (a browser
 * or a system alone) is a name, shown as it is; "" stays "".
 */
export function browserLabel(stored: string): string {
  const at = stored.indexOf(JOINED);
  if (at <= 0 || at + JOINED.length >= stored.length) return stored;
  return sprintf(
    /* translators: 1: a browser, 2: an operating system ("Chrome on Linux"). */
    __("%1$s on %2$s", DOMAIN),
    stored.slice(0, at),
    stored.slice(at + JOINED.length),
  );
}
