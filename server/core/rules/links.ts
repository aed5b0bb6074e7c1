// Single-use links (invitations and password resets) over the narrow store:
// storing one (an invitation replaces its address's others, those its
// inviter could revoke), the cheap lookup that refuses a dead link before
// any hashing, spending a reset link, and the sweep. Invitations' own
// operations are in _link_invitations.ts.

import type {
  AccountRecord,
  Delete,
  RecordStore,
  StoredLink,
  StoredTally,
} from "../records.ts";
import type {
  LinkCreation,
  LinkKind,
  LinkRecord,
  ResetConfirmation,
  Store,
  UserRecord,
} from "../store.ts";
import { refuseReplacing } from "../_links.ts";
import { committing, readRecord, unchanged } from "./_commit.ts";
import { readAsActor } from "./_actor.ts";
import { tally, toUserRecord } from "./_records.ts";
import {
  acceptInvitation,
  listInvitations,
  revokeInvitation,
} from "./_link_invitations.ts";
import { deleteDeadSessions } from "./_session_sweep.ts";

// The link operations of `Store`.
type LinkRules = Pick<
  Store,
  | "createLink"
  | "invitationsFor"
  | "findLink"
  | "acceptInvitation"
  | "listInvitations"
  | "revokeInvitation"
  | "confirmReset"
  | "deleteExpiredLinks"
>;

/**
 * The single-use link operations of `Store`, decided over `records`.
 *
 * @example Storing and finding a reset link
 * ```ts
 * import { linkRules } from "./links.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function issue(records: RecordStore, now: number) {
 *   const links = linkRules(records);
 *   await links.createLink({
 *     tokenHash: "digest",
 *     id: crypto.randomUUID(),
 *     kind: "reset",
 *     email: "ada@example.com",
 *     emailKey: "ada@example.com",
 *     name: "",
 *     role: "",
 *     userId: crypto.randomUUID(),
 *     invitedBy: "",
 *     generation: 0,
 *     createdAt: now,
 *     expiresAt: now + 3_600_000,
 *   });
 *   return await links.findLink("digest", "reset", now);
 * }
 * ```
 */
export function linkRules(records: RecordStore): LinkRules {
  return {
    createLink: (link, options) => createLink(records, link, options),
    invitationsFor: async (emailKey, options = {}) => {
      const [found] = await Promise.all([
        invitationsOf(records, emailKey),
        // The inviter's standing, as the commit will check it: read before
        // the invitation's mail, which goes out before that commit.
        options.actor === undefined
          ? undefined
          : readAsActor(records, [], options.actor),
      ]);
      return found.map(({ value }) => value);
    },
    findLink: (tokenHash, kind, now) => findLink(records, tokenHash, kind, now),
    acceptInvitation: (tokenHash, acceptance) =>
      acceptInvitation(records, tokenHash, acceptance),
    listInvitations: (now) => listInvitations(records, now),
    revokeInvitation: (id, revocation) =>
      revokeInvitation(records, id, revocation),
    confirmReset: (tokenHash, confirmation) =>
      confirmReset(records, tokenHash, confirmation),
    deleteExpiredLinks: (now, limit) =>
      // `expiresAt <= now`: a link is dead from its expiry instant.
      records.deleteExpired("link", now, limit),
  };
}

// The link as stored: exactly the fields of a `LinkRecord`.
function storedLink(link: LinkRecord): StoredLink {
  return {
    tokenHash: link.tokenHash,
    id: link.id,
    kind: link.kind,
    email: link.email,
    emailKey: link.emailKey,
    name: link.name,
    role: link.role,
    userId: link.userId,
    invitedBy: link.invitedBy,
    generation: link.generation,
    createdAt: link.createdAt,
    expiresAt: link.expiresAt,
  };
}

// Every invitation stored for an address, with its version.
async function invitationsOf(records: RecordStore, emailKey: string) {
  return (await records.list("link", "emailKey", emailKey))
    .filter((found) => found.value.kind === "invitation");
}

// A reset link is written on its own: nothing it replaces. An invitation
// replaces every other invitation for its address in its commit, and is
// refused if one of them is pending with a role beyond its inviter's
// reach; the commit checks the address's `invitation:` tally, which every
// invitation for the address moves, so of two racing for one address the
// later one reads the earlier, and deletes it or is refused by it.
async function createLink(
  records: RecordStore,
  link: LinkRecord,
  options: LinkCreation = {},
): Promise<void> {
  const value = storedLink(link);
  const events = options.events ?? [];
  if (value.kind !== "invitation") {
    // No checks: only another link holding this id can refuse it.
    if (!await records.commit({ puts: [{ kind: "link", value }], events })) {
      throw new Error(`Cannot store link: its id "${value.id}" is taken`);
    }
    return;
  }
  const key = tally.invitation(value.emailKey);
  await committing(records, async () => {
    const { found: [count, sameId, previous], checks } = await readAsActor<
      [StoredTally, StoredLink, StoredLink]
    >(records, [
      { kind: "tally", key },
      { kind: "link", unique: "id", value: value.id },
      // The same link stored again (a retried call) is replaced, not added.
      { kind: "link", key: value.tokenHash },
    ], options.actor);
    const replaced = (await invitationsOf(records, value.emailKey))
      .filter((found) => found.value.tokenHash !== value.tokenHash);
    refuseReplacing(
      replaced.map((found) => found.value),
      options.reachableRoles,
      value.createdAt,
    );
    if (
      sameId !== null && sameId.value.tokenHash !== value.tokenHash &&
      !replaced.some((found) => found.value.id === value.id)
    ) {
      // Retrying would fail the same way for ever.
      throw new Error(`Cannot store link: its id "${value.id}" is taken`);
    }
    const deletes: Delete[] = replaced.map((found) => ({
      kind: "link",
      value: found.value,
    }));
    return {
      commit: {
        checks: [
          unchanged("tally", key, count),
          unchanged("link", value.tokenHash, previous),
          ...checks,
        ],
        puts: [{ kind: "link", value, before: previous?.value ?? null }],
        deletes,
        tallies: [{ key, by: 1 }],
        events,
      },
      result: undefined,
    };
  });
}

// One read: a dead link is refused before any password is hashed.
async function findLink(
  records: RecordStore,
  tokenHash: string,
  kind: LinkKind,
  now: number,
): Promise<LinkRecord | null> {
  const found = await readRecord(records, "link", tokenHash);
  const link = found?.value ?? null;
  return link !== null && link.kind === kind && link.expiresAt > now
    ? link
    : null;
}

// Spends the link, sets the password and moves the generation, which
// revokes every session and every other reset link of the account. A link
// whose account is gone, disabled or moved on since it was issued is spent
// and sets nothing.
async function confirmReset(
  records: RecordStore,
  tokenHash: string,
  confirmation: ResetConfirmation,
): Promise<UserRecord | null> {
  const changed = await committing<AccountRecord | null>(records, async () => {
    const link = await readRecord(records, "link", tokenHash);
    const reset = link?.value ?? null;
    if (
      reset === null || reset.kind !== "reset" ||
      reset.expiresAt <= confirmation.now
    ) {
      return { commit: null, result: null };
    }
    const spend = {
      checks: [unchanged("link", tokenHash, link)],
      deletes: [{ kind: "link" as const, value: reset }],
    };
    const found = reset.userId === ""
      ? null
      : await readRecord(records, "account", reset.userId);
    const account = found?.value ?? null;
    if (
      account === null || account.disabled ||
      account.generation !== reset.generation
    ) {
      return { commit: spend, result: null };
    }
    const next: AccountRecord = {
      ...account,
      passwordHash: confirmation.passwordHash,
      generation: account.generation + 1,
    };
    return {
      commit: {
        checks: [...spend.checks, unchanged("account", account.id, found)],
        puts: [{ kind: "account", value: next, before: account }],
        deletes: spend.deletes,
        events: confirmation.events ?? [],
      },
      result: next,
    };
  });
  if (changed === null) return null;
  // The move revoked them; their records go now, not with the reaper.
  await deleteDeadSessions(records, changed.id, changed.generation);
  return toUserRecord(changed);
}
