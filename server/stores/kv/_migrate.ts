// KvStore's schema versions and the steps between them. Each step is
// idempotent and commits record by record with checks, so instances that
// start together may run it at once; the version is recorded last.
//
// Version 2 (issue 12):
// - accounts carry `emailKey`, the folded email (NFC, then lower case), and
//   `user_email` is keyed by it. Two old accounts whose addresses fold alike
//   (the old key only lower-cased) cannot share it: the older keeps it, the
//   other gets a key no sign-in can type ("\u0001" + its id), so it signs in
//   by nothing until an administrator sorts it out;
// - the `accounts` marker is set when any account exists;
// - invitations get an id, their folded email, no inviter (so, like a
//   first-run link, they work only on a store without accounts: re-invite)
//   and their entry in the pending-invitation index;
// - reset links issued before die: they recorded no generation.
//
// Version 3 (issues 14, 17):
// - sessions carry a public id, the client address and browser label they
//   started from (unknown, "", for old ones), `lastSeenAt` and
//   `authenticatedAt` (their creation time for old ones);
// - the audit keys (`audit`, `audit_user`, `audit_type`, `audit_user_type`)
//   start empty.
//
// Version 4 (issue 19): `decoy_email` holds the decoy account's id, so that
// reading an unknown address finds as many records as reading a known one
// (no data moves).

import { uuidv7 } from "../../core/_crypto.ts";
import { fold, UNREACHABLE_KEY } from "../../core/_fold.ts";
import type { LinkRecord } from "../../core/store.ts";
import { commit, retry } from "./_atomic.ts";
import type { KvKeys, SessionValue, UserValue } from "./_keys.ts";

/** The schema version this code writes. */
export const SCHEMA_VERSION = 4;

/** Brings a version-1 database to version 2. */
export async function migrateToV2(kv: Deno.Kv, k: KvKeys): Promise<void> {
  await migrateAccounts(kv, k);
  await migrateLinks(kv, k);
}

async function migrateAccounts(kv: Deno.Kv, k: KvKeys): Promise<void> {
  const users: UserValue[] = [];
  for await (const entry of kv.list<UserValue>({ prefix: k.users() })) {
    users.push(entry.value);
  }
  users.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const owner = new Map<string, string>();
  const keyOf = new Map<string, string>();
  for (const user of users) {
    let key = fold(user.email);
    if (owner.has(key)) key = UNREACHABLE_KEY + user.id;
    owner.set(key, user.id);
    keyOf.set(user.id, key);
  }
  for await (const entry of kv.list<string>({ prefix: k.userEmails() })) {
    const key = entry.key[entry.key.length - 1] as string;
    if (owner.get(key) !== entry.value) {
      await commit(kv.atomic().check(entry).delete(entry.key));
    }
  }
  for (const user of users) {
    const emailKey = keyOf.get(user.id)!;
    await retry(async () => {
      const entry = await kv.get<UserValue>(k.user(user.id));
      if (entry.value === null || entry.value.emailKey === emailKey) {
        return { op: null, result: undefined };
      }
      const op = kv.atomic().check(entry)
        .set(k.user(user.id), { ...entry.value, emailKey })
        .set(k.userEmail(emailKey), user.id);
      return { op, result: undefined };
    });
  }
  if (users.length > 0) await commit(kv.atomic().set(k.accounts(), true));
}

async function migrateLinks(kv: Deno.Kv, k: KvKeys): Promise<void> {
  for await (const listed of kv.list<LinkRecord>({ prefix: k.links() })) {
    await retry(async () => {
      const entry = await kv.get<Partial<LinkRecord>>(listed.key);
      const link = entry.value;
      if (link === null || link.id !== undefined) {
        return { op: null, result: undefined };
      }
      const hash = listed.key[listed.key.length - 1] as string;
      const op = kv.atomic().check(entry);
      if (link.kind !== "invitation") {
        op.delete(listed.key).delete(k.linkExpiry(link.expiresAt!, hash));
        return { op, result: undefined };
      }
      const upgraded = {
        ...link,
        id: uuidv7(link.createdAt),
        emailKey: fold(link.email!),
        invitedBy: "",
        generation: 0,
      } as LinkRecord;
      op.set(listed.key, upgraded)
        .set(k.linkExpiry(upgraded.expiresAt, hash), upgraded.id)
        .set(k.invitation(upgraded.id), hash);
      return { op, result: undefined };
    });
  }
}

/** Brings a version-2 database to version 3: sessions gain their new fields. */
export async function migrateToV3(kv: Deno.Kv, k: KvKeys): Promise<void> {
  const prefix = k.session("").slice(0, -1);
  for await (const listed of kv.list<Partial<SessionValue>>({ prefix })) {
    await retry(async () => {
      const entry = await kv.get<Partial<SessionValue>>(listed.key);
      const old = entry.value;
      if (old === null || old.id !== undefined) {
        return { op: null, result: undefined };
      }
      const createdAt = old.createdAt ?? 0;
      const value = {
        ...old,
        id: uuidv7(createdAt),
        lastSeenAt: createdAt,
        authenticatedAt: createdAt,
        ip: "",
        userAgent: "",
      };
      const op = kv.atomic().check(entry).set(listed.key, value);
      return { op, result: undefined };
    });
  }
}
