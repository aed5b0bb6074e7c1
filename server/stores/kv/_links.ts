// Single-use links in KvStore (invitations and password resets): a link
// record, its entry in the expiry index and, for an invitation, its entry in
// the index of pending invitations by id; all spent with a check-and-delete
// in the same commit as what the link applies.

import type {
  LinkKind,
  LinkRecord,
  ResetConfirmation,
  UserRecord,
  WithEvents,
} from "../../core/store.ts";
import { addEvents } from "./_audit.ts";
import { toRecord } from "./_accounts.ts";
import { commit, retry } from "./_atomic.ts";
import { type KvKeys, ttl, type UserValue } from "./_keys.ts";
import { deleteSessionsOf } from "./_sessions.ts";

// Expiry index entry, link record and invitation index: 750 of KV's 1000
// mutations a commit.
const LINK_BATCH = 250;

/**
 * Stores a single-use link. An invitation replaces the address's previous
 * one in the same commit: the commit checks the address's index entry and
 * the link it names as read, so of two invitations racing for one address
 * the later commit sees and spends the earlier one.
 */
export async function createLink(
  kv: Deno.Kv,
  k: KvKeys,
  link: LinkRecord,
  options: WithEvents = {},
): Promise<void> {
  const life = ttl(link.expiresAt, link.createdAt);
  const store = (op: Deno.AtomicOperation) => {
    op.set(k.link(link.tokenHash), link, life)
      .set(
        k.linkExpiry(link.expiresAt, link.tokenHash),
        link.kind === "invitation" ? link.id : null,
      );
    return addEvents(op, k, options.events);
  };
  if (link.kind !== "invitation") {
    const result = await commit(store(kv.atomic()));
    if (!result.ok) throw new Error("Cannot store link");
    return;
  }
  await retry(async () => {
    const index = await kv.get<string>(k.invitationByEmail(link.emailKey));
    const previous = index.value === null
      ? null
      : await kv.get<LinkRecord>(k.link(index.value));
    const op = kv.atomic().check(index);
    if (previous !== null) {
      op.check(previous);
      if (previous.value?.kind === "invitation") {
        spendLink(op, k, previous.value);
      }
    }
    store(op)
      .set(k.invitation(link.id), link.tokenHash, life)
      .set(k.invitationByEmail(link.emailKey), link.tokenHash, life);
    return { op, result: undefined };
  });
}

/** The live link of `kind` behind `tokenHash`, unspent: one read. */
export async function findLink(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  kind: LinkKind,
  now: number,
): Promise<LinkRecord | null> {
  const link = (await kv.get<LinkRecord>(k.link(tokenHash))).value;
  return link !== null && link.kind === kind && link.expiresAt > now
    ? link
    : null;
}

/** Adds to `op` the deletion of a link's records. */
export function spendLink(
  op: Deno.AtomicOperation,
  k: KvKeys,
  link: LinkRecord,
): Deno.AtomicOperation {
  op.delete(k.link(link.tokenHash))
    .delete(k.linkExpiry(link.expiresAt, link.tokenHash));
  if (link.kind === "invitation") op.delete(k.invitation(link.id));
  return op;
}

/**
 * Spends a reset link, sets the password and moves the generation, which
 * revokes every session and every other reset link of the account.
 */
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
    const spend = spendLink(kv.atomic().check(link), k, reset);
    const entry = reset.userId === ""
      ? null
      : await kv.get<UserValue>(k.user(reset.userId));
    const account = entry?.value ?? null;
    // Gone, disabled, or reset or disabled since the link was issued: the
    // link is spent and sets nothing.
    if (
      account === null || account.disabled ||
      account.generation !== reset.generation
    ) {
      return { op: spend, result: null };
    }
    const next: UserValue = {
      ...account,
      passwordHash: confirmation.passwordHash,
      generation: account.generation + 1,
    };
    spend.check(entry!).set(k.user(next.id), next);
    addEvents(spend, k, confirmation.events);
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
  const expired: Array<Deno.KvEntry<string | null>> = [];
  const selector = {
    prefix: k.linkExpiries(),
    end: [...k.linkExpiries(), now + 1],
  };
  for await (const entry of kv.list<string | null>(selector, { limit })) {
    expired.push(entry);
  }
  for (let i = 0; i < expired.length; i += LINK_BATCH) {
    const op = kv.atomic();
    for (const { key, value } of expired.slice(i, i + LINK_BATCH)) {
      op.delete(key).delete(k.link(key[key.length - 1] as string));
      if (typeof value === "string") op.delete(k.invitation(value));
    }
    await commit(op);
  }
  return expired.length;
}
