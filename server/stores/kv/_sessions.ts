// Sessions in KvStore: each is three records (the session, its entry under
// its account for revocation, its entry in the expiry index for the reaper),
// written and deleted together.

import type { NewSession, SessionLookup } from "../../store.ts";
import { toRecord } from "./_accounts.ts";
import { commit, retry } from "./_atomic.ts";
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

// Sessions a commit may end to make room: three mutations each, within
// KV's 1000. An account over its cap by more (sessions from before the cap
// existed) is trimmed by this many at each sign-in.
const MAX_ENDED = 200;

/**
 * Records a session if the account exists, is enabled and its generation is
 * the expected one, and ends the sessions that would end first beyond
 * `maxSessions`. The commit checks the account and `session_seq`, which
 * every new session of the account bumps: sign-ins of one account commit
 * one after another, each having seen the sessions of the ones before.
 */
export function createSession(
  kv: Deno.Kv,
  k: KvKeys,
  session: NewSession,
): Promise<boolean> {
  const { tokenHash, userId, createdAt, expiresAt } = session;
  return retry(async () => {
    const [entry, seq] = await kv.getMany<[UserValue, number]>([
      k.user(userId),
      k.sessionSeq(userId),
    ]);
    const account = entry.value;
    if (
      account === null || account.disabled ||
      (session.expectedGeneration !== undefined &&
        account.generation !== session.expectedGeneration)
    ) {
      return { op: null, result: false };
    }
    const value: SessionValue = {
      userId,
      generation: account.generation,
      createdAt,
      expiresAt,
    };
    const life = ttl(expiresAt, createdAt);
    const op = kv.atomic().check(entry, seq)
      .set(k.sessionSeq(userId), (seq.value ?? 0) + 1)
      .set(k.session(tokenHash), value, life)
      .set(k.sessionUser(userId, tokenHash), expiresAt, life)
      .set(k.sessionExpiry(expiresAt, tokenHash), userId);
    if (session.maxSessions !== undefined) {
      for (const [hash, at] of await surplus(kv, k, session)) {
        op.delete(k.session(hash)).delete(k.sessionUser(userId, hash))
          .delete(k.sessionExpiry(at, hash));
      }
    }
    return { op, result: true };
  });
}

// The sessions of the account to end so that, with the new one, at most
// `maxSessions` are live (the live ones that end first), and the expired
// ones while there is room in the commit.
async function surplus(
  kv: Deno.Kv,
  k: KvKeys,
  session: NewSession,
): Promise<Array<[string, number]>> {
  const live: Array<[string, number]> = [];
  const ended: Array<[string, number]> = [];
  for await (
    const entry of kv.list<number>({ prefix: k.sessionsOfUser(session.userId) })
  ) {
    const hash = entry.key[entry.key.length - 1] as string;
    (entry.value > session.createdAt ? live : ended).push([hash, entry.value]);
  }
  live.sort(([a, x], [b, y]) => x - y || (a < b ? -1 : 1));
  const over = Math.max(0, live.length - (session.maxSessions! - 1));
  return [...live.slice(0, over), ...ended].slice(0, MAX_ENDED);
}

/** The live session behind `tokenHash` and its enabled account, or null. */
export async function findSession(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  now: number,
): Promise<SessionLookup | null> {
  const session = await kv.get<SessionValue>(k.session(tokenHash));
  const value = session.value;
  if (value === null || value.expiresAt <= now) return null;
  const user = await kv.get<UserValue>(k.user(value.userId));
  const account = user.value;
  if (
    account === null || account.disabled ||
    account.generation !== value.generation
  ) {
    return null;
  }
  return { user: toRecord(account), expiresAt: value.expiresAt };
}

/** Deletes one session. */
export async function deleteSession(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
): Promise<void> {
  const entry = await kv.get<SessionValue>(k.session(tokenHash));
  if (entry.value === null) return;
  await commit(
    kv.atomic()
      .delete(k.session(tokenHash))
      .delete(k.sessionUser(entry.value.userId, tokenHash))
      .delete(k.sessionExpiry(entry.value.expiresAt, tokenHash)),
  );
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
    batch.push([entry.key[entry.key.length - 1] as string, entry.value]);
    if (batch.length === SESSION_BATCH) await flush();
  }
  if (batch.length > 0) await flush();
}
