// Invitations in KvStore: accepting one (the account and its first session
// in one commit, under the inviter's authority or, for the first-run link,
// while no account exists), listing the pending ones and revoking one.

import { uuidv7 } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  InvitationAcceptance,
  InvitationRevocation,
  LinkRecord,
  UserRecord,
} from "../../core/store.ts";
import { countEnabled, toRecord } from "./_accounts.ts";
import { retry } from "./_atomic.ts";
import {
  type KvKeys,
  type SessionValue,
  ttl,
  type UserValue,
} from "./_keys.ts";
import { spendLink } from "./_links.ts";
import { addEvents } from "./_audit.ts";
import { withinReach } from "../../core/_roles.ts";

// Deno KV reads at most 10 keys per getMany.
const READ_BATCH = 10;

/**
 * Spends an invitation and creates its account and first session in one
 * commit. The commit checks the link, the address, and either the inviter's
 * record (still enabled, still holding a role in `granters`) or, for a link
 * without inviter, the `accounts` marker every account creation writes.
 */
export function acceptInvitation(
  kv: Deno.Kv,
  k: KvKeys,
  tokenHash: string,
  acceptance: InvitationAcceptance,
): Promise<UserRecord | null> {
  const { now, session } = acceptance;
  return retry(async () => {
    const link = await kv.get<LinkRecord>(k.link(tokenHash));
    const invitation = link.value;
    if (
      invitation === null || invitation.kind !== "invitation" ||
      invitation.expiresAt <= now
    ) {
      return { op: null, result: null };
    }
    const spend = spendLink(kv.atomic().check(link), k, invitation);
    const [taken, authority] = await kv.getMany<[string, unknown]>([
      k.userEmail(invitation.emailKey),
      invitation.invitedBy === "" ? k.accounts() : k.user(invitation.invitedBy),
    ]);
    // The address has an account (or got one since), or the link has lost
    // its authority: the link is spent and creates nothing. This is also
    // how decoy invitations die.
    if (
      taken.value !== null ||
      !authorised(invitation, authority.value, acceptance.granters)
    ) {
      return { op: spend, result: null };
    }
    const value: UserValue = {
      id: acceptance.userId,
      email: invitation.email,
      emailKey: invitation.emailKey,
      name: invitation.name,
      role: invitation.role,
      disabled: false,
      createdAt: now,
      passwordHash: acceptance.passwordHash,
      generation: 0,
    };
    const first: SessionValue = {
      id: session.id ?? uuidv7(now),
      userId: value.id,
      generation: 0,
      createdAt: now,
      expiresAt: session.expiresAt,
      lastSeenAt: now,
      authenticatedAt: now,
      ip: session.ip ?? "",
      userAgent: session.userAgent ?? "",
    };
    const life = ttl(session.expiresAt, now);
    spend.check(taken, authority)
      .set(k.user(value.id), value)
      .set(k.userEmail(value.emailKey), value.id)
      .set(k.accounts(), true)
      .set(k.sessionSeq(value.id), 1)
      .set(k.session(session.tokenHash), first, life)
      .set(k.sessionUser(value.id, session.tokenHash), session.expiresAt, life)
      .set(k.sessionExpiry(session.expiresAt, session.tokenHash), value.id);
    countEnabled(spend, k, value.role, 1n);
    addEvents(spend, k, acceptance.events);
    return { op: spend, result: toRecord(value) };
  });
}

// The first-run link needs no account at all (the marker is absent); any
// other needs its inviter enabled and holding a role that may grant.
function authorised(
  invitation: LinkRecord,
  authority: unknown,
  granters: readonly string[] | undefined,
): boolean {
  if (invitation.invitedBy === "") return authority === null;
  const inviter = authority as UserValue | null;
  return inviter !== null && !inviter.disabled &&
    (granters === undefined || granters.includes(inviter.role));
}

/**
 * The pending invitations, newest first: unexpired, for an address that
 * has no account (an invitation for a taken address, a decoy or one whose
 * person got an account another way, can only die).
 */
export async function listInvitations(
  kv: Deno.Kv,
  k: KvKeys,
  now: number,
): Promise<LinkRecord[]> {
  const hashes: string[] = [];
  for await (
    const entry of kv.list<string>({ prefix: k.invitations() }, {
      reverse: true,
    })
  ) {
    hashes.push(entry.value);
  }
  const live: LinkRecord[] = [];
  for (let i = 0; i < hashes.length; i += READ_BATCH) {
    const keys = hashes.slice(i, i + READ_BATCH).map((hash) => k.link(hash));
    for (const { value } of await kv.getMany<LinkRecord[]>(keys)) {
      if (value?.kind === "invitation" && value.expiresAt > now) {
        live.push(value);
      }
    }
  }
  const pending: LinkRecord[] = [];
  for (let i = 0; i < live.length; i += READ_BATCH) {
    const batch = live.slice(i, i + READ_BATCH);
    const taken = await kv.getMany<string[]>(
      batch.map((link) => k.userEmail(link.emailKey)),
    );
    batch.forEach((link, j) => {
      if (taken[j]!.value === null) pending.push(link);
    });
  }
  // The index is in id order, which is creation order for the UUIDv7 ids
  // Gatehouse makes; sorting settles ids made elsewhere.
  return pending.sort((a, b) =>
    b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/** Deletes a pending invitation under the reach rule; returns it. */
export function revokeInvitation(
  kv: Deno.Kv,
  k: KvKeys,
  id: string,
  revocation: InvitationRevocation,
): Promise<LinkRecord> {
  return retry(async () => {
    const index = await kv.get<string>(k.invitation(id));
    const link = index.value === null
      ? null
      : await kv.get<LinkRecord>(k.link(index.value));
    const invitation = link?.value ?? null;
    if (
      invitation === null || invitation.kind !== "invitation" ||
      invitation.expiresAt <= revocation.now
    ) {
      throw new AuthError("invitation_not_found");
    }
    if (!withinReach(revocation.reachableRoles, invitation.role)) {
      throw new AuthError("role_beyond_reach", {
        message:
          `You may not revoke an invitation for the role "${invitation.role}"`,
      });
    }
    const op = spendLink(kv.atomic().check(link!), k, invitation);
    addEvents(op, k, revocation.events?.(invitation));
    return { op, result: invitation };
  });
}
