// The session check's answer is the caller's Identity as JSON, on every
// poll of every open tab. An account's Identity rarely changes, so the text
// made for the last Identity of each account is kept and reused while that
// Identity is field for field the same, in the same order: strings by
// value, the lists and second-factor summaries by reference
// (identityBuilder shares one frozen object for each, so a changed list is
// a different object). Nothing read from the store is skipped: the
// Identity compared is built from this request's read.

import type { Identity } from "./identity.ts";

// Accounts whose text is kept; past this many the memory starts over.
const MAX_KEPT = 1024;

interface Kept {
  identity: Identity;
  keys: readonly string[];
  json: string;
}

/** A serializer of identities that reuses the text of an unchanged one. */
export function identityJson(): (identity: Identity) => string {
  const kept = new Map<string, Kept>();
  return (identity) => {
    const last = kept.get(identity.id);
    if (last !== undefined && sameFields(last, identity)) return last.json;
    const json = JSON.stringify(identity);
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(identity.id, { identity, keys: Object.keys(identity), json });
    return json;
  };
}

// Without allocating: this runs on every session check.
function sameFields(last: Kept, identity: Identity): boolean {
  const { keys } = last;
  const before = last.identity as unknown as Record<string, unknown>;
  const now = identity as unknown as Record<string, unknown>;
  let i = 0;
  for (const key in now) {
    if (keys[i] !== key || before[key] !== now[key]) return false;
    i++;
  }
  return i === keys.length;
}
