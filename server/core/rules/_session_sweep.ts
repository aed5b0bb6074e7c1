// Removing many sessions of one account: a sign-out everywhere else, and
// the dead records a revocation leaves (a disable, a password change or a
// reset moves the generation, which kills the sessions at once; their
// records are removed after). In batches, so no commit outgrows a store's
// limits, each moving the account's `sessions:{userId}` tally so a sign-in
// deciding its cap on the list meanwhile reads again.

import type { AuditEvent, RecordStore, StoredSession } from "../records.ts";
import { tally } from "./_records.ts";

/**
 * Sessions one commit deletes at most: with the tally move and the events
 * of the change, well within a commit's 300 writes (a store may add index
 * entries of its own to each).
 */
export const SESSION_BATCH = 100;

/**
 * Deletes `sessions` (all of account `userId`), `events` in the first
 * commit; writes nothing when there are none.
 */
export async function endSessions(
  records: RecordStore,
  userId: string,
  sessions: readonly StoredSession[],
  events?: readonly AuditEvent[],
): Promise<void> {
  let first = events;
  for (let i = 0; i < sessions.length; i += SESSION_BATCH) {
    const done = await records.commit({
      deletes: sessions.slice(i, i + SESSION_BATCH).map((value) => ({
        kind: "session" as const,
        value,
      })),
      tallies: [{ key: tally.sessions(userId), by: 1 }],
      ...(first === undefined ? {} : { events: first }),
    });
    // Nothing is checked: only a broken store refuses it.
    if (!done) throw new Error("Cannot delete sessions");
    first = undefined;
  }
}

/**
 * Deletes the sessions of `userId` that a moved generation killed: those
 * not issued under `generation`, the account's current one. A session
 * signed in after the move is live and stays, and so does `keepTokenHash`.
 * Returns how many were deleted.
 */
export async function deleteDeadSessions(
  records: RecordStore,
  userId: string,
  generation: number,
  keepTokenHash?: string,
): Promise<number> {
  const dead = (await records.list("session", "userId", userId))
    .map((found) => found.value)
    .filter((s) =>
      s.generation !== generation && s.tokenHash !== keepTokenHash
    );
  await endSessions(records, userId, dead);
  return dead.length;
}
