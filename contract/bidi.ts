// How text from people (names, addresses) is put into a sentence of ours,
// on a screen or in a mail: the name rule admits format characters, so a
// name could otherwise turn the words around it backwards. One rule for
// the screens (`sprintf`, client/screens/i18n.ts) and the shipped mail
// (server/core/mail/templates.ts).

// Right-to-left letters (Hebrew to N'Ko, Arabic presentation forms, the
// right-to-left blocks above U+FFFF) and the explicit bidirectional marks,
// embeddings, overrides and isolates.
const BIDI =
  /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFE\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}\u061C\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * `text` as one isolated run (FSI … PDI) when it holds right-to-left
 * letters or bidirectional controls, else as it is: put into a sentence,
 * a name then cannot reorder the sentence's words (a name may end in
 * U+202E, RIGHT-TO-LEFT OVERRIDE). A PDI closes every embedding and
 * override opened inside, and one PDI more is added for each isolate the
 * text leaves open, so the last one closes ours. A PDI of the text's with
 * no isolate of its own to close is left out: it would close ours, and
 * leave what the text opens after it open on the sentence.
 *
 * @param text A name or an address, as stored.
 * @returns The text to put into a sentence.
 *
 * @example A name that would turn the sentence around
 * ```ts
 * import { isolatedText } from "@gatehouse/contract";
 *
 * const name = "Eve\u202E";
 * const sentence = `${isolatedText(name)} invited you`;
 * console.assert(sentence === "\u2068Eve\u202E\u2069 invited you");
 * console.assert(isolatedText("Ada") === "Ada");
 * ```
 */
export function isolatedText(text: string): string {
  if (!BIDI.test(text)) return text;
  let open = 0;
  let kept = "";
  for (const ch of text) {
    if (ch === "\u2066" || ch === "\u2067" || ch === "\u2068") open++;
    else if (ch === "\u2069") {
      if (open === 0) continue;
      open--;
    }
    kept += ch;
  }
  return `\u2068${kept}${"\u2069".repeat(open + 1)}`;
}
