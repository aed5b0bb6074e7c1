// Creating a session in KvStore. Its commit decides on three reads (the
// account, its session counter, its sessions for the cap). A sign-in can
// begin them while argon2id verifies the password on another thread
// (`anticipate`), so that after the verify only the commit is left: the
// reads are otherwise a third of a login's time beyond the verify
// (bench/README.md). Early reads are only a starting point: the commit
// checks the account and the counter as they were read, and reads again
// when either moved, exactly as when it read them itself.

import { uuidv7 } from "../../core/_crypto.ts";
import type { NewSession } from "../../core/store.ts";
import { retry } from "./_atomic.ts";
import { addEvents } from "./_audit.ts";
import { factorsOf } from "./_factor_keys.ts";
import {
  type KvKeys,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_keys.ts";

// Sessions a commit may end to make room: three mutations each, within
// KV's 1000. An account over its cap by more (sessions from before the cap
// existed) is trimmed by this many at each sign-in.
const MAX_ENDED = 200;

// Early reads kept waiting for their createSession, and how long one is
// worth keeping. A verify takes tens of milliseconds, seconds when many
// queue for argon2's threads; a wrong password leaves its reads unused
// until they age out. Bounded so that a flood of sign-ins holds little.
const MAX_EARLY = 256;
const EARLY_FOR_MS = 10_000;

/** What a session's commit decides on. */
interface CreationReads {
  account: Deno.KvEntryMaybe<UserValue>;
  seq: Deno.KvEntryMaybe<number>;
  /** The account's sessions as [token hash, expiry]; null when not listed. */
  sessions: Array<[string, number]> | null;
}

async function readForCreation(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  listing: boolean,
): Promise<CreationReads> {
  const [[account, seq], sessions] = await Promise.all([
    kv.getMany<[UserValue, number]>([k.user(userId), k.sessionSeq(userId)]),
    listing ? sessionsOf(kv, k, userId) : null,
  ]);
  return { account, seq, sessions };
}

async function sessionsOf(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
): Promise<Array<[string, number]>> {
  const found: Array<[string, number]> = [];
  for await (
    const entry of kv.list<number>({ prefix: k.sessionsOfUser(userId) })
  ) {
    found.push([entry.key[entry.key.length - 1] as string, entry.value]);
  }
  return found;
}

/**
 * Reads begun ahead of the createSession they serve, one per account at a
 * time (the latest), each taken by the first createSession of its account
 * within {@linkcode EARLY_FOR_MS}.
 */
export class EarlyReads {
  readonly #kv: Deno.Kv;
  readonly #k: KvKeys;
  readonly #waiting = new Map<
    string,
    { at: number; reads: Promise<CreationReads | null> }
  >();

  constructor(kv: Deno.Kv, k: KvKeys) {
    this.#kv = kv;
    this.#k = k;
  }

  /** Begins the reads of a session of `userId`; never throws. */
  begin(userId: string): void {
    const at = performance.now();
    if (this.#waiting.size >= MAX_EARLY) this.#forgetOld(at);
    // A read that fails is as if none had been begun.
    const reads = readForCreation(this.#kv, this.#k, userId, true)
      .catch(() => null);
    this.#waiting.delete(userId);
    this.#waiting.set(userId, { at, reads });
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

  #forgetOld(now: number) {
    // Insertion order is age order (begin re-inserts): the oldest go first.
    for (const [userId, { at }] of this.#waiting) {
      if (this.#waiting.size < MAX_EARLY && now - at < EARLY_FOR_MS) break;
      this.#waiting.delete(userId);
    }
  }
}

/**
 * Records a session if the account exists, is enabled and its generation is
 * the expected one, and ends the sessions that would end first beyond
 * `maxSessions`. The commit checks the account and `session_seq`, which
 * every new session of the account bumps: sign-ins of one account commit
 * one after another, each having seen the sessions of the ones before.
 * `early` (reads begun by `EarlyReads`) stands in for the first attempt's
 * reads; a conflict reads afresh.
 */
export function createSession(
  kv: Deno.Kv,
  k: KvKeys,
  session: NewSession,
  early: Promise<CreationReads | null> | null = null,
): Promise<boolean> {
  const { tokenHash, userId, createdAt, expiresAt, maxSessions } = session;
  const listing = maxSessions !== undefined;
  return retry(async () => {
    const earlier = early === null ? null : await early;
    early = null;
    const { account: entry, seq, sessions } = earlier ??
      await readForCreation(kv, k, userId, listing);
    const account = entry.value;
    if (
      account === null || account.disabled ||
      (session.expectedGeneration !== undefined &&
        account.generation !== session.expectedGeneration) ||
      (session.expectedFactorVersion !== undefined &&
        factorsOf(account).factorVersion !== session.expectedFactorVersion)
    ) {
      return { op: null, result: false };
    }
    const value: SessionValue = {
      id: session.id ?? uuidv7(createdAt),
      userId,
      generation: account.generation,
      createdAt,
      expiresAt,
      lastSeenAt: createdAt,
      authenticatedAt: createdAt,
      ip: session.ip ?? "",
      userAgent: session.userAgent ?? "",
    };
    const life = ttl(expiresAt, createdAt);
    const op = addEvents(kv.atomic(), k, session.events).check(entry, seq)
      .set(k.sessionSeq(userId), (seq.value ?? 0) + 1)
      .set(k.session(tokenHash), value, life)
      .set(k.sessionUser(userId, tokenHash), expiresAt, life)
      .set(k.sessionExpiry(expiresAt, tokenHash), userId);
    if (listing) {
      for (
        const [hash, at] of surplus(sessions ?? [], createdAt, maxSessions)
      ) {
        op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
          .delete(k.sessionExpiry(at, hash));
      }
    }
    return { op, result: true };
  });
}

// The sessions to end so that, with the new one, at most `maxSessions` are
// live (the live ones that end first), and the expired ones while there is
// room in the commit. A session revoked after the listing is still counted
// (the commit does not check each listing entry): a revocation racing a
// sign-in at the cap may end one session more than needed, never fewer.
function surplus(
  sessions: Array<[string, number]>,
  createdAt: number,
  maxSessions: number,
): Array<[string, number]> {
  const live: Array<[string, number]> = [];
  const ended: Array<[string, number]> = [];
  for (const session of sessions) {
    (session[1] > createdAt ? live : ended).push(session);
  }
  live.sort(([a, x], [b, y]) => x - y || (a < b ? -1 : 1));
  const over = Math.max(0, live.length - (maxSessions - 1));
  return [...live.slice(0, over), ...ended].slice(0, MAX_ENDED);
}
