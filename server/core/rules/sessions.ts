// The session rules over a RecordStore: the hot-path check (one read of the
// session and its account), recording a use or a re-authentication,
// listing, ending one, all but one, or all at once with a password change,
// and the reaper's sweep. Creating a session (the cap, the early reads) is
// in ./_session_creation.ts; mass deletions in ./_session_sweep.ts.

import type {
  AccountRecord,
  RecordStore,
  StoredSession,
  Versioned,
} from "../records.ts";
import type {
  AuthenticationRenewal,
  ByActor,
  PasswordChange,
  SessionEnding,
  SessionLookup,
  SessionRecord,
  Store,
  WithEvents,
} from "../store.ts";
import { committing, readRecord, readRecords, unchanged } from "./_commit.ts";
import { factorsOf, tally, toUserRecord } from "./_records.ts";
import {
  createSession,
  EarlyReads,
  InTurn,
  Rosters,
} from "./_session_creation.ts";
import { deleteDeadSessions, endSessionsOnce } from "./_session_sweep.ts";
import { readAsActor } from "./_actor.ts";

/**
 * The session operations of `Store`, decided over `records`.
 *
 * @example Recording a session and checking it
 * ```ts
 * import { sessionRules } from "./sessions.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function signedIn(records: RecordStore, userId: string) {
 *   const sessions = sessionRules(records);
 *   const now = Date.now();
 *   await sessions.createSession({
 *     tokenHash: "digest",
 *     userId,
 *     createdAt: now,
 *     expiresAt: now + 3_600_000,
 *   });
 *   return await sessions.findSession("digest", now, userId);
 * }
 * ```
 */
export function sessionRules(
  records: RecordStore,
): Pick<
  Required<Store>,
  | "createSession"
  | "anticipateSession"
  | "findSession"
  | "touchSession"
  | "listSessions"
  | "deleteSession"
  | "deleteSessionById"
  | "deleteOtherSessions"
  | "renewAuthentication"
  | "changePassword"
  | "deleteExpiredSessions"
> {
  const rosters = new Rosters();
  const early = new EarlyReads(records, rosters);
  const inTurn = new InTurn();
  return {
    createSession: (session) => {
      // Taken now: a hint is for the sign-in that follows it. Behind
      // another sign-in of the account it would be stale by its turn.
      const taken = early.take(session.userId);
      const reads = inTurn.busy(session.userId) ? null : taken;
      return inTurn.run(
        session.userId,
        () => createSession(records, session, reads, rosters),
      );
    },
    anticipateSession: (userId) => early.begin(userId),
    findSession: (tokenHash, now, userId) =>
      findSession(records, tokenHash, now, userId),
    touchSession: (tokenHash, at) => touchSession(records, tokenHash, at),
    listSessions: (userId, now) => listSessions(records, userId, now),
    deleteSession: (tokenHash, options) =>
      deleteSession(records, tokenHash, options),
    deleteSessionById: (userId, sessionId, ending) =>
      deleteSessionById(records, userId, sessionId, ending),
    deleteOtherSessions: (userId, keepTokenHash, options) =>
      deleteOtherSessions(records, userId, keepTokenHash, options),
    renewAuthentication: (tokenHash, renewal) =>
      renewAuthentication(records, tokenHash, renewal),
    changePassword: (change) => changePassword(records, change),
    deleteExpiredSessions: (now, limit) =>
      records.deleteExpired("session", now, limit),
  };
}

/**
 * The hot path. Given the account the token names, one read fetches the
 * session and the account together (the store may share it with the
 * checks waiting at the same moment); a session of another account is
 * refused. Without it (a token of the older form), the session names the
 * account: two reads.
 */
async function findSession(
  records: RecordStore,
  tokenHash: string,
  now: number,
  userId?: string,
): Promise<SessionLookup | null> {
  let found: Versioned<StoredSession> | null;
  let owner: Versioned<AccountRecord> | null;
  if (userId !== undefined) {
    [found, owner] = await readRecords<[StoredSession, AccountRecord]>(
      records,
      [{ kind: "session", key: tokenHash }, { kind: "account", key: userId }],
    );
    if (found === null || found.value.userId !== userId) return null;
  } else {
    found = await readRecord(records, "session", tokenHash);
    if (found === null) return null;
    owner = await readRecord(records, "account", found.value.userId);
  }
  const session = found.value;
  const account = owner?.value;
  if (!isLive(session, account, now)) return null;
  return {
    user: toUserRecord(account),
    id: session.id,
    createdAt: session.createdAt,
    expiresAt: session.expiresAt,
    lastSeenAt: session.lastSeenAt,
    authenticatedAt: session.authenticatedAt,
    generation: session.generation,
    factors: factorsOf(account),
    ...(session.ssoProvider === undefined
      ? {}
      : { ssoProvider: session.ssoProvider }),
  };
}

/**
 * Sets `lastSeenAt` if later. The commit checks the session's version, so a
 * session deleted meanwhile stays deleted (the retry finds it gone).
 */
function touchSession(
  records: RecordStore,
  tokenHash: string,
  at: number,
): Promise<void> {
  return committing(records, async () => {
    const found = await readRecord(records, "session", tokenHash);
    if (found === null || found.value.lastSeenAt >= at) {
      return { commit: null, result: undefined };
    }
    return {
      commit: {
        checks: [unchanged("session", tokenHash, found)],
        puts: [{
          kind: "session",
          value: { ...found.value, lastSeenAt: at },
          before: found.value,
        }],
      },
      result: undefined,
    };
  });
}

/**
 * Whether `session` is live at `now`: unexpired, its account `account`
 * enabled and still at the session's generation (a disable, a password
 * change or a reset moved it). Idle expiry is judged by the caller, which
 * knows the idle timeout.
 */
function isLive(
  session: StoredSession,
  account: AccountRecord | undefined,
  now: number,
): account is AccountRecord {
  return session.expiresAt > now && account !== undefined &&
    !account.disabled && account.generation === session.generation;
}

// The account and all its stored sessions, live or dead, read at once.
function accountSessions(records: RecordStore, userId: string) {
  return Promise.all([
    readRecord(records, "account", userId),
    records.list("session", "userId", userId),
  ]);
}

/** The account's live sessions (unexpired, of its generation), newest first. */
async function listSessions(
  records: RecordStore,
  userId: string,
  now: number,
): Promise<SessionRecord[]> {
  const [owner, sessions] = await accountSessions(records, userId);
  return sessions.map((found) => found.value)
    .filter((s) => isLive(s, owner?.value, now))
    .sort((a, b) =>
      b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
    )
    .map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      expiresAt: s.expiresAt,
      lastSeenAt: s.lastSeenAt,
      authenticatedAt: s.authenticatedAt,
      ip: s.ip,
      userAgent: s.userAgent,
      ...(s.ssoProvider === undefined ? {} : { ssoProvider: s.ssoProvider }),
    }));
}

// The commit that deletes one session as read (checked, so that of two
// racing deletions one deletes and the other finds none: the tally's count
// goes down by the one session that was there), with its events.
function deletion(found: Versioned<StoredSession>, options: WithEvents) {
  const session = found.value;
  return {
    checks: [unchanged("session", session.tokenHash, found)],
    deletes: [{ kind: "session" as const, value: session }],
    tallies: [{ key: tally.sessions(session.userId), by: -1 }],
    ...(options.events === undefined ? {} : { events: options.events }),
  };
}

/** Deletes one session (and writes its events); whether one was deleted. */
function deleteSession(
  records: RecordStore,
  tokenHash: string,
  options: WithEvents = {},
): Promise<boolean> {
  return committing(records, async () => {
    const found = await readRecord(records, "session", tokenHash);
    return found === null
      ? { commit: null, result: false }
      : { commit: deletion(found, options), result: true };
  });
}

/**
 * Deletes the session `sessionId` of `userId` if it is live (see
 * `SessionEnding`); whether one was deleted. A dead one is left to the
 * sweeps: it is gone from the account's list already, and ending it again
 * would answer, and record, an end that changed nothing. The commit also
 * checks the account, so a revocation landing meanwhile is decided again.
 */
function deleteSessionById(
  records: RecordStore,
  userId: string,
  sessionId: string,
  ending: SessionEnding,
): Promise<boolean> {
  return committing(records, async () => {
    const [{ found: [owner], checks }, sessions] = await Promise.all([
      readAsActor<[AccountRecord]>(
        records,
        [{ kind: "account", key: userId }],
        ending.actor,
      ),
      records.list("session", "userId", userId),
    ]);
    const found = sessions.find((s) => s.value.id === sessionId);
    if (
      found === undefined || !isLive(found.value, owner?.value, ending.now) ||
      found.value.lastSeenAt <= ending.idleCutoff
    ) {
      return { commit: null, result: false };
    }
    const commit = deletion(found, ending);
    return {
      commit: {
        ...commit,
        checks: [
          ...commit.checks,
          unchanged("account", userId, owner),
          // The actor's session, unless it is the one ended here (checked
          // by the deletion already).
          ...checks.filter((c) =>
            c.kind !== "session" || c.key !== found.value.tokenHash
          ),
        ],
      },
      result: true,
    };
  });
}

/**
 * Deletes every session of `userId` but `keepTokenHash`, with the events in
 * the first commit (none when there is nothing to delete): one commit under
 * the cap, one per batch beyond it (sessions from before the cap). Once
 * (`endSessionsOnce`): of two at once, one ends the others and records it,
 * the other finds none (before, each recorded its own `session.revoked`).
 */
async function deleteOtherSessions(
  records: RecordStore,
  userId: string,
  keepTokenHash: string,
  options: WithEvents & ByActor = {},
): Promise<number> {
  const ended = await endSessionsOnce(
    records,
    userId,
    async () =>
      (await records.list("session", "userId", userId))
        .map((found) => found.value)
        .filter((s) => s.tokenHash !== keepTokenHash),
    () => options.events ?? [],
    options.actor,
  );
  return ended.sessions.length;
}

/**
 * Sets the session's `authenticatedAt` if it is live; the commit checks the
 * session and its account, so a revocation in flight wins.
 */
function renewAuthentication(
  records: RecordStore,
  tokenHash: string,
  renewal: AuthenticationRenewal,
): Promise<boolean> {
  const { now } = renewal;
  return committing(records, async () => {
    const found = await readRecord(records, "session", tokenHash);
    const session = found?.value;
    if (found === null || session === undefined || session.expiresAt <= now) {
      return { commit: null, result: false };
    }
    const owner = await readRecord(records, "account", session.userId);
    const account = owner?.value;
    if (
      account === undefined || account.disabled ||
      account.generation !== session.generation
    ) {
      return { commit: null, result: false };
    }
    return {
      commit: {
        checks: [
          unchanged("session", tokenHash, found),
          unchanged("account", session.userId, owner),
        ],
        puts: [{
          kind: "session",
          value: {
            ...session,
            authenticatedAt: now,
            lastSeenAt: Math.max(session.lastSeenAt, now),
          },
          before: session,
        }],
        ...(renewal.events === undefined ? {} : { events: renewal.events }),
      },
      result: true,
    };
  });
}

/**
 * Replaces the password, moves the generation and records the fresh
 * session in one commit, if the account is enabled and still at the
 * expected generation, and its `actor` still stands (`readAsActor`: the
 * session that asked, at its own generation, else `session_absent`). The
 * records of the sessions that died are removed after; they were dead
 * from the commit on.
 */
async function changePassword(
  records: RecordStore,
  change: PasswordChange,
): Promise<boolean> {
  const { userId, session } = change;
  const generation = await committing(records, async () => {
    const { found: [found], checks } = await readAsActor<[AccountRecord]>(
      records,
      [{ kind: "account", key: userId }],
      change.actor,
    );
    const account = found?.value;
    if (
      account === undefined || account.disabled ||
      account.generation !== change.expectedGeneration
    ) {
      return { commit: null, result: null };
    }
    const next = account.generation + 1;
    const fresh: StoredSession = {
      tokenHash: session.tokenHash,
      id: session.id,
      userId,
      generation: next,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      lastSeenAt: session.createdAt,
      authenticatedAt: session.createdAt,
      ip: session.ip,
      userAgent: session.userAgent,
    };
    return {
      commit: {
        checks: [unchanged("account", userId, found), ...checks],
        puts: [
          {
            kind: "account",
            value: {
              ...account,
              passwordHash: change.passwordHash,
              generation: next,
            },
            before: account,
          },
          { kind: "session", value: fresh, before: null },
        ],
        tallies: [{ key: tally.sessions(userId), by: 1 }],
        ...(change.events === undefined ? {} : { events: change.events }),
      },
      result: next,
    };
  });
  if (generation === null) return false;
  await deleteDeadSessions(records, userId, generation, session.tokenHash);
  return true;
}
