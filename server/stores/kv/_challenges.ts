// Short-lived second-factor records in KvStore: pending sign-ins (bound to
// the account's generation and factor version, with a failure counter) and
// WebAuthn challenges (bound to a use). Both are spent with a checked
// delete, and swept by deleteExpiredFactorRecords.

import type {
  ChallengeRecord,
  ChallengeUse,
  NewPendingSignIn,
  PendingFailure,
  PendingSignIn,
} from "../../core/store_factors.ts";
import { commit, retry } from "./_atomic.ts";
import { type FactorKeys, factorsOf } from "./_factor_keys.ts";
import { ttl, type UserValue } from "./_keys.ts";

/** Records a pending sign-in. */
export async function createPendingSignIn(
  kv: Deno.Kv,
  k: FactorKeys,
  pending: NewPendingSignIn,
): Promise<void> {
  const value: PendingSignIn = { ...pending, failures: 0 };
  await commit(
    kv.atomic().set(
      k.pendingSignIn(pending.tokenHash),
      value,
      ttl(pending.expiresAt, pending.createdAt),
    ),
  );
}

// The pending sign-in and its account, read together; `live` says whether
// it may still finish.
async function readPending(
  kv: Deno.Kv,
  k: FactorKeys,
  tokenHash: string,
  now: number,
) {
  const pending = await kv.get<PendingSignIn>(k.pendingSignIn(tokenHash));
  const value = pending.value;
  if (value === null || value.expiresAt <= now) {
    return { pending, user: null, live: null };
  }
  const user = await kv.get<UserValue>(k.user(value.userId));
  const account = user.value;
  const live = account !== null && !account.disabled &&
      account.generation === value.generation &&
      factorsOf(account).factorVersion === value.factorVersion
    ? value
    : null;
  return { pending, user, live };
}

/** The live pending sign-in, or null. */
export async function findPendingSignIn(
  kv: Deno.Kv,
  k: FactorKeys,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  return (await readPending(kv, k, tokenHash, now)).live;
}

/** Counts a wrong code; the `maxFailures`-th ends the pending sign-in. */
export function failPendingSignIn(
  kv: Deno.Kv,
  k: FactorKeys,
  tokenHash: string,
  now: number,
  maxFailures: number,
): Promise<PendingFailure | null> {
  return retry<PendingFailure | null>(async () => {
    const { pending, live } = await readPending(kv, k, tokenHash, now);
    if (live === null) return { op: null, result: null };
    const failures = live.failures + 1;
    const ended = failures >= maxFailures;
    const key = k.pendingSignIn(tokenHash);
    const op = kv.atomic().check(pending);
    if (ended) op.delete(key);
    else op.set(key, { ...live, failures }, ttl(live.expiresAt, now));
    return { op, result: { failures, ended } };
  });
}

/** Ends a live pending sign-in and returns it; one of concurrent calls wins. */
export function spendPendingSignIn(
  kv: Deno.Kv,
  k: FactorKeys,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  return retry(async () => {
    const { pending, user, live } = await readPending(kv, k, tokenHash, now);
    if (live === null || user === null) return { op: null, result: null };
    const op = kv.atomic().check(pending, user)
      .delete(k.pendingSignIn(tokenHash));
    return { op, result: live };
  });
}

/** Keeps a WebAuthn challenge. */
export async function createChallenge(
  kv: Deno.Kv,
  k: FactorKeys,
  challenge: ChallengeRecord,
): Promise<void> {
  await commit(
    kv.atomic().set(
      k.challenge(challenge.tokenHash),
      challenge,
      ttl(challenge.expiresAt, challenge.createdAt),
    ),
  );
}

/** Spends the live challenge of `use`; one of concurrent calls wins. */
export function spendChallenge(
  kv: Deno.Kv,
  k: FactorKeys,
  tokenHash: string,
  use: ChallengeUse,
  now: number,
): Promise<ChallengeRecord | null> {
  return retry(async () => {
    const entry = await kv.get<ChallengeRecord>(k.challenge(tokenHash));
    const value = entry.value;
    if (value === null || value.use !== use || value.expiresAt <= now) {
      return { op: null, result: null };
    }
    const op = kv.atomic().check(entry).delete(k.challenge(tokenHash));
    return { op, result: value };
  });
}

/** Deletes up to `limit` expired pending sign-ins, challenges, enrolments. */
export async function deleteExpiredFactorRecords(
  kv: Deno.Kv,
  k: FactorKeys,
  now: number,
  limit: number,
): Promise<number> {
  // These records live minutes and KV's own expiry removes them too, so a
  // scan of the three prefixes stays short; no expiry index is needed.
  let deleted = 0;
  for (
    const prefix of [k.pendingSignIns(), k.challenges(), k.totpEnrolments()]
  ) {
    for await (
      const entry of kv.list<{ expiresAt: number }>({ prefix })
    ) {
      if (deleted >= limit) return deleted;
      if (entry.value.expiresAt > now) continue;
      if ((await commit(kv.atomic().check(entry).delete(entry.key))).ok) {
        deleted++;
      }
    }
  }
  return deleted;
}
