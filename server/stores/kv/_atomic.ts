// Committing to Deno KV: the optimistic retry loop every read-decide-write
// of KvStore runs in, and the commit that rides out another handle's write
// lock on a shared file.

// The longest pause between two attempts, ms. The pause is random up to a
// ceiling that doubles with each conflict, so a crowd of writers on one key
// spreads out instead of colliding again.
const MAX_BACKOFF = 100;

/** One read-decide pass: what to commit (`null` for nothing) and its answer. */
export type Attempt<T> = () => Promise<
  { op: Deno.AtomicOperation | null; result: T }
>;

/**
 * Optimistic concurrency: read, decide, commit with checks; on a conflict
 * read again. `op: null` means nothing to write.
 *
 * There is no cap on attempts, on purpose: giving up would drop the write
 * (a limiter count, a session cap) exactly when it matters most, under a
 * burst. A check fails only because another commit on the same keys
 * succeeded, so every conflict is someone's progress and the crowd always
 * drains; the growing random pause keeps it from colliding in step.
 */
export async function retry<T>(attempt: Attempt<T>): Promise<T> {
  for (let i = 0;; i++) {
    const { op, result } = await attempt();
    if (op === null || (await commit(op)).ok) return result;
    await pause(Math.random() * Math.min(MAX_BACKOFF, 2 ** i));
  }
}

const pause = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, ms));

// Deno KV's SQLite backend refuses a commit with "database is locked" when
// another handle on the same file (another app instance) is in the way: at
// once, for most commits of a burst of writes from both instances
// (tests/server/kv_locked_file_test.ts), and after a five-second wait when
// it holds the write lock that long. Reads go on meanwhile (the file is in
// WAL mode).
// Nothing was written then, and checks are evaluated again at each commit,
// so committing the same operation again is safe. The retries are bounded
// in time, not in tries: how many a burst needs grows with its length and
// the machine's load, and a request should not hang for minutes either.
const LOCKED = /\bdatabase (?:table )?is locked\b/;

/** How long {@linkcode commit} keeps trying a locked file, ms, by default. */
export const LOCKED_FOR_MS = 15_000;

/**
 * Commits `op`, again while the file is locked by another handle, until
 * `lockedForMs` have passed since the first try.
 */
export async function commit(
  op: Deno.AtomicOperation,
  lockedForMs = LOCKED_FOR_MS,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  const until = Date.now() + lockedForMs;
  for (let i = 1;; i++) {
    try {
      return await op.commit();
    } catch (err) {
      if (!LOCKED.test(String(err)) || Date.now() >= until) throw err;
      await pause(Math.random() * Math.min(50, 2 ** i));
    }
  }
}
