// Dates in the screens' language (the catalogue's `lang`, English without
// one), as a short day: "Mar 12, 2026", "12 mar 2026".

import { getLocaleData } from "@wordpress/i18n";
import { DOMAIN } from "./i18n.ts";

/** The screens' language now. */
export function screensLanguage(): string {
  const header = getLocaleData(DOMAIN)?.[""] as { lang?: string } | undefined;
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
