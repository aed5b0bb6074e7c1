// Short-lived second-factor records in PostgresStore: pending sign-ins
// (bound to the account's generation and factor version, with a failure
// counter) and WebAuthn challenges (bound to a use), each spent or counted
// by one statement that re-checks it against the row lock it takes.

import type {
  ChallengeRecord,
  ChallengeUse,
  NewPendingSignIn,
  PendingFailure,
  PendingSignIn,
} from "../../core/store_factors.ts";
import {
  type FactorTables,
  toChallenge,
  toPendingSignIn,
} from "./_factor_tables.ts";

/** Records a pending sign-in. */
export async function createPendingSignIn(
  t: FactorTables,
  p: NewPendingSignIn,
): Promise<void> {
  await t.sql`
    INSERT INTO ${t.pendingSignIns} (token_hash, user_id, generation,
      factor_version, created_at, expires_at)
    VALUES (${p.tokenHash}, ${p.userId}, ${p.generation}, ${p.factorVersion},
      ${p.createdAt}, ${p.expiresAt})`;
}

/** The live pending sign-in, or null. */
export async function findPendingSignIn(
  t: FactorTables,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  const [row] = await t.sql`
    SELECT p.* FROM ${t.pendingSignIns} p JOIN ${t.users} u ON u.id = p.user_id
    WHERE p.token_hash = ${tokenHash} AND p.expires_at > ${now}
      AND NOT u.disabled AND u.generation = p.generation
      AND u.factor_version = p.factor_version`;
  return row === undefined ? null : toPendingSignIn(row);
}

/**
 * Counts a wrong code. The one that reaches `maxFailures` ends the pending
 * sign-in by setting its expiry to 0 in the same UPDATE (every read checks
 * expiry; the sweep removes it), so counting and ending are one statement.
 */
export async function failPendingSignIn(
  t: FactorTables,
  tokenHash: string,
  now: number,
  maxFailures: number,
): Promise<PendingFailure | null> {
  const [row] = await t.sql`
    UPDATE ${t.pendingSignIns} p SET failures = p.failures + 1,
      expires_at = CASE WHEN p.failures + 1 >= ${maxFailures} THEN 0
        ELSE p.expires_at END
    FROM ${t.users} u
    WHERE p.token_hash = ${tokenHash} AND p.expires_at > ${now}
      AND u.id = p.user_id AND NOT u.disabled
      AND u.generation = p.generation AND u.factor_version = p.factor_version
    RETURNING p.failures`;
  if (row === undefined) return null;
  const failures = Number(row.failures);
  return { failures, ended: failures >= maxFailures };
}

/** Ends a live pending sign-in and returns it; one of concurrent calls wins. */
export async function spendPendingSignIn(
  t: FactorTables,
  tokenHash: string,
  now: number,
): Promise<PendingSignIn | null> {
  const [row] = await t.sql`
    DELETE FROM ${t.pendingSignIns} p USING ${t.users} u
    WHERE p.token_hash = ${tokenHash} AND p.expires_at > ${now}
      AND u.id = p.user_id AND NOT u.disabled
      AND u.generation = p.generation AND u.factor_version = p.factor_version
    RETURNING p.*`;
  return row === undefined ? null : toPendingSignIn(row);
}

/** Keeps a WebAuthn challenge. */
export async function createChallenge(
  t: FactorTables,
  c: ChallengeRecord,
): Promise<void> {
  await t.sql`
    INSERT INTO ${t.challenges} (token_hash, challenge, use, user_id,
      created_at, expires_at)
    VALUES (${c.tokenHash}, ${c.challenge}, ${c.use}, ${c.userId || null},
      ${c.createdAt}, ${c.expiresAt})`;
}

/** Spends the live challenge of `use`; one of concurrent calls wins. */
export async function spendChallenge(
  t: FactorTables,
  tokenHash: string,
  use: ChallengeUse,
  now: number,
): Promise<ChallengeRecord | null> {
  const [row] = await t.sql`
    DELETE FROM ${t.challenges}
    WHERE token_hash = ${tokenHash} AND use = ${use} AND expires_at > ${now}
    RETURNING *`;
  return row === undefined ? null : toChallenge(row);
}

/** Deletes up to `limit` expired pending sign-ins, challenges, enrolments. */
export async function deleteExpiredFactorRecords(
  t: FactorTables,
  now: number,
  limit: number,
): Promise<number> {
  let deleted = 0;
  for (
    const [table, key] of [
      [t.pendingSignIns, "token_hash"],
      [t.challenges, "token_hash"],
      [t.totpEnrolments, "user_id"],
    ] as const
  ) {
    if (deleted >= limit) break;
    const column = t.sql(key);
    const result = await t.sql`
      DELETE FROM ${table} WHERE ${column} = ANY(ARRAY(
        SELECT ${column} FROM ${table} WHERE expires_at <= ${now}
        LIMIT ${limit - deleted} FOR UPDATE SKIP LOCKED))`;
    deleted += result.count;
  }
  return deleted;
}
