// The one case-folding rule of Gatehouse (DESIGN.md §5): Unicode NFC, then
// `toLowerCase()`, which is locale-independent in JavaScript. Emails are
// compared by it, searches match by it and the common-password list is
// checked by it, on every store alike: stores keep the folded form and never
// fold with a database locale.

/** The folded form of `text`: NFC, then lower case. */
export function fold(text: string): string {
  return text.normalize("NFC").toLowerCase();
}

/**
 * The prefix of an email key no request can produce, since requests refuse
 * control characters: what a migration gives an old account whose address
 * folds like an older one's.
 */
export const UNREACHABLE_KEY = "\u0001";
