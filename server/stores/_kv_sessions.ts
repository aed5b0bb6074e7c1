// Sessions in KvStore: each is three records (the session, its entry under
// its account for revocation, its entry in the expiry index for the reaper),
// written and deleted together.

import type { NewSession, SessionLookup } from "../store.ts";
import { toRecord } from "./_kv_accounts.ts";
import { commit, retry } from "./_kv_atomic.ts";
import {
  type KvKeys,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_kv_keys.ts";

// Deno KV takes at most 1000 mutations per commit; a session costs three.
// Smaller commits hold KV's single writer for less time, so session reads
// queued behind a sweep or a mass revocation wait less.
const SESSION_BATCH = 100;

/** Records a session if the account exists and is enabled. */
export function createSession(
  kv: Deno.Kv,
  k: KvKeys,
  session: NewSession,
): Promise<boolean> {
  return retry(async () => {
    const entry = await kv.get<UserValue>(k.user(session.userId));
    if (entry.value === null || entry.value.disabled) {
      return { op: null, result: false };
    }
    const value: SessionValue = {
      userId: session.userId,
      generation: entry.value.generation,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
    };
    const life = ttl(session.expiresAt, session.createdAt);
    const op = kv.atomic().check(entry)
      .set(k.session(session.tokenHash), value, life)
      .set(
        k.sessionUser(session.userId, session.tokenHash),
        session.expiresAt,
        life,
      )
      .set(
        k.sessionExpiry(session.expiresAt, session.tokenHash),
        session.userId,
      );
    return { op, result: true };
  });
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
