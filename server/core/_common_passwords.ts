// The common-password list of DESIGN.md §4: the password dictionary of
// npm:@zxcvbn-ts/language-common (about 49 000 passwords from breach
// corpora, maintained by the zxcvbn-ts project) rather than a list typed by
// hand. Loaded on the first password that is set, not at start-up and never
// on the sign-in path, and kept as one set of folded entries.

import { fold } from "./_fold.ts";

let loading: Promise<ReadonlySet<string>> | undefined;

/** Whether `password`, folded (NFC, lower case), is on the list. */
export async function isCommonPassword(password: string): Promise<boolean> {
  loading ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary.passwords.map(fold)),
    (err) => {
      loading = undefined; // a failed load is tried again next time
      throw err;
    },
  );
  return (await loading).has(fold(password));
}
