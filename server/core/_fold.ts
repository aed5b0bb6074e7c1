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
 * Orders two folded keys by Unicode code point, as Postgres (`COLLATE "C"`)
 * and SQLite (binary) order them: JavaScript's `<` compares UTF-16 code
 * units, which puts a character above U+FFFF (a surrogate pair, from
 * U+D800) before one in U+E000–U+FFFF, so a listing on KV would order
 * otherwise than the same listing on another store. Negative, zero or
 * positive, like any comparator.
 */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Where both are at or above the surrogates, move the surrogates
    // (D800–DFFF) above E000–FFFF: the code units then compare as the
    // code points they start.
    if (x >= 0xd800 && y >= 0xd800) {
      x += x >= 0xe000 ? -0x800 : 0x2000;
      y += y >= 0xe000 ? -0x800 : 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

/**
 * The prefix of an email key no request can produce, since requests refuse
 * control characters: what a migration gives an old account whose address
 * folds like an older one's.
 */
export const UNREACHABLE_KEY = "\u0001";
