// Single-use links in KvStore (invitations and password resets): a link
// record plus its entry in the expiry index, spent with a check-and-delete
// in the same commit as what it applies.

import type {
  InvitationAcceptance,
  LinkRecord,
  ResetConfirmation,
  UserRecord,
} from "../store.ts";
import { countEnabled, toRecord } from "./_kv_accounts.ts";
import { commit, retry } from "./_kv_atomic.ts";
import { type KvKeys, ttl, type UserValue } from "./_kv_keys.ts";
import { deleteSessionsOf } from "./_kv_sessions.ts";

// Expiry index entry plus link record: 800 of KV's 1000 mutations a commit.
const LINK_BATCH = 400;

/** Stores a single-use link. */
export async function createLink(
  kv: Deno.Kv,
  k: KvKeys,
  link: LinkRecord,
): Promise<void> {
  const life = ttl(link.expiresAt, link.createdAt);
  await commit(
    kv.atomic()
      .set(k.link(link.tokenHash), link, life)
      .set(k.linkExpiry(link.expiresAt, link.tokenHash), null),
  );
}

/** Spends an invitation and creates its account in one commit. */
export function acceptInvitation(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  acceptance: InvitationAcceptance,
): Promise<UserRecord | null> {
  return retry(async () => {
    const link = await kv.get<LinkRecord>(k.link(tokenHash));
    const invitation = link.value;
    if (
      invitation === null || invitation.kind !== "invitation" ||
      invitation.expiresAt <= acceptance.now
    ) {
      return { op: null, result: null };
    }
    const spend = kv.atomic().check(link).delete(k.link(tokenHash))
      .delete(k.linkExpiry(invitation.expiresAt, tokenHash));
    const emailKey = k.userEmail(invitation.email.toLowerCase());
    const taken = await kv.get(emailKey);
    // The address has an account (or got one since): the link is spent
    // and creates nothing. This is also how decoy invitations die.
    if (taken.value !== null) return { op: spend, result: null };
    const value: UserValue = {
      id: acceptance.userId,
      email: invitation.email,
      name: invitation.name,
      role: invitation.role,
      disabled: false,
      createdAt: acceptance.now,
      passwordHash: acceptance.passwordHash,
      generation: 0,
    };
    spend.check(taken).set(k.user(value.id), value).set(emailKey, value.id);
    countEnabled(spend, k, value.role, 1n);
    return { op: spend, result: toRecord(value) };
  });
}

/** Spends a reset link, sets the password and revokes every session. */
export async function confirmReset(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  confirmation: ResetConfirmation,
): Promise<UserRecord | null> {
  const user = await retry(async () => {
    const link = await kv.get<LinkRecord>(k.link(tokenHash));
    const reset = link.value;
    if (
      reset === null || reset.kind !== "reset" ||
      reset.expiresAt <= confirmation.now
    ) {
      return { op: null, result: null };
    }
    const spend = kv.atomic().check(link).delete(k.link(tokenHash))
      .delete(k.linkExpiry(reset.expiresAt, tokenHash));
    const entry = await kv.get<UserValue>(k.user(reset.userId));
    if (entry.value === null) return { op: spend, result: null };
    const next: UserValue = {
      ...entry.value,
      passwordHash: confirmation.passwordHash,
      generation: entry.value.generation + 1,
    };
    spend.check(entry).set(k.user(next.id), next);
    return { op: spend, result: toRecord(next) };
  });
  if (user !== null) await deleteSessionsOf(kv, k, user.id);
  return user;
}

/** Deletes up to `limit` links expired by `now`. */
export async function deleteExpiredLinks(
  kv: Deno.Kv,
  k: KvKeys,
  now: number,
  limit: number,
): Promise<number> {
  const keys: Deno.KvKey[] = [];
  const selector = {
    prefix: k.linkExpiries(),
    end: [...k.linkExpiries(), now + 1],
  };
  for await (const entry of kv.list(selector, { limit })) {
    keys.push(entry.key);
  }
  for (let i = 0; i < keys.length; i += LINK_BATCH) {
    const op = kv.atomic();
    for (const key of keys.slice(i, i + LINK_BATCH)) {
      op.delete(key).delete(k.link(key[key.length - 1] as string));
    }
    await commit(op);
  }
  return keys.length;
}
