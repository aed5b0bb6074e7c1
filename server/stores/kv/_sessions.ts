// Sessions in KvStore: each is three records (the session, its entry under
// its account for revocation, listing and the cap, its entry in the expiry
// index for the reaper), written and deleted together.

import type {
  SessionLookup,
  SessionRecord,
  WithEvents,
} from "../../core/store.ts";
import { toRecord } from "./_accounts.ts";
import { coalescing } from "../_coalesce.ts";
import { commit, retry } from "./_atomic.ts";
import { addEvents } from "./_audit.ts";
import { factorsOf } from "./_factor_keys.ts";
import {
  type KvKeys,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_keys.ts";

// Deno KV takes at most 1000 mutations per commit; a session costs three.
// Smaller commits hold KV's single writer for less time, so session reads
// queued behind a sweep or a mass revocation wait less.
const SESSION_BATCH = 100;

/** A session record and the account its token names, as read together. */
export type SessionRead = [SessionValue | null, UserValue | null];

/** A session by its token hash, with the account the token names. */
export interface SessionQuery {
  tokenHash: string;
  userId: string;
}

// Deno KV reads at most 10 keys per getMany.
const READ_BATCH = 10;

/**
 * Reads sessions and the accounts their tokens name, at most
 * `maxInFlight` reads at once; the checks that wait meanwhile share the
 * next `getMany` (up to its ten keys: five sessions of different accounts,
 * more when they share one). See ../_coalesce.ts.
 */
export function sessionReader(
  kv: Deno.Kv,
  k: KvKeys,
  maxInFlight: number,
): (query: SessionQuery) => Promise<SessionRead> {
  return coalescing<SessionQuery, SessionRead>({
    async readMany(queries) {
      const slots = new Map<string, number>();
      const keys: Deno.KvKey[] = [];
      const slot = (id: string, key: Deno.KvKey) => {
        let at = slots.get(id);
        if (at === undefined) {
          slots.set(id, at = keys.length);
          keys.push(key);
        }
        return at;
      };
      const pairs = queries.map((q) =>
        [
          slot(`s${q.tokenHash}`, k.session(q.tokenHash)),
          slot(`u${q.userId}`, k.user(q.userId)),
        ] as const
      );
      const entries = await kv.getMany<unknown[]>(keys);
      return pairs.map(([session, user]) => [
        entries[session]!.value as SessionValue | null,
        entries[user]!.value as UserValue | null,
      ]);
    },
    take(waiting) {
      const seen = new Set<string>();
      let count = 0;
      for (const q of waiting) {
        const session = `s${q.tokenHash}`;
        const user = `u${q.userId}`;
        const adds = (seen.has(session) ? 0 : 1) + (seen.has(user) ? 0 : 1);
        if (seen.size + adds > READ_BATCH) break;
        seen.add(session).add(user);
        count++;
      }
      return count;
    },
    maxInFlight,
  });
}

/**
 * The live session behind `tokenHash` and its enabled account, or null.
 * Given the account the token names, `read` fetches both at once (the hot
 * path's single round trip, shared with the checks waiting at the same
 * moment); a session of another account is refused. Without it (a token of
 * the older form), the session names the account: two reads.
 */
export async function findSession(
  kv: Deno.Kv,
  k: KvKeys,
  read: (query: SessionQuery) => Promise<SessionRead>,
  tokenHash: string,
  now: number,
  userId?: string,
): Promise<SessionLookup | null> {
  let value: SessionValue | null;
  let account: UserValue | null;
  if (userId !== undefined) {
    [value, account] = await read({ tokenHash, userId });
    if (value === null || value.userId !== userId) return null;
  } else {
    value = (await kv.get<SessionValue>(k.session(tokenHash))).value;
    if (value === null) return null;
    account = (await kv.get<UserValue>(k.user(value.userId))).value;
  }
  if (
    value.expiresAt <= now || account === null || account.disabled ||
    account.generation !== value.generation
  ) {
    return null;
  }
  return {
    user: toRecord(account),
    id: value.id,
    createdAt: value.createdAt,
    expiresAt: value.expiresAt,
    lastSeenAt: value.lastSeenAt,
    authenticatedAt: value.authenticatedAt,
    factors: factorsOf(account),
  };
}

/**
 * Sets `lastSeenAt` if later. The commit checks the session record, so a
 * session deleted meanwhile stays deleted; a touch that loses a race is
 * dropped (the next request touches again).
 */
export async function touchSession(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  at: number,
): Promise<void> {
  const entry = await kv.get<SessionValue>(k.session(tokenHash));
  const value = entry.value;
  if (value === null || value.lastSeenAt >= at) return;
  await commit(
    kv.atomic().check(entry).set(
      k.session(tokenHash),
      { ...value, lastSeenAt: at },
      ttl(value.expiresAt, at),
    ),
  );
}

/** The session records of an account, each with its token hash. */
async function sessionsOf(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
): Promise<Array<Deno.KvEntry<SessionValue>>> {
  const keys: Deno.KvKey[] = [];
  for await (
    const entry of kv.list<number>({ prefix: k.sessionsOfUser(userId) })
  ) {
    keys.push(k.session(entry.key[entry.key.length - 1] as string));
  }
  const found: Array<Deno.KvEntry<SessionValue>> = [];
  for (let i = 0; i < keys.length; i += READ_BATCH) {
    for (
      const entry of await kv.getMany<SessionValue[]>(
        keys.slice(i, i + READ_BATCH),
      )
    ) {
      if (entry.value !== null) found.push(entry as Deno.KvEntry<SessionValue>);
    }
  }
  return found;
}

const hashOf = (entry: Deno.KvEntry<SessionValue>) =>
  entry.key[entry.key.length - 1] as string;

/** The account's live sessions, newest first. */
export async function listSessions(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  now: number,
): Promise<SessionRecord[]> {
  const [user, sessions] = await Promise.all([
    kv.get<UserValue>(k.user(userId)),
    sessionsOf(kv, k, userId),
  ]);
  const account = user.value;
  if (account === null || account.disabled) return [];
  return sessions.map((entry) => entry.value)
    .filter((s) => s.expiresAt > now && s.generation === account.generation)
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
    .map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      expiresAt: s.expiresAt,
      lastSeenAt: s.lastSeenAt,
      authenticatedAt: s.authenticatedAt,
      ip: s.ip,
      userAgent: s.userAgent,
    }));
}

// Adds the deletion of a session's three records to `op`.
function dropSession(
  op: Deno.AtomicOperation,
  k: KvKeys,
  hash: string,
  value: { userId: string; expiresAt: number },
): Deno.AtomicOperation {
  return op.delete(k.session(hash))
    .delete(k.sessionUser(value.userId, hash))
    .delete(k.sessionExpiry(value.expiresAt, hash));
}

/** Deletes one session (and writes its events); whether one was deleted. */
export function deleteSession(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  options: WithEvents = {},
): Promise<boolean> {
  return retry(async () => {
    const entry = await kv.get<SessionValue>(k.session(tokenHash));
    if (entry.value === null) return { op: null, result: false };
    const op = dropSession(kv.atomic().check(entry), k, tokenHash, entry.value);
    return { op: addEvents(op, k, options.events), result: true };
  });
}

/** Deletes the session `sessionId` of `userId`; whether one was deleted. */
export function deleteSessionById(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  sessionId: string,
  options: WithEvents = {},
): Promise<boolean> {
  return retry(async () => {
    const entry = (await sessionsOf(kv, k, userId)).find((s) =>
      s.value.id === sessionId
    );
    if (entry === undefined) return { op: null, result: false };
    const op = dropSession(
      kv.atomic().check(entry),
      k,
      hashOf(entry),
      entry.value,
    );
    return { op: addEvents(op, k, options.events), result: true };
  });
}

/**
 * Deletes every session of `userId` but `keepTokenHash`, with the events in
 * the first commit (none when there is nothing to delete). The account's sessions fit one commit under the cap;
 * more (from before the cap) take a commit per batch.
 */
export async function deleteOtherSessions(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  keepTokenHash: string,
  options: WithEvents = {},
): Promise<number> {
  const others = (await sessionsOf(kv, k, userId)).filter((s) =>
    hashOf(s) !== keepTokenHash
  );
  // Nothing to delete, nothing written: the events record a change.
  let events = options.events;
  for (let i = 0; i < others.length; i += SESSION_BATCH) {
    const op = addEvents(kv.atomic(), k, events);
    for (const entry of others.slice(i, i + SESSION_BATCH)) {
      dropSession(op, k, hashOf(entry), entry.value);
    }
    await commit(op);
    events = undefined;
  }
  return others.length;
}

/**
 * Sets the session's `authenticatedAt` if it is live; the commit checks the
 * session and its account, so a revocation in flight wins.
 */
export function renewAuthentication(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  now: number,
  options: WithEvents = {},
): Promise<boolean> {
  return retry(async () => {
    const entry = await kv.get<SessionValue>(k.session(tokenHash));
    const value = entry.value;
    if (value === null || value.expiresAt <= now) {
      return { op: null, result: false };
    }
    const user = await kv.get<UserValue>(k.user(value.userId));
    const account = user.value;
    if (
      account === null || account.disabled ||
      account.generation !== value.generation
    ) {
      return { op: null, result: false };
    }
    const op = kv.atomic().check(entry, user).set(
      k.session(tokenHash),
      {
        ...value,
        authenticatedAt: now,
        lastSeenAt: Math.max(value.lastSeenAt, now),
      },
      ttl(value.expiresAt, now),
    );
    return { op: addEvents(op, k, options.events), result: true };
  });
}

/** Deletes up to `limit` sessions expired by `now`. */
export async function deleteExpiredSessions(
  kv: Deno.Kv,
  k: KvKeys,
  now: number,
  limit: number,
): Promise<number> {
  const expired: Array<{ at: number; hash: string; userId: string }> = [];
  const selector = {
    prefix: k.sessionExpiries(),
    end: [...k.sessionExpiries(), now + 1],
  };
  for await (const entry of kv.list<string>(selector, { limit })) {
    const [at, hash] = entry.key.slice(-2) as [number, string];
    expired.push({ at, hash, userId: entry.value });
  }
  for (let i = 0; i < expired.length; i += SESSION_BATCH) {
    const op = kv.atomic();
    for (const { at, hash, userId } of expired.slice(i, i + SESSION_BATCH)) {
      op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
        .delete(k.sessionExpiry(at, hash));
    }
    await commit(op);
  }
  return expired.length;
}

/**
 * Deletes every session record of an account. Revocation already happened
 * atomically (the generation moved); this removes the dead records so they
 * do not wait for the reaper.
 */
export async function deleteSessionsOf(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  keepTokenHash?: string,
): Promise<void> {
  let batch: Array<[string, number]> = [];
  const flush = async () => {
    const op = kv.atomic();
    for (const [hash, at] of batch) {
      op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
        .delete(k.sessionExpiry(at, hash));
    }
    await commit(op);
    batch = [];
  };
  for await (
    const entry of kv.list<number>({ prefix: k.sessionsOfUser(userId) })
  ) {
    const hash = entry.key[entry.key.length - 1] as string;
    if (hash === keepTokenHash) continue;
    batch.push([hash, entry.value]);
    if (batch.length === SESSION_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
}
