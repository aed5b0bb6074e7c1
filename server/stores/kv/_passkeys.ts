// Passkeys in KvStore: each is three records (the passkey, its entry under
// its account, its entry by credential id), written and deleted together
// with the account's `passkeyCount` and `factorVersion`, checked against the
// account's versionstamp so the cap and the version hold under concurrency.
// Also the administrator's removal of every second factor.

import { AuthError } from "../../http/errors.ts";
import type {
  NewPasskey,
  PasskeyRecord,
  PasskeyUse,
  SecondFactorRemoval,
} from "../../core/store_factors.ts";
import type { WithEvents } from "../../core/store.ts";
import { retry } from "./_atomic.ts";
import { addEvents } from "./_audit.ts";
import {
  afterRemoval,
  type FactorKeys,
  factorsOf,
  withFactors,
} from "./_factor_keys.ts";
import type { UserValue } from "./_keys.ts";
import { reach, userUpdateDecision } from "../_user_rules.ts";

/** Registers a passkey within the cap; null at the cap. */
export function addPasskey(
  kv: Deno.Kv,
  k: FactorKeys,
  passkey: NewPasskey,
  maxPasskeys: number,
  options: WithEvents = {},
): Promise<PasskeyRecord | null> {
  const record: PasskeyRecord = { ...passkey, lastUsedAt: null };
  return retry(async () => {
    const [user, credential] = await kv.getMany<[UserValue, string]>([
      k.user(passkey.userId),
      k.passkeyCredential(passkey.credentialId),
    ]);
    if (user.value === null || user.value.disabled) {
      throw new AuthError("user_not_found");
    }
    if (credential.value !== null) throw new AuthError("passkey_invalid");
    const { passkeyCount } = factorsOf(user.value);
    if (passkeyCount >= maxPasskeys) return { op: null, result: null };
    const op = addEvents(kv.atomic(), k, options.events)
      .check(user, credential, {
        key: k.passkey(passkey.id),
        versionstamp: null,
      })
      .set(
        k.user(passkey.userId),
        withFactors(user.value, { passkeyCount: passkeyCount + 1 }),
      )
      .set(k.passkey(passkey.id), record)
      .set(k.passkeyUser(passkey.userId, passkey.id), null)
      .set(k.passkeyCredential(passkey.credentialId), passkey.id);
    return { op, result: record };
  });
}

/** The account's passkeys, oldest first. */
export async function listPasskeys(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
): Promise<PasskeyRecord[]> {
  const ids: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix: k.passkeysOfUser(userId) })) {
    ids.push(k.passkey(entry.key[entry.key.length - 1] as string));
  }
  const found: PasskeyRecord[] = [];
  // getMany reads at most 10 keys at once.
  for (let i = 0; i < ids.length; i += 10) {
    for (
      const entry of await kv.getMany<PasskeyRecord[]>(ids.slice(i, i + 10))
    ) {
      if (entry.value !== null) found.push(entry.value);
    }
  }
  return found.sort((a, b) =>
    a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1)
  );
}

/** The passkey of a credential id, or null. */
export async function passkeyByCredentialId(
  kv: Deno.Kv,
  k: FactorKeys,
  credentialId: string,
): Promise<PasskeyRecord | null> {
  const id = await kv.get<string>(k.passkeyCredential(credentialId));
  if (id.value === null) return null;
  return (await kv.get<PasskeyRecord>(k.passkey(id.value))).value;
}

// One read-modify-write of a passkey: `change` answers the next record, or
// null to write nothing (the answer is then null).
function updatePasskey(
  kv: Deno.Kv,
  k: FactorKeys,
  id: string,
  change: (passkey: PasskeyRecord) => PasskeyRecord | null,
): Promise<PasskeyRecord | null> {
  return retry(async () => {
    const entry = await kv.get<PasskeyRecord>(k.passkey(id));
    const next = entry.value === null ? null : change(entry.value);
    if (next === null) return { op: null, result: null };
    return {
      op: kv.atomic().check(entry).set(k.passkey(id), next),
      result: next,
    };
  });
}

/** Renames the account's passkey; null when it has no such passkey. */
export function renamePasskey(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  id: string,
  name: string,
): Promise<PasskeyRecord | null> {
  return updatePasskey(
    kv,
    k,
    id,
    (passkey) => passkey.userId === userId ? { ...passkey, name } : null,
  );
}

/** Records a sign-in with a passkey if its counter grew (or both are 0). */
export async function usePasskey(
  kv: Deno.Kv,
  k: FactorKeys,
  id: string,
  use: PasskeyUse,
): Promise<boolean> {
  const next = await updatePasskey(kv, k, id, (passkey) => {
    const counts = passkey.counter > 0 || use.counter > 0;
    if (counts && use.counter <= passkey.counter) return null;
    return { ...passkey, counter: use.counter, lastUsedAt: use.now };
  });
  return next !== null;
}

/** Removes the account's passkey and moves its factor version. */
export function removePasskey(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  id: string,
  options: WithEvents = {},
): Promise<boolean> {
  return retry(async () => {
    const [user, entry] = await kv.getMany<[UserValue, PasskeyRecord]>([
      k.user(userId),
      k.passkey(id),
    ]);
    const passkey = entry.value;
    if (user.value === null || passkey === null || passkey.userId !== userId) {
      return { op: null, result: false };
    }
    const { passkeyCount } = factorsOf(user.value);
    const op = addEvents(kv.atomic(), k, options.events).check(user, entry)
      .set(
        k.user(userId),
        afterRemoval(user.value, {
          passkeyCount: Math.max(0, passkeyCount - 1),
        }),
      );
    deletePasskey(op, k, passkey);
    return { op, result: true };
  });
}

function deletePasskey(
  op: Deno.AtomicOperation,
  k: FactorKeys,
  passkey: PasskeyRecord,
): void {
  op.delete(k.passkey(passkey.id))
    .delete(k.passkeyUser(passkey.userId, passkey.id))
    .delete(k.passkeyCredential(passkey.credentialId));
}

/**
 * Removes TOTP, its codes, a pending enrolment and every passkey, and moves
 * the factor version, in one commit checked against the account (every
 * passkey added or removed meanwhile changes it, so the listing is exact).
 */
export function removeUserSecondFactor(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  removal: SecondFactorRemoval,
): Promise<void> {
  return retry(async () => {
    const user = await kv.get<UserValue>(k.user(userId));
    if (user.value === null) throw new AuthError("user_not_found");
    userUpdateDecision(user.value, reach(removal), () => 0);
    const passkeys = await listPasskeys(kv, k, userId);
    const op = addEvents(kv.atomic(), k, removal.events).check(user)
      .set(
        k.user(userId),
        afterRemoval(user.value, { totpEnabled: false, passkeyCount: 0 }),
      )
      .delete(k.totp(userId))
      .delete(k.totpEnrolment(userId));
    for (const passkey of passkeys) deletePasskey(op, k, passkey);
    return { op, result: undefined };
  });
}
