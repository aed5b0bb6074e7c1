// Removing many sessions of one account: a sign-out everywhere else, and
// the dead records a revocation leaves (a disable, a password change or a
// reset moves the generation, which kills the sessions at once; their
// records are removed after). In batches, so no commit outgrows a store's
// limits, each moving the account's `sessions:{userId}` tally so a sign-in
// deciding its cap on the list meanwhile reads again.

import type {
  AuditEvent,
  RecordStore,
  StoredSession,
  StoredTally,
} from "../records.ts";
import { committing, unchanged } from "./_commit.ts";
import { tally } from "./_records.ts";
import type { ActorStanding } from "../actor.ts";
import { readAsActor } from "./_actor.ts";

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

/** What {@linkcode endSessionsOnce} ended, and the events it wrote. */
export interface Ended {
  /** The sessions ended. */
  sessions: StoredSession[];
  /** The events written with them. */
  events: readonly AuditEvent[];
}

/**
 * Ends the sessions of `userId` that `named` lists, the first batch with
 * `events` of them, in a commit checked against the account's
 * `sessions:` tally, read before the list. Every deletion of a session
 * moves that tally, so of two endings of the same sessions at once (a
 * double "sign out everywhere else", one logout token delivered twice),
 * one ends them and records it; the other reads again, finds them gone,
 * and writes nothing. (Unchecked, each wrote its own event for the one
 * change.) The rest, beyond a batch, are ended after, with no event. With
 * `actor`, only while that account still stands (`readAsActor`), checked
 * by the same commit.
 */
export async function endSessionsOnce(
  records: RecordStore,
  userId: string,
  named: () => Promise<StoredSession[]>,
  events: (sessions: StoredSession[]) => readonly AuditEvent[] = () => [],
  actor?: ActorStanding,
): Promise<Ended> {
  const key = tally.sessions(userId);
  const ended = await committing<Ended>(records, async () => {
    const { found: [count], checks } = await readAsActor<[StoredTally]>(
      records,
      [{ kind: "tally", key }],
      actor,
    );
    // Listed after the tally: a session added or ended since moved it.
    const sessions = await named();
    if (sessions.length === 0) {
      return { commit: null, result: { sessions, events: [] } };
    }
    const made = events(sessions);
    return {
      commit: {
        checks: [unchanged("tally", key, count), ...checks],
        deletes: sessions.slice(0, SESSION_BATCH).map((value) => ({
          kind: "session" as const,
          value,
        })),
        // Up by one, as every batch moves it (see endSessions).
        tallies: [{ key, by: 1 }],
        events: made,
      },
      result: { sessions, events: made },
    };
  });
  await endSessions(records, userId, ended.sessions.slice(SESSION_BATCH));
  return ended;
}
