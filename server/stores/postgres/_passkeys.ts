// Passkeys in PostgresStore: registration within the cap and the
// administrator's removal of every factor are functions of the schema
// (_migrations.ts) that lock the account's row first; the rest are single
// statements.

import { isUuid } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  NewPasskey,
  PasskeyRecord,
  PasskeyUse,
  SecondFactorRemoval,
} from "../../core/store_factors.ts";
import { type FactorTables, toPasskey } from "./_factor_tables.ts";
import type { WithEvents } from "../../core/store.ts";
import { eventsIfChanged, eventsJson } from "./_audit.ts";
import { codeOf } from "./_tables.ts";
import { reach as reachRule, userUpdateDecision } from "../_user_rules.ts";

/** Registers a passkey within the cap; null at the cap. */
export async function addPasskey(
  t: FactorTables,
  p: NewPasskey,
  maxPasskeys: number,
  options: WithEvents = {},
): Promise<PasskeyRecord | null> {
  if (!isUuid(p.userId)) throw new AuthError("user_not_found");
  let row;
  try {
    // The events are written by the same statement, once the function
    // said the passkey was added.
    [row] = await t.sql`
      WITH added AS (
        SELECT ${t.addPasskey}(${p.id}, ${p.userId}, ${p.credentialId},
          ${p.publicKey}, ${p.counter}, ${p.transports}::text[], ${p.name},
          ${p.createdAt}, ${maxPasskeys}) AS outcome)
      SELECT outcome, CASE WHEN outcome = 'added' THEN ${t.insertEvents}(
        ${eventsJson(options.events)}::text::jsonb) END
      FROM added`;
  } catch (err) {
    if (codeOf(err) === "23505") throw new AuthError("passkey_invalid");
    throw err;
  }
  if (row?.outcome === "no_user") throw new AuthError("user_not_found");
  return row?.outcome === "added" ? { ...p, lastUsedAt: null } : null;
}

/** The account's passkeys, oldest first. */
export async function listPasskeys(
  t: FactorTables,
  userId: string,
): Promise<PasskeyRecord[]> {
  if (!isUuid(userId)) return [];
  const rows = await t.sql`
    SELECT * FROM ${t.passkeys} WHERE user_id = ${userId}
    ORDER BY created_at, id`;
  return rows.map(toPasskey);
}

/** The passkey of a credential id, or null. */
export async function passkeyByCredentialId(
  t: FactorTables,
  credentialId: string,
): Promise<PasskeyRecord | null> {
  const [row] = await t.sql`
    SELECT * FROM ${t.passkeys} WHERE credential_id = ${credentialId}`;
  return row === undefined ? null : toPasskey(row);
}

/** Renames the account's passkey; null when it has no such passkey. */
export async function renamePasskey(
  t: FactorTables,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyRecord | null> {
  if (!isUuid(userId) || !isUuid(id)) return null;
  const [row] = await t.sql`
    UPDATE ${t.passkeys} SET name = ${name}
    WHERE id = ${id} AND user_id = ${userId} RETURNING *`;
  return row === undefined ? null : toPasskey(row);
}

/** Removes the account's passkey and moves its factor version. */
export async function removePasskey(
  t: FactorTables,
  userId: string,
  id: string,
  options: WithEvents = {},
): Promise<boolean> {
  if (!isUuid(userId) || !isUuid(id)) return false;
  // The account's row first, then the passkey: the lock order of every
  // factor change (a trigger of _migrations.ts updates the row).
  const [row] = await t.sql`
    WITH locked AS (
      SELECT id FROM ${t.users} WHERE id = ${userId} FOR NO KEY UPDATE),
    removed AS (
      DELETE FROM ${t.passkeys}
      WHERE id = ${id} AND user_id IN (SELECT id FROM locked)
      RETURNING user_id),
    moved AS (
      UPDATE ${t.users} SET factor_version = factor_version + 1
      WHERE id IN (SELECT user_id FROM removed) RETURNING 1)
    SELECT count(*) AS n, ${eventsIfChanged(t, options.events)}
    FROM moved`;
  return Number(row?.n) === 1;
}

/** Records a sign-in with a passkey if its counter grew (or both are 0). */
export async function usePasskey(
  t: FactorTables,
  id: string,
  use: PasskeyUse,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await t.sql`
    UPDATE ${t.passkeys} SET counter = ${use.counter},
      last_used_at = ${use.now}
    WHERE id = ${id}
      AND (${use.counter} > counter OR (counter = 0 AND ${use.counter} = 0))`;
  return result.count === 1;
}

/** Removes every second factor of an account under the reach rule. */
export async function removeUserSecondFactor(
  t: FactorTables,
  userId: string,
  removal: SecondFactorRemoval,
): Promise<void> {
  if (!isUuid(userId)) throw new AuthError("user_not_found");
  const reach = removal.reachableRoles === undefined
    ? null
    : [...removal.reachableRoles];
  // The events are written by the same statement, when the function
  // removed (the account exists and is within reach).
  const [row] = await t.sql`
    WITH removed AS (
      SELECT ${t.removeSecondFactors}(${userId}, ${reach}::text[]) AS role)
    SELECT role, CASE WHEN role IS NOT NULL AND (${reach}::text[] IS NULL
        OR role = '' OR role = ANY(${reach}::text[]))
      THEN ${t.insertEvents}(${eventsJson(removal.events)}::text::jsonb) END
    FROM removed`;
  const role = row?.role;
  if (typeof role !== "string") throw new AuthError("user_not_found");
  // The function removed nothing beyond reach; this says why.
  userUpdateDecision(
    { role, disabled: false, generation: 0 },
    reachRule(removal),
    () => 0,
  );
}
