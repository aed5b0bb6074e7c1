// TOTP and recovery codes in PostgresStore: each decision is one statement.
// A row of `totp` exists while TOTP is enabled; the single-use spends are
// conditional UPDATEs, so concurrent ones queue on the row lock and each
// re-checks its condition against the row the one before left.

import { isUuid } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  AccountFactors,
  TotpConfirmation,
  TotpEnrolment,
  TotpRecord,
} from "../../core/store_factors.ts";
import {
  factorColumns,
  type FactorTables,
  toFactors,
} from "./_factor_tables.ts";
import type { WithEvents } from "../../core/store.ts";
import { eventsIfChanged, eventsJson } from "./_audit.ts";
import { codeOf } from "./_tables.ts";

/** The account's second factors, or null. */
export async function accountFactors(
  t: FactorTables,
  userId: string,
): Promise<AccountFactors | null> {
  if (!isUuid(userId)) return null;
  const [row] = await t.sql`
    SELECT ${factorColumns(t)} FROM ${t.users} u WHERE u.id = ${userId}`;
  return row === undefined ? null : toFactors(row);
}

/** Keeps an enrolment, replacing any earlier one, while TOTP is off. */
export async function startTotpEnrolment(
  t: FactorTables,
  enrolment: TotpEnrolment,
): Promise<void> {
  const { userId, secret, createdAt, expiresAt } = enrolment;
  if (!isUuid(userId)) throw new AuthError("user_not_found");
  let written;
  try {
    written = await t.sql`
      INSERT INTO ${t.totpEnrolments} (user_id, secret, created_at, expires_at)
      SELECT ${userId}, ${secret}, ${createdAt}, ${expiresAt}
      WHERE NOT EXISTS (SELECT 1 FROM ${t.totp} WHERE user_id = ${userId})
      ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret,
        created_at = excluded.created_at, expires_at = excluded.expires_at`;
  } catch (err) {
    // The account is gone: the foreign key refuses the row.
    if (codeOf(err) === "23503") throw new AuthError("user_not_found");
    throw err;
  }
  if (written.count === 0) throw new AuthError("second_factor_enabled");
}

/** The live enrolment, or null. */
export async function totpEnrolment(
  t: FactorTables,
  userId: string,
  now: number,
): Promise<TotpEnrolment | null> {
  if (!isUuid(userId)) return null;
  const [row] = await t.sql`
    SELECT user_id, secret, created_at, expires_at FROM ${t.totpEnrolments}
    WHERE user_id = ${userId} AND expires_at > ${now}`;
  return row === undefined ? null : {
    userId: row.user_id,
    secret: row.secret,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * Enables TOTP from the live enrolment with this secret: the enrolment is
 * spent and the TOTP row inserted in one statement (the primary key makes
 * a second enabling a no-op, answered `second_factor_enabled`).
 */
export async function confirmTotp(
  t: FactorTables,
  userId: string,
  confirmation: TotpConfirmation,
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const { secret, step, recoveryCodeHashes, now } = confirmation;
  // The account's row is locked first, like every factor change (the
  // trigger on `totp` updates it; one lock order, no deadlock).
  const [row] = await t.sql`
    WITH locked AS (
      SELECT id FROM ${t.users} WHERE id = ${userId} FOR NO KEY UPDATE),
    spent AS (
      DELETE FROM ${t.totpEnrolments}
      WHERE user_id IN (SELECT id FROM locked) AND secret = ${secret}
        AND expires_at > ${now}
      RETURNING user_id, secret),
    enabled AS (
      INSERT INTO ${t.totp} (user_id, secret, last_step, recovery_codes)
      SELECT user_id, secret, ${step}, ${[...recoveryCodeHashes]}::text[]
      FROM spent
      ON CONFLICT (user_id) DO NOTHING
      RETURNING user_id)
    SELECT EXISTS (SELECT 1 FROM enabled) AS enabled,
      EXISTS (SELECT 1 FROM ${t.totp} WHERE user_id = ${userId}) AS already,
      CASE WHEN EXISTS (SELECT 1 FROM enabled) THEN ${t.insertEvents}(
        ${eventsJson(confirmation.events)}::text::jsonb) END`;
  if (row?.enabled === true) return true;
  if (row?.already === true) throw new AuthError("second_factor_enabled");
  return false;
}

/** The enabled TOTP, or null. */
export async function totp(
  t: FactorTables,
  userId: string,
): Promise<TotpRecord | null> {
  if (!isUuid(userId)) return null;
  const [row] = await t.sql`
    SELECT secret, last_step, cardinality(recovery_codes) AS left
    FROM ${t.totp} WHERE user_id = ${userId}`;
  return row === undefined ? null : {
    secret: row.secret,
    lastStep: Number(row.last_step),
    recoveryCodesLeft: Number(row.left),
  };
}

/** Removes TOTP and its codes, moving the factor version. */
export async function disableTotp(
  t: FactorTables,
  userId: string,
  options: WithEvents = {},
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  // The account's row first, then the factor: the lock order of every
  // factor change.
  const [row] = await t.sql`
    WITH locked AS (
      SELECT id FROM ${t.users} WHERE id = ${userId} FOR NO KEY UPDATE),
    removed AS (
      DELETE FROM ${t.totp} WHERE user_id IN (SELECT id FROM locked)
      RETURNING user_id),
    moved AS (
      UPDATE ${t.users} SET factor_version = factor_version + 1
      WHERE id IN (SELECT user_id FROM removed) RETURNING 1)
    SELECT count(*) AS n, ${eventsIfChanged(t, options.events)}
    FROM moved`;
  return Number(row?.n) === 1;
}

/** Replaces every recovery code. */
export async function replaceRecoveryCodes(
  t: FactorTables,
  userId: string,
  hashes: readonly string[],
  options: WithEvents = {},
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [row] = await t.sql`
    WITH replaced AS (
      UPDATE ${t.totp} SET recovery_codes = ${[...hashes]}::text[]
      WHERE user_id = ${userId} RETURNING 1)
    SELECT count(*) AS n, ${eventsIfChanged(t, options.events)}
    FROM replaced`;
  return Number(row?.n) === 1;
}

/** Accepts `step` once, if later than the last accepted one. */
export async function useTotpStep(
  t: FactorTables,
  userId: string,
  step: number,
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const result = await t.sql`
    UPDATE ${t.totp} SET last_step = ${step}
    WHERE user_id = ${userId} AND last_step < ${step}`;
  return result.count === 1;
}

/** Replaces the stored secret if it is still `previous`. */
export async function replaceTotpSecret(
  t: FactorTables,
  userId: string,
  previous: string,
  next: string,
): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const result = await t.sql`
    UPDATE ${t.totp} SET secret = ${next}
    WHERE user_id = ${userId} AND secret = ${previous}`;
  return result.count === 1;
}

/** Spends one recovery code; the codes left, or null. */
export async function useRecoveryCode(
  t: FactorTables,
  userId: string,
  codeHash: string,
  options: WithEvents = {},
): Promise<number | null> {
  if (!isUuid(userId)) return null;
  const [row] = await t.sql`
    WITH spent AS (
      UPDATE ${t.totp}
      SET recovery_codes = array_remove(recovery_codes, ${codeHash})
      WHERE user_id = ${userId} AND ${codeHash} = ANY(recovery_codes)
      RETURNING cardinality(recovery_codes) AS codes_left)
    SELECT codes_left,
      ${t.insertEvents}(${eventsJson(options.events)}::text::jsonb)
    FROM spent`;
  return row === undefined ? null : Number(row.codes_left);
}
