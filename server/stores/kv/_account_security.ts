// The account-wide session changes of KvStore: ending every session of an
// account in one step (its generation moves), and a password change that
// replaces the hash, moves the generation and records the fresh session in
// one commit. The dead session records are removed afterwards; they were
// dead from the commit on.

import { AuthError } from "../../http/errors.ts";
import type {
  PasswordChange,
  SessionsRevocation,
  UserRecord,
} from "../../core/store.ts";
import { toRecord } from "./_accounts.ts";
import { retry } from "./_atomic.ts";
import { addEvents } from "./_audit.ts";
import {
  type KvKeys,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_keys.ts";
import { deleteSessionsOf } from "./_sessions.ts";

/** Moves the account's generation: every session (and reset link) dies. */
export async function revokeUserSessions(
  kv: Deno.Kv,
  k: KvKeys,
  userId: string,
  revocation: SessionsRevocation,
): Promise<UserRecord> {
  const user = await retry(async () => {
    const entry = await kv.get<UserValue>(k.user(userId));
    const account = entry.value;
    if (account === null) throw new AuthError("user_not_found");
    const reach = revocation.reachableRoles;
    if (
      reach !== undefined && account.role !== "" &&
      !reach.includes(account.role)
    ) {
      throw new AuthError("role_beyond_reach", {
        message:
          `You may not act on an account with the role "${account.role}"`,
      });
    }
    const next = { ...account, generation: account.generation + 1 };
    const op = kv.atomic().check(entry).set(k.user(userId), next);
    return { op: addEvents(op, k, revocation.events), result: toRecord(next) };
  });
  await deleteSessionsOf(kv, k, userId);
  return user;
}

/**
 * Replaces the password and records the fresh session in one commit, if
 * the account is enabled and still at the expected generation. The commit
 * checks `session_seq` too, like every new session (the cap's order).
 */
export async function changePassword(
  kv: Deno.Kv,
  k: KvKeys,
  change: PasswordChange,
): Promise<boolean> {
  const { userId, session } = change;
  const changed = await retry(async () => {
    const [entry, seq] = await kv.getMany<[UserValue, number]>([
      k.user(userId),
      k.sessionSeq(userId),
    ]);
    const account = entry.value;
    if (
      account === null || account.disabled ||
      account.generation !== change.expectedGeneration
    ) {
      return { op: null, result: false };
    }
    const generation = account.generation + 1;
    const value: SessionValue = {
      id: session.id,
      userId,
      generation,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      lastSeenAt: session.createdAt,
      authenticatedAt: session.createdAt,
      ip: session.ip,
      userAgent: session.userAgent,
    };
    const life = ttl(session.expiresAt, session.createdAt);
    const op = kv.atomic().check(entry, seq)
      .set(k.user(userId), {
        ...account,
        passwordHash: change.passwordHash,
        generation,
      })
      .set(k.sessionSeq(userId), (seq.value ?? 0) + 1)
      .set(k.session(session.tokenHash), value, life)
      .set(k.sessionUser(userId, session.tokenHash), session.expiresAt, life)
      .set(k.sessionExpiry(session.expiresAt, session.tokenHash), userId);
    return { op: addEvents(op, k, change.events), result: true };
  });
  if (changed) await deleteSessionsOf(kv, k, userId, session.tokenHash);
  return changed;
}
