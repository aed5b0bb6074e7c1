// How every rule writes: read what it needs, decide, and hand the store one
// checked commit; when a check fails (someone wrote meanwhile), read again
// and decide again. The rule is then decided on the very records its commit
// is checked against, which is what makes it hold under concurrency on
// every store alike.

import type {
  Commit,
  Kind,
  RecordKinds,
  RecordRef,
  RecordStore,
  Versioned,
} from "../records.ts";

/** What one attempt decided: the commit to try (null: nothing to write) and the answer. */
export interface Attempt<T> {
  commit: Commit | null;
  result: T;
}

// The longest pause between two attempts, ms. The pause is random up to a
// ceiling that doubles with each conflict, so a crowd of writers on one
// record spreads out instead of colliding again.
const MAX_BACKOFF = 100;

/**
 * Runs `attempt` until its commit holds (or it has nothing to commit) and
 * answers its result. A failed check means another writer changed what was
 * read; nothing was written, so deciding again is safe.
 */
export async function committing<T>(
  records: RecordStore,
  attempt: () => Promise<Attempt<T>>,
): Promise<T> {
  for (let i = 0;; i++) {
    const { commit, result } = await attempt();
    if (commit === null || await records.commit(commit)) return result;
    await pause(Math.random() * Math.min(MAX_BACKOFF, 2 ** i));
  }
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The record of `kind` behind `key`, with its version, or null. */
export async function readRecord<K extends Kind>(
  records: RecordStore,
  kind: K,
  key: string,
): Promise<Versioned<RecordKinds[K]> | null> {
  const [found] = await records.read([{ kind, key } as RecordRef]);
  return found as Versioned<RecordKinds[K]> | null;
}

/** The records behind `refs`, read together; the caller names their types. */
export function readRecords<T extends readonly unknown[]>(
  records: RecordStore,
  refs: readonly RecordRef[],
): Promise<{ [I in keyof T]: Versioned<T[I]> | null }> {
  return records.read(refs) as Promise<
    { [I in keyof T]: Versioned<T[I]> | null }
  >;
}

/** A check that `found` is still as read (absent when it was absent). */
export function unchanged(
  kind: Kind,
  key: string,
  found: Versioned<unknown> | null,
): { kind: Kind; key: string; version: string | null } {
  return { kind, key, version: found?.version ?? null };
}
