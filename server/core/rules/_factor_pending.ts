// The short-lived records of a second-factor sign-in over the narrow store:
// pending sign-ins (bound to the account's generation and factor version,
// counting wrong codes exactly) and WebAuthn challenges (single use, bound
// to a use). Both are spent with a checked delete; a passkey's second step
// spends both with the passkey's use (passkeys.ts).

import type {
  AccountRecord,
  Check,
  RecordStore,
  StoredChallenge,
  StoredPendingSignIn,
  Versioned,
} from "../records.ts";
import type {
  ChallengeRecord,
  ChallengeUse,
  NewPendingSignIn,
  PendingFailure,
  PendingSignIn,
} from "../store.ts";
import { committing, readRecord, unchanged } from "./_commit.ts";
import type { ByActor } from "../actor.ts";
import { readAsActor } from "./_actor.ts";

/** Records a pending sign-in with no failures yet. */
export async function createPendingSignIn(
  records: RecordStore,
  pending: NewPendingSignIn,
): Promise<void> {
  const value: StoredPendingSignIn = {
    tokenHash: pending.tokenHash,
    userId: pending.userId,
    generation: pending.generation,
    factorVersion: pending.factorVersion,
    failures: 0,
    createdAt: pending.createdAt,
    expiresAt: pending.expiresAt,
  };
  if (!await records.commit({ puts: [{ kind: "pending", value }] })) {
    throw new Error("Cannot store the pending sign-in");
  }
}

// The pending sign-in and its account as read; `live` is the pending
// sign-in when it may still finish: unexpired, its account enabled and
// still at the generation and factor version it was bound to.
export interface PendingRead {
  pending: Versioned<StoredPendingSignIn> | null;
  account: Versioned<AccountRecord> | null;
  live: PendingSignIn | null;
}

/** The pending sign-in behind `tokenHash` and its account, as read. */
export async function readPending(
  records: RecordStore,
  tokenHash: string,
  now: number,
): Promise<PendingRead> {
  const pending = await readRecord(records, "pending", tokenHash);
  const value = pending?.value ?? null;
  if (value === null || value.expiresAt <= now) {
    return { pending, account: null, live: null };
  }
  const account = await readRecord(records, "account", value.userId);
  const holder = account?.value ?? null;
  const live = holder !== null && !holder.disabled &&
      holder.generation === value.generation &&
      holder.factorVersion === value.factorVersion
    ? value
    : null;
  return { pending, account, live };
}

/**
 * The checks of a commit that acts on the live pending sign-in `live` of
 * `read`: the pending sign-in and its account unchanged since they were
 * read, so that a sign-in counted, ended or spent meanwhile, or an account
 * disabled, signed out everywhere or given other factors meanwhile, fails
 * the commit instead of going through.
 */
export function pendingUnchanged(
  read: PendingRead,
  live: PendingSignIn,
): Check[] {
  return [
    unchanged("pending", live.tokenHash, read.pending),
    unchanged("account", live.userId, read.account),
  ];
}

/** The live pending sign-in, or null. */
export async function findPendingSignIn(
  records: RecordStore,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  return (await readPending(records, tokenHash, now)).live;
}

/**
 * Counts a wrong code; the `maxFailures`-th ends the pending sign-in. The
 * commit checks the record's version, so no count is lost and none counts
 * past the end.
 */
export function failPendingSignIn(
  records: RecordStore,
  tokenHash: string,
  now: number,
  maxFailures: number,
): Promise<PendingFailure | null> {
  return committing<PendingFailure | null>(records, async () => {
    const read = await readPending(records, tokenHash, now);
    const { live } = read;
    if (live === null) return { commit: null, result: null };
    const failures = live.failures + 1;
    const ended = failures >= maxFailures;
    const checks = pendingUnchanged(read, live);
    return {
      commit: ended
        ? { checks, deletes: [{ kind: "pending", value: live }] }
        : {
          checks,
          puts: [{
            kind: "pending",
            value: { ...live, failures },
            before: live,
          }],
        },
      result: { failures, ended },
    };
  });
}

/** Ends a live pending sign-in and returns it: one of concurrent calls wins. */
export function spendPendingSignIn(
  records: RecordStore,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  return committing(records, async () => {
    const read = await readPending(records, tokenHash, now);
    const { live } = read;
    if (live === null) return { commit: null, result: null };
    return {
      commit: {
        checks: pendingUnchanged(read, live),
        deletes: [{ kind: "pending", value: live }],
      },
      result: live,
    };
  });
}

/**
 * Keeps a WebAuthn challenge until it is spent or expires. With `actor`,
 * only while that account still stands (`readAsActor`, checked by the
 * same commit); without, one put and no read.
 */
export async function createChallenge(
  records: RecordStore,
  challenge: ChallengeRecord,
  { actor }: ByActor = {},
): Promise<void> {
  const value: StoredChallenge = {
    tokenHash: challenge.tokenHash,
    challenge: challenge.challenge,
    use: challenge.use,
    userId: challenge.userId,
    createdAt: challenge.createdAt,
    expiresAt: challenge.expiresAt,
  };
  if (actor !== undefined) {
    return await committing(records, async () => {
      const { checks } = await readAsActor<[]>(records, [], actor);
      return {
        commit: { checks, puts: [{ kind: "challenge", value }] },
        result: undefined,
      };
    });
  }
  if (!await records.commit({ puts: [{ kind: "challenge", value }] })) {
    throw new Error("Cannot store the challenge");
  }
}

// The challenge behind `tokenHash` as read; `live` is it when it may still
// be spent: issued for `use`, unexpired at `now`.
export interface ChallengeRead {
  found: Versioned<StoredChallenge> | null;
  live: StoredChallenge | null;
}

/** The challenge behind `tokenHash`, as read, and whether it is live. */
export async function readChallenge(
  records: RecordStore,
  tokenHash: string,
  use: ChallengeUse,
  now: number,
): Promise<ChallengeRead> {
  const found = await readRecord(records, "challenge", tokenHash);
  const live = found?.value.use === use && found.value.expiresAt > now;
  return { found, live: live ? found.value : null };
}

/**
 * Spends the live challenge issued for `use`: one of concurrent calls gets
 * it. One issued for another use is left as it is.
 */
export function spendChallenge(
  records: RecordStore,
  tokenHash: string,
  use: ChallengeUse,
  now: number,
): Promise<ChallengeRecord | null> {
  return committing(records, async () => {
    const { found, live } = await readChallenge(records, tokenHash, use, now);
    if (live === null) return { commit: null, result: null };
    return {
      commit: {
        checks: [unchanged("challenge", tokenHash, found)],
        deletes: [{ kind: "challenge", value: live }],
      },
      result: live,
    };
  });
}
