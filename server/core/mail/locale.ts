// The language of a message: the account's own `locale` (DESIGN.md §14)
// when it has one, else the request's Accept-Language matched against the
// shipped catalogues. An account's locale is set from the browser's
// language (`browserLocale`) at invitation acceptance and at each sign-in
// until the person chooses one (`isShippedLocale` checks the choice).

/** The languages the shipped catalogues are written in; the first is the fallback. */
export const MAIL_LOCALES = ["en", "es"] as const;

/** A language of the shipped catalogues. */
export type MailLocale = (typeof MAIL_LOCALES)[number];

const MAX_HEADER = 256;
const MAX_RANGES = 16;

/**
 * The best shipped language for an `Accept-Language` header: ranges by
 * their `q` (ties keep the header's order), each matched on its primary
 * subtag (`es-MX` is `es`); `*` or nothing known: English.
 */
export function negotiateLocale(header: string | null | undefined): MailLocale {
  return browserLocale(header) ?? MAIL_LOCALES[0];
}

/**
 * The shipped language an `Accept-Language` header asks for, matched like
 * {@linkcode negotiateLocale}; null when it names none before `*` (or is
 * absent): a browser that states no language of ours sets no account's.
 */
export function browserLocale(
  header: string | null | undefined,
): MailLocale | null {
  if (header === null || header === undefined || header === "") return null;
  const ranges = header.slice(0, MAX_HEADER).split(",").slice(0, MAX_RANGES)
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      let q = 1;
      for (const param of params) {
        const [key, value] = param.trim().split("=");
        if (key?.trim().toLowerCase() === "q") {
          const parsed = Number(value);
          q = Number.isFinite(parsed) && parsed >= 0 && parsed <= 1
            ? parsed
            : 0;
        }
      }
      return { tag: range.trim().toLowerCase(), q, index };
    })
    .filter((range) => range.q > 0 && range.tag !== "")
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const primary = tag.split("-")[0];
    const found = MAIL_LOCALES.find((locale) => locale === primary);
    if (found !== undefined) return found;
    if (tag === "*") return null;
  }
  return null;
}

/** Whether `tag` is `en` or the tag of a shipped catalogue, exactly. */
export function isShippedLocale(tag: unknown): tag is MailLocale {
  return (MAIL_LOCALES as readonly unknown[]).includes(tag);
}

/** `locale` if a catalogue is written in it, else English. */
export function mailLocale(locale: string | null | undefined): MailLocale {
  return MAIL_LOCALES.find((known) => known === locale) ?? MAIL_LOCALES[0];
}
