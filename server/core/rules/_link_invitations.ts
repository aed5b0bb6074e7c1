// Invitations over the narrow store: accepting one (the account and its
// first session in the commit that spends the link, under the inviter's
// authority or, for the first-run link, while no account exists), listing
// the pending ones, revoking one under the reach rule, and ending those a
// disabled inviter sent, or a demoted one may no longer grant.

import { uuidv7 } from "../_crypto.ts";
import { fold } from "../_fold.ts";
import { assertWithinReach } from "../_roles.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  AccountRecord,
  Check,
  RecordStore,
  StoredLink,
  StoredSession,
  StoredTally,
  Versioned,
} from "../records.ts";
import type {
  InvitationAcceptance,
  InvitationRevocation,
  LinkRecord,
  UserRecord,
} from "../store.ts";
import { committing, readRecord, readRecords, unchanged } from "./_commit.ts";
import { readAsActor } from "./_actor.ts";
import { tally, toUserRecord } from "./_records.ts";

/**
 * Spends an invitation and creates its account and first session in one
 * commit, checked against the link, the new account's id, and either the
 * inviter's record (still enabled, still holding a role in `granters`) or,
 * for a link without inviter, the `enabled` tally, which every account
 * creation moves. The address stays free by the account's unique
 * `emailKey`: a racing account for it fails the commit, and the retry reads
 * it. A link that lost its authority, or whose address has an account, is
 * spent and creates nothing (also how decoy invitations die).
 */
export function acceptInvitation(
  records: RecordStore,
  tokenHash: string,
  acceptance: InvitationAcceptance,
): Promise<UserRecord | null> {
  const { now } = acceptance;
  return committing(records, async () => {
    const link = await readRecord(records, "link", tokenHash);
    const invitation = link?.value ?? null;
    if (
      invitation === null || invitation.kind !== "invitation" ||
      invitation.expiresAt <= now
    ) {
      return { commit: null, result: null };
    }
    const spend = {
      checks: [unchanged("link", tokenHash, link)],
      deletes: [{ kind: "link" as const, value: invitation }],
    };
    const firstRun = invitation.invitedBy === "";
    const [taken, authority] = await readRecords<
      [AccountRecord, AccountRecord | StoredTally]
    >(records, [
      { kind: "account", unique: "emailKey", value: invitation.emailKey },
      firstRun
        ? { kind: "tally", key: tally.enabled() }
        : { kind: "account", key: invitation.invitedBy },
    ]);
    // Read after the tally: an account made before this answer moved it.
    const authorised = firstRun
      ? !await records.hasAccounts()
      : inviterMayGrant(
        authority as Versioned<AccountRecord> | null,
        acceptance.granters,
      );
    if (taken !== null || !authorised) {
      return { commit: spend, result: null };
    }
    const account = accountOf(invitation, acceptance);
    const first = firstSession(account.id, acceptance);
    const authorityCheck: Check = firstRun
      ? unchanged("tally", tally.enabled(), authority)
      : unchanged("account", invitation.invitedBy, authority);
    return {
      commit: {
        checks: [
          ...spend.checks,
          unchanged("account", account.id, null),
          authorityCheck,
        ],
        puts: [
          { kind: "account", value: account, before: null },
          { kind: "session", value: first, before: null },
        ],
        deletes: spend.deletes,
        tallies: [
          { key: tally.role(account.role), by: 1 },
          { key: tally.enabled(), by: 1 },
          { key: tally.sessions(account.id), by: 1 },
        ],
        events: acceptance.events ?? [],
      },
      result: toUserRecord(account),
    };
  });
}

/**
 * Whether an invitation's inviter may still grant it: enabled, and holding
 * a role in `granters` (any role when absent). Any link but the first-run
 * one needs it; single sign-on spends invitations under it too.
 */
export function inviterMayGrant(
  inviter: Versioned<AccountRecord> | null,
  granters: readonly string[] | undefined,
): boolean {
  return inviter !== null && !inviter.value.disabled &&
    (granters === undefined || granters.includes(inviter.value.role));
}

// The account an invitation creates: enabled, generation 0, no factors.
function accountOf(
  invitation: StoredLink,
  acceptance: InvitationAcceptance,
): AccountRecord {
  return {
    id: acceptance.userId,
    email: invitation.email,
    emailKey: invitation.emailKey,
    name: invitation.name,
    nameKey: fold(invitation.name),
    role: invitation.role,
    disabled: false,
    passwordHash: acceptance.passwordHash,
    generation: 0,
    createdAt: acceptance.now,
    factorVersion: 0,
    totpEnabled: false,
    passkeyCount: 0,
    locale: acceptance.locale ?? "",
    localeChosen: false,
  };
}

// The new account's first session, authenticated now.
function firstSession(
  userId: string,
  acceptance: InvitationAcceptance,
): StoredSession {
  const { now, session } = acceptance;
  return {
    tokenHash: session.tokenHash,
    id: session.id ?? uuidv7(now),
    userId,
    generation: 0,
    createdAt: now,
    expiresAt: session.expiresAt,
    lastSeenAt: now,
    authenticatedAt: now,
    ip: session.ip ?? "",
    userAgent: session.userAgent ?? "",
  };
}

/**
 * The pending invitations, newest first: unexpired, for an address that
 * has no account (an invitation for a taken address, a decoy or one whose
 * person got an account another way, can only die). The accounts of every
 * address are read at once.
 */
export async function listInvitations(
  records: RecordStore,
  now: number,
): Promise<LinkRecord[]> {
  const live = (await records.list("link", "kind", "invitation"))
    .map(({ value }) => value)
    .filter((link) => link.expiresAt > now);
  if (live.length === 0) return [];
  const accounts = await records.read(
    live.map((link) => ({
      kind: "account" as const,
      unique: "emailKey" as const,
      value: link.emailKey,
    })),
  );
  return live.filter((_, i) => accounts[i] === null).sort((a, b) =>
    b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

/**
 * Deletes the invitations `inviterId` sent: every one, or with `ended`
 * those whose role it answers true for. A disable ends every one, and a
 * role change those the new role may not grant, after its commit:
 * acceptance asks whether the inviter is enabled and may grant the role
 * only when a link is spent, so an invitation nobody tried meanwhile would
 * work again once the inviter is enabled or given its role back (a disable
 * ends the account's reset links for good; its invitations end likewise).
 * A disabled account sends none meanwhile. Each is deleted in a commit of
 * its own, checked against the link as read: one accepted or revoked
 * meanwhile is left as that made it.
 */
export async function deleteInvitationsBy(
  records: RecordStore,
  inviterId: string,
  ended?: (role: string) => Promise<boolean>,
): Promise<void> {
  const sent = (await records.list("link", "kind", "invitation"))
    .filter(({ value }) => value.invitedBy === inviterId);
  for (const link of sent) {
    if (ended !== undefined && !await ended(link.value.role)) continue;
    await records.commit({
      checks: [unchanged("link", link.value.tokenHash, link)],
      deletes: [{ kind: "link", value: link.value }],
    });
  }
}

/**
 * Deletes a pending invitation under the reach rule and returns it; its
 * events are made from what the commit deletes. Of racing revocations, one
 * deletes it; the others then read nothing and refuse. Pending as
 * `listInvitations` says: unexpired, for an address without an account.
 */
export function revokeInvitation(
  records: RecordStore,
  id: string,
  revocation: InvitationRevocation,
): Promise<LinkRecord> {
  return committing(records, async () => {
    const { found: [link], checks } = await readAsActor<[StoredLink]>(
      records,
      [{ kind: "link", unique: "id", value: id }],
      revocation.actor,
    );
    const invitation = link?.value ?? null;
    if (
      invitation === null || invitation.kind !== "invitation" ||
      invitation.expiresAt <= revocation.now
    ) {
      throw new AuthError("invitation_not_found");
    }
    // Pending as the list says: one whose address has an account (a decoy,
    // or a person given an account another way) can only die, and is no
    // longer there to revoke. The `enabled` tally, which every account
    // creation moves, keeps that true until the commit.
    const [taken, enabled] = await readRecords<[AccountRecord, StoredTally]>(
      records,
      [
        { kind: "account", unique: "emailKey", value: invitation.emailKey },
        { kind: "tally", key: tally.enabled() },
      ],
    );
    if (taken !== null) throw new AuthError("invitation_not_found");
    assertWithinReach(
      revocation.reachableRoles,
      invitation.role,
      `You may not revoke an invitation for the role "${invitation.role}"`,
    );
    return {
      commit: {
        checks: [
          unchanged("link", invitation.tokenHash, link),
          unchanged("tally", tally.enabled(), enabled),
          ...checks,
        ],
        deletes: [{ kind: "link", value: invitation }],
        events: revocation.events?.(invitation) ?? [],
      },
      result: invitation,
    };
  });
}
