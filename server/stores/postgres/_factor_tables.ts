// The second-factor tables and functions of PostgresStore's schema
// (_migrations.ts), bound to one client, and their row readers.

import type postgres from "postgres";
import type {
  AccountFactors,
  ChallengeRecord,
  PasskeyRecord,
  PendingSignIn,
} from "../../core/store_factors.ts";
import type { Sql, Table } from "./_tables.ts";

/** The second-factor tables of one schema. */
export interface FactorTables {
  sql: Sql;
  users: Table;
  totp: Table;
  totpEnrolments: Table;
  pendingSignIns: Table;
  challenges: Table;
  passkeys: Table;
  /** The `add_passkey` function. */
  addPasskey: Table;
  /** The `remove_second_factors` function. */
  removeSecondFactors: Table;
  /** The `insert_events` function. */
  insertEvents: Table;
}

/** The second-factor tables of `schema` (already validated) on `sql`. */
export function factorTables(sql: Sql, schema: string): FactorTables {
  return {
    sql,
    users: sql(`${schema}.users`),
    totp: sql(`${schema}.totp`),
    totpEnrolments: sql(`${schema}.totp_enrolments`),
    pendingSignIns: sql(`${schema}.pending_sign_ins`),
    challenges: sql(`${schema}.webauthn_challenges`),
    passkeys: sql(`${schema}.passkeys`),
    addPasskey: sql(`${schema}.add_passkey`),
    removeSecondFactors: sql(`${schema}.remove_second_factors`),
    insertEvents: sql(`${schema}.insert_events`),
  };
}

/**
 * The columns `totp_enabled`, `passkey_count` and `factor_version` of the
 * account aliased `u`, for a query that reads the account anyway: kept on
 * the account's row (by triggers), so no other table is read.
 */
export function factorColumns(
  t: Pick<FactorTables, "sql">,
): postgres.PendingQuery<postgres.Row[]> {
  return t.sql`u.totp_enabled, u.passkey_count, u.factor_version`;
}

/** The factors of a row read with {@linkcode factorColumns}. */
export function toFactors(row: postgres.Row): AccountFactors {
  return {
    totpEnabled: row.totp_enabled === true,
    passkeyCount: Number(row.passkey_count),
    factorVersion: Number(row.factor_version),
  };
}

/** A pending sign-in row. */
export function toPendingSignIn(row: postgres.Row): PendingSignIn {
  return {
    tokenHash: row.token_hash,
    userId: row.user_id,
    generation: Number(row.generation),
    factorVersion: Number(row.factor_version),
    failures: Number(row.failures),
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** A challenge row. */
export function toChallenge(row: postgres.Row): ChallengeRecord {
  return {
    tokenHash: row.token_hash,
    challenge: row.challenge,
    use: row.use,
    userId: row.user_id ?? "",
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}

/** A passkey row. */
export function toPasskey(row: postgres.Row): PasskeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    credentialId: row.credential_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}
