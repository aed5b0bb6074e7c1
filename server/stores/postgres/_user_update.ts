// Account changes (role, disabled) in PostgresStore under the rules of
// _user_rules.ts, without a client-side transaction (see _tables.ts): one
// statement reads the account and the count of privileged accounts, the
// rules decide on that read in JavaScript (they and the caller's events live
// there), and one call of the schema's `update_user` function
// applies the decision only if what it was made on still reads the same.
//
// When it does not, the read and the decision start again, like KvStore's
// commits: without a cap, since a lost race means another account change
// committed in between, so a crowd of changes drains.

import { isUuid } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import type { UserRecord, UserUpdate } from "../../core/store.ts";
import { userUpdateDecision } from "../_user_rules.ts";
import { eventsJson } from "./_audit.ts";
import { type PgTables, toUser } from "./_tables.ts";

/**
 * Applies `update` to the account `id` atomically under its rules; throws
 * their `AuthError`, or `user_not_found`.
 *
 * Race-freedom of the last-privileged rule: `update_user` takes a
 * transaction-level advisory lock of this schema, so account changes are
 * applied one after another, and each counts the privileged accounts after
 * the previous one committed and applies only if that count is still the
 * one its decision was made on. Locking the privileged rows `FOR UPDATE`
 * instead would also work, but two demotions would lock their own row and
 * then each other's and deadlock; account changes are rare admin actions,
 * so one queue costs nothing. The account's own row is locked `FOR UPDATE`
 * too, since resets and sign-ins touch it without the advisory lock.
 */
export async function updateUser(
  t: PgTables,
  id: string,
  update: UserUpdate,
): Promise<UserRecord> {
  if (!isUuid(id)) throw new AuthError("user_not_found");
  for (;;) {
    const updated = await attempt(t, id, update);
    if (updated !== null) return updated;
  }
}

// One read, decision and conditional write: the account after the change,
// or null when what the decision was made on changed since it was read. A
// refusal is the rules' answer to one snapshot, so it needs no re-check.
async function attempt(
  t: PgTables,
  id: string,
  update: UserUpdate,
): Promise<UserRecord | null> {
  const keep = update.keepPrivileged === undefined
    ? null
    : [...update.keepPrivileged];
  const [row] = await t.sql`
    SELECT id, email, name, role, disabled, created_at, generation,
      ${t.countPrivileged}(${keep}::text[]) AS privileged
    FROM ${t.users} WHERE id = ${id}`;
  if (row === undefined) throw new AuthError("user_not_found");
  const current = toUser(row);
  const subject = { ...current, generation: row.generation as number };
  // The rules ask for the count only when the change takes a privileged
  // account away; only then must it still hold when the change is applied.
  let counted = false;
  const { changes } = userUpdateDecision(subject, update, () => {
    counted = true;
    return Number(row.privileged);
  });
  const after = {
    ...current,
    role: changes.role ?? current.role,
    disabled: changes.disabled ?? current.disabled,
  };
  // Moving the generation (a disable) ends every session; update_user moves
  // it from wherever a reset or a revocation since the read left it.
  const revoke = changes.generation !== undefined;
  const [applied] = await t.sql`
    SELECT ${t.updateUser}(${id}::uuid, ${t.rulesLock}, ${current.role},
      ${current.disabled}::boolean, ${counted ? keep : null}::text[],
      ${counted ? row.privileged : null}::bigint, ${after.role},
      ${after.disabled}::boolean, ${revoke}::boolean,
      ${eventsJson(update.events?.(current, after))}::text::jsonb) AS done`;
  return applied?.done === true ? after : null;
}
