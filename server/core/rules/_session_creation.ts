// Creating a session. Its commit decides on the account (is it enabled, at
// the generation and factor version the sign-in verified, and still
// without a second factor when a password alone was?), the account's
// `sessions:{userId}` tally and, at the cap, the account's sessions. Every
// commit that adds or removes a session of the account moves the tally,
// and this one checks it: sign-ins of one account commit one after
// another, each having seen the sessions of those before it.
//
// The tally's count is never below the number of sessions stored for the
// account: a new session adds one, a checked deletion takes one away; a
// deletion that cannot know what it removed (a batch) moves it up by one,
// and the reaper's sweep does not move it. So below the cap no list is
// needed; at the cap the sessions are listed, and the commit sets the count
// to what it then knows exactly.
//
// A sign-in begins the reads of the account and the tally while argon2id
// verifies the password (`EarlyReads`; for an address its instance saw
// before, in the turn of the account's own read, so that KV reads them in
// one getMany: `beginCheck` in ../sessions.ts), for an unknown address
// too (of an account that does not exist): both make the same reads, and
// the list, whose length depends on the account, waits for a right
// password. Early reads are a starting point only: the commit checks the
// account and the tally as they were read and reads again when either
// moved; a refusal decided on early reads is decided again on fresh ones,
// since no commit would have caught what changed. Within one process the
// sign-ins of an account wait their turn (`InTurn`) rather than collide at
// the commit.
//
// At the cap the list costs more than the commit (on KV a list and a
// getMany per ten sessions, one after another on the store's thread), so
// an instance keeps what it knows after its own commit (`Rosters`): the
// account's sessions then, and the session that commit recorded, its
// witness. The reads of a sign-in read the witness beside the account and
// the tally; only the commit that recorded the witness wrote it and moved
// the tally at once (a store gives every record of one commit the version
// of that commit, and never gives two commits one version), so while the
// tally's version is still the witness's, no session was added or ended
// since, and the roster is the list: none is read. Anything else (another
// instance's sign-in, an ended session, a use recorded on the witness)
// gives other versions, and the sessions are listed as before. The sweep
// moves no tally, but ends only dead sessions, which a roster still names
// and a commit ends again in passing (deleting what is absent is fine), so
// the count it sets stays exact. Every sign-in reads a witness, the made-up
// `NO_WITNESS` when there is no roster, so the reads of a wrong password
// and of an unknown address stay alike.

import { uuidv7 } from "../_crypto.ts";
import type {
  AccountRecord,
  Commit,
  RecordStore,
  StoredSession,
  StoredTally,
  Versioned,
} from "../records.ts";
import type { NewSession } from "../store.ts";
import { hasSecondFactor } from "../store_factors.ts";
import { committing, readRecords, unchanged } from "./_commit.ts";
import { tally } from "./_records.ts";

// Sessions one commit may end to make room, within a commit's 300 writes.
// An account over its cap by more (sessions from before the cap) is
// trimmed by this many at each sign-in.
const MAX_ENDED = 200;

// Early reads kept waiting for their createSession, and how long one is
// worth keeping. A verify takes tens of milliseconds, seconds when many
// queue for argon2's threads; a wrong password leaves its reads unused
// until they age out. Bounded so that a flood of sign-ins holds little.
const MAX_EARLY = 256;
const EARLY_FOR_MS = 10_000;

// Accounts whose sessions an instance keeps, and how many sessions a kept
// roster holds at most (beyond, the account lists again): bounded so that
// the accounts at their cap hold a few MB at most.
const MAX_ROSTERS = 256;
const MAX_ROSTER_SESSIONS = 256;

// The witness read when there is no roster: no token's digest (those are
// 43 base64url characters), so the read finds nothing, like a roster's
// witness that was ended.
const NO_WITNESS = "-";

/** An account's sessions as this instance's last commit of one left them. */
interface Roster {
  /** The session that commit recorded: its version is that commit's. */
  witness: string;
  /** The account's sessions after that commit. */
  sessions: readonly StoredSession[];
}

/**
 * What one instance knows of its accounts' sessions after its own commits
 * (see the top of this file): a roster per account, the latest, for at
 * most {@linkcode MAX_ROSTERS} accounts.
 */
export class Rosters {
  readonly #byAccount = new Map<string, Roster>();

  /** The roster of `userId`, if this instance keeps one. */
  of(userId: string): Roster | undefined {
    return this.#byAccount.get(userId);
  }

  /** Keeps `sessions` as `userId`'s after the commit that recorded `witness`. */
  keep(userId: string, witness: string, sessions: StoredSession[]): void {
    this.#byAccount.delete(userId);
    if (sessions.length > MAX_ROSTER_SESSIONS) return;
    if (this.#byAccount.size >= MAX_ROSTERS) {
      // Insertion order is age order (keep re-inserts): the oldest goes.
      const [oldest] = this.#byAccount.keys();
      this.#byAccount.delete(oldest!);
    }
    this.#byAccount.set(userId, { witness, sessions });
  }

  /** Forgets `userId`'s roster. */
  forget(userId: string): void {
    this.#byAccount.delete(userId);
  }

  /** How many rosters are kept (for tests of the bound). */
  get size(): number {
    return this.#byAccount.size;
  }
}

/** What a session's commit decides on. */
export interface CreationReads {
  account: Versioned<AccountRecord> | null;
  count: Versioned<StoredTally> | null;
  /** The account's sessions; null when not listed. */
  sessions: StoredSession[] | null;
  /**
   * The account's sessions as a roster knows them, when its witness shows
   * they are the sessions at the tally's version read; else null.
   */
  known: readonly StoredSession[] | null;
}

/** What decides whether a sign-in must list the account's sessions. */
type Cap = Pick<NewSession, "maxSessions" | "idleCutoff">;

/**
 * Reads what a session of `userId` is decided on: the account, the tally
 * and the roster's witness, then the sessions if the tally says the
 * account may be at its cap and no roster knows them (see
 * {@linkcode withSessions}).
 */
export async function readForCreation(
  records: RecordStore,
  userId: string,
  cap: Cap,
  rosters?: Rosters,
): Promise<CreationReads> {
  const roster = rosters?.of(userId);
  const [account, count, witness] = await readRecords<
    [AccountRecord, StoredTally, StoredSession]
  >(
    records,
    [
      { kind: "account", key: userId },
      { kind: "tally", key: tally.sessions(userId) },
      { kind: "session", key: roster?.witness ?? NO_WITNESS },
    ],
  );
  const known = roster !== undefined && witness !== null && count !== null &&
      witness.value.tokenHash === roster.witness &&
      witness.value.userId === userId && witness.version === count.version
    ? roster.sessions
    : null;
  return await withSessions(
    records,
    userId,
    { account, count, sessions: null, known },
    cap,
  );
}

/**
 * `reads` with the account's sessions listed, when a new session could
 * pass `maxSessions` by the tally's count. The list is read only after
 * the tally: every change to it after that read moves the tally, so the
 * commit's check on it catches a list that is already stale. (Listing in
 * parallel could answer an older list than the tally, and let a racing
 * sign-in slip past the cap.)
 */
async function withSessions(
  records: RecordStore,
  userId: string,
  reads: CreationReads,
  { maxSessions, idleCutoff }: Cap,
): Promise<CreationReads> {
  if (
    maxSessions === undefined || reads.sessions !== null ||
    reads.account === null || countOf(reads) + 1 <= maxSessions
  ) {
    return reads;
  }
  // A roster known current is the list (see the top of this file), but
  // not of when its sessions were last used: a use moves neither the
  // tally nor another session's version. Its `lastSeenAt` can only be
  // older than the store's (a use only moves it later), so a session it
  // shows in use is; one it shows idled out may have been used since, and
  // the store is asked before it is ended as unused.
  const known = reads.known;
  if (
    known !== null &&
    (idleCutoff === undefined || known.every((s) => s.lastSeenAt > idleCutoff))
  ) {
    return { ...reads, sessions: [...known] };
  }
  const listed = await records.list("session", "userId", userId);
  return { ...reads, sessions: listed.map((s) => s.value) };
}

const countOf = (reads: CreationReads) => reads.count?.value.count ?? 0;

/**
 * Reads begun ahead of the createSession they serve, one per account at a
 * time (the latest), each taken by the first createSession of its account
 * within {@linkcode EARLY_FOR_MS}.
 */
export class EarlyReads {
  readonly #records: RecordStore;
  readonly #rosters: Rosters | undefined;
  readonly #waiting = new Map<
    string,
    { at: number; reads: Promise<CreationReads | null> }
  >();

  /** Reads from `records`, with the witnesses of `rosters`. */
  constructor(records: RecordStore, rosters?: Rosters) {
    this.#records = records;
    this.#rosters = rosters;
  }

  /** Begins the reads of a session of `userId`; writes nothing, never throws. */
  begin(userId: string): void {
    try {
      const at = performance.now();
      this.#forgetOld(at);
      // A read that fails is as if none had been begun.
      const reads = readForCreation(
        this.#records,
        userId,
        {},
        this.#rosters,
      ).catch(() => null);
      this.#waiting.delete(userId);
      this.#waiting.set(userId, { at, reads });
    } catch {
      // A hint is worth no failure: createSession reads for itself.
    }
  }

  /** The reads begun for `userId`, if fresh enough; each is taken once. */
  take(userId: string): Promise<CreationReads | null> | null {
    const early = this.#waiting.get(userId);
    if (early === undefined) return null;
    this.#waiting.delete(userId);
    return performance.now() - early.at < EARLY_FOR_MS ? early.reads : null;
  }

  /** How many reads wait (for tests of the bound). */
  get size(): number {
    return this.#waiting.size;
  }

  #forgetOld(now: number): void {
    // Insertion order is age order (begin re-inserts): the oldest go first,
    // the stale ones always, more while the map is full.
    for (const [userId, { at }] of this.#waiting) {
      if (this.#waiting.size < MAX_EARLY && now - at < EARLY_FOR_MS) break;
      this.#waiting.delete(userId);
    }
  }
}

/**
 * Runs the tasks of one account one after another, in the order they
 * come; accounts run independently. The sign-ins of one account commit
 * one after another anyway (each checks the account's session tally, which
 * each moves): queued in the process, they no longer collide, retry and
 * crowd the store with reads whose commits are bound to fail. Instances
 * sharing a store still meet at the checks.
 */
export class InTurn {
  readonly #tails = new Map<string, Promise<void>>();

  /** Whether a task of `key` is running or waiting. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }

  /** Runs `task` once every task of `key` given before it has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.#tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(() => {}, () => {});
    this.#tails.set(key, tail);
    // The last task of a key takes its entry with it: the map holds only
    // accounts with a sign-in in progress.
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}

/**
 * Records a session if the account exists, is enabled and at the expected
 * generation and factor version, ending the sessions that would end first
 * beyond `maxSessions` in the same commit. `early` stands in for the first
 * attempt's reads. With `rosters`, a roster known current stands in for
 * the list, and the account's sessions after the commit are kept (the
 * caller runs one createSession of an account at a time: `InTurn`).
 */
export async function createSession(
  records: RecordStore,
  session: NewSession,
  early: Promise<CreationReads | null> | null = null,
  rosters?: Rosters,
): Promise<boolean> {
  const { userId } = session;
  const read = () => readForCreation(records, userId, session, rosters);
  // The sessions the commit that lands leaves, when they are known.
  let after: StoredSession[] | null = null;
  let created = false;
  try {
    created = await committing(records, async () => {
      const begun = early === null ? null : await early;
      early = null;
      const earlier = begun === null
        ? null
        : await withSessions(records, userId, begun, session);
      let planned = plan(session, earlier ?? await read());
      if (planned === null && earlier !== null) {
        // What was read early may have changed (an account created,
        // enabled): a refusal needs reads no older than the request.
        planned = plan(session, await read());
      }
      after = planned?.after ?? null;
      return { commit: planned?.commit ?? null, result: planned !== null };
    });
  } finally {
    // Kept only from a commit that landed with the sessions known; any
    // other outcome leaves nothing this instance knows current.
    if (created && after !== null) {
      rosters?.keep(userId, session.tokenHash, after);
    } else rosters?.forget(userId);
  }
  return created;
}

// The commit that records `session`, and the account's sessions after it
// when they are known; null when it is refused.
function plan(
  session: NewSession,
  reads: CreationReads,
): { commit: Commit; after: StoredSession[] | null } | null {
  const { account: found, count } = reads;
  const account = found?.value;
  if (
    account === undefined || account.disabled ||
    (session.expectedGeneration !== undefined &&
      account.generation !== session.expectedGeneration) ||
    (session.expectedFactorVersion !== undefined &&
      account.factorVersion !== session.expectedFactorVersion) ||
    // Checked on the factors themselves, not on a version that enabling
    // one would have to move: that would also end the pending sign-ins
    // and passkey sign-ins in flight whenever a factor is added, which
    // nothing asks of an addition (only a removal ends them).
    (session.withoutSecondFactor === true && hasSecondFactor(account))
  ) {
    return null;
  }
  const { tokenHash, userId, createdAt, maxSessions, idleCutoff } = session;
  const value: StoredSession = {
    tokenHash,
    id: session.id ?? uuidv7(createdAt),
    userId,
    generation: account.generation,
    createdAt,
    expiresAt: session.expiresAt,
    lastSeenAt: createdAt,
    authenticatedAt: createdAt,
    ip: session.ip ?? "",
    userAgent: session.userAgent ?? "",
  };
  // A single sign-on's: its provider, and the `sid` and identity a logout
  // names.
  if (session.sso !== undefined) {
    value.ssoProvider = session.sso.provider;
    if (session.sso.sid !== null) value.ssoSid = session.sso.sid;
    if (session.sso.subjectKey !== undefined) {
      value.ssoSubjectKey = session.sso.subjectKey;
    }
  }
  const listed = maxSessions === undefined ? null : reads.sessions;
  const ended = listed === null || maxSessions === undefined ? [] : surplus(
    listed,
    { generation: account.generation, createdAt, idleCutoff },
    maxSessions,
  );
  // Below the cap nothing was listed, but a roster known current still
  // tells the sessions after this commit.
  const before = listed ?? reads.known;
  const gone = new Set(ended);
  const after = before === null
    ? null
    : [...before.filter((s) => !gone.has(s)), value];
  const commit: Commit = {
    checks: [
      unchanged("account", userId, found),
      unchanged("tally", tally.sessions(userId), count),
    ],
    puts: [{ kind: "session", value, before: null }],
    deletes: ended.map((s) => ({ kind: "session" as const, value: s })),
    tallies: [{
      key: tally.sessions(userId),
      by: countMove(reads, listed, ended),
    }],
    ...(session.events === undefined ? {} : { events: session.events }),
  };
  return { commit, after };
}

// The sessions to end so that, with the new one, at most `maxSessions` are
// live (the live ones that end first, ties by token digest), and the dead
// ones (expired, idled out, or of an older generation) while there is room
// in the commit: they no longer count, and are removed in passing.
function surplus(
  sessions: readonly StoredSession[],
  { generation, createdAt, idleCutoff }: {
    generation: number;
    createdAt: number;
    idleCutoff?: number;
  },
  maxSessions: number,
): StoredSession[] {
  const live: StoredSession[] = [];
  const dead: StoredSession[] = [];
  for (const s of sessions) {
    const alive = s.expiresAt > createdAt && s.generation === generation &&
      (idleCutoff === undefined || s.lastSeenAt > idleCutoff);
    (alive ? live : dead).push(s);
  }
  live.sort((a, b) =>
    a.expiresAt - b.expiresAt ||
    (a.tokenHash < b.tokenHash ? -1 : a.tokenHash > b.tokenHash ? 1 : 0)
  );
  const over = Math.max(0, live.length - Math.max(0, maxSessions - 1));
  return [...live.slice(0, over), ...dead].slice(0, MAX_ENDED);
}

// How the tally moves: one more session, or, when the sessions were listed,
// to their exact count after this commit. (A move of 0 still moves the
// tally's version, which is what serialises the sign-ins: see TallyMove.)
function countMove(
  reads: CreationReads,
  listed: readonly StoredSession[] | null,
  ended: readonly StoredSession[],
): number {
  if (listed === null) return 1;
  return listed.length - ended.length + 1 - countOf(reads);
}
