// Committing to Deno KV: the optimistic retry loop every read-decide-write
// of KvStore runs in, and the commit that rides out another handle's write
// lock on a shared file.

const MAX_ATTEMPTS = 100;

/** One read-decide pass: what to commit (`null` for nothing) and its answer. */
export type Attempt<T> = () => Promise<
  { op: Deno.AtomicOperation | null; result: T }
>;

/**
 * Optimistic concurrency: read, decide, commit with checks; on a conflict
 * read again. `op: null` means nothing to write.
 */
export async function retry<T>(attempt: Attempt<T>): Promise<T> {
  for (let i = 0; i < MAX_ATTEMPTS; i++) {
    const { op, result } = await attempt();
    if (op === null || (await commit(op)).ok) return result;
    // Back off a little so racing instances interleave instead of colliding again.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.random() * Math.min(50, 2 ** i))
    );
  }
  throw new Error("KvStore: too much contention, commit kept conflicting");
}

// Deno KV's SQLite backend refuses a commit with "database is locked" when
// another handle on the same file (another app instance) is writing at that
// moment. Nothing was written then, and checks are evaluated again at each
// commit, so committing the same operation again is safe.
const LOCKED = /\bdatabase (?:table )?is locked\b/;
const LOCKED_ATTEMPTS = 50;

/** Commits `op`, again while the file is locked by another handle. */
export async function commit(
  op: Deno.AtomicOperation,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let i = 1;; i++) {
    try {
      return await op.commit();
    } catch (err) {
      if (i === LOCKED_ATTEMPTS || !LOCKED.test(String(err))) throw err;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.random() * Math.min(50, 2 ** i))
      );
    }
  }
}
