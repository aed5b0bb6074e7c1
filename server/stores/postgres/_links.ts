// Single-use links in PostgresStore: storing and finding them, spending an
// invitation (the account and its first session, under the inviter's
// authority or, for the first-run link, while no account exists) or a reset
// link (under the generation it was issued for), listing and revoking
// pending invitations, and the reaper's sweep; each change in one statement
// or one function call (no client-side transaction: see _tables.ts).

import type postgres from "postgres";
import { isUuid, uuidv7 } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import { fold } from "../../core/_fold.ts";
import type {
  InvitationAcceptance,
  InvitationRevocation,
  LinkKind,
  LinkRecord,
  ResetConfirmation,
  UserRecord,
  WithEvents,
} from "../../core/store.ts";
import { eventsJson } from "./_audit.ts";
import { withinReach } from "../../core/_roles.ts";
import { type PgTables, toUser } from "./_tables.ts";

/**
 * Stores a single-use link. An invitation replaces the row of the
 * address's previous invitation (unique per `email_key` among invitations)
 * in the same statement: every column changes, the token first, so the old
 * link finds nothing; a spend of the old link that locked the row first wins
 * and the new invitation is inserted after it.
 */
export async function createLink(
  t: PgTables,
  link: LinkRecord,
  options: WithEvents = {},
): Promise<void> {
  await t.sql`
    WITH l AS (
      INSERT INTO ${t.links}
        (token_hash, id, kind, email, email_key, name, role, user_id,
          invited_by, generation, created_at, expires_at)
      VALUES (${link.tokenHash}, ${link.id}, ${link.kind}, ${link.email},
        ${link.emailKey}, ${link.name}, ${link.role}, ${link.userId || null},
        ${link.invitedBy || null}, ${link.generation}, ${link.createdAt},
        ${link.expiresAt})
      ON CONFLICT (email_key) WHERE kind = 'invitation' DO UPDATE SET
        token_hash = EXCLUDED.token_hash, id = EXCLUDED.id,
        email = EXCLUDED.email, name = EXCLUDED.name, role = EXCLUDED.role,
        user_id = EXCLUDED.user_id, invited_by = EXCLUDED.invited_by,
        generation = EXCLUDED.generation, created_at = EXCLUDED.created_at,
        expires_at = EXCLUDED.expires_at
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM l),
      ${t.insertEvents}(${eventsJson(options.events)}::text::jsonb)`;
}

/** The live link of `kind` behind `tokenHash`, unspent: one query. */
export async function findLink(
  t: PgTables,
  tokenHash: string,
  kind: LinkKind,
  now: number,
): Promise<LinkRecord | null> {
  const [row] = await t.sql`
    SELECT * FROM ${t.links}
    WHERE token_hash = ${tokenHash} AND kind = ${kind} AND expires_at > ${now}`;
  return row === undefined ? null : toLink(row);
}

/**
 * Spends an invitation and creates its account and first session: one call
 * of the schema's `accept_invitation` function (_migrations.ts), which reads
 * the link's authority under locks held until it commits. A
 * link without inviter locks the accounts table against writers (`SHARE
 * ROW EXCLUSIVE`: an account being created elsewhere is waited for, then
 * seen) and creates only into an empty table; any other locks its
 * inviter's row (`FOR SHARE`), so a disable or demotion in flight is waited
 * for and then seen.
 *
 * The link is read first for its name, whose folded key the account stores
 * (folding is JavaScript's); a dead link is answered without a write.
 */
export async function acceptInvitation(
  t: PgTables,
  tokenHash: string,
  acceptance: InvitationAcceptance,
): Promise<UserRecord | null> {
  const { now, session } = acceptance;
  const link = await findLink(t, tokenHash, "invitation", now);
  if (link === null) return null;
  const granters = acceptance.granters === undefined
    ? null
    : [...acceptance.granters];
  const [row] = await t.sql`
    SELECT id, email, name, role, disabled, created_at
    FROM ${t.acceptInvitation}(${tokenHash}, ${now}, ${link.name},
      ${fold(link.name)}, ${granters}::text[], ${acceptance.userId}::uuid,
      ${acceptance.passwordHash}, ${session.tokenHash},
      ${session.id ?? uuidv7(now)}::uuid, ${session.expiresAt},
      ${session.ip ?? ""}, ${session.userAgent ?? ""},
      ${eventsJson(acceptance.events)}::text::jsonb)`;
  return row?.id == null ? null : toUser(row);
}

/**
 * The pending invitations, newest first: unexpired, for an address that
 * has no account (an invitation for a taken address can only die).
 */
export async function listInvitations(
  t: PgTables,
  now: number,
): Promise<LinkRecord[]> {
  const rows = await t.sql`
    SELECT * FROM ${t.links} l
    WHERE kind = 'invitation' AND expires_at > ${now}
      AND NOT EXISTS (
        SELECT 1 FROM ${t.users} u WHERE u.email_key = l.email_key)
    ORDER BY created_at DESC, id DESC`;
  return rows.map(toLink);
}

/**
 * Deletes a pending invitation within reach and returns it. The invitation
 * is read first: its events are made from it (its address and role), and
 * the reach rule decides on it. A link record never changes (a replacing
 * invitation gets its own token and id), so the DELETE of that token and id
 * removes exactly what was read, or nothing when another revocation or a
 * replacement came first.
 */
export async function revokeInvitation(
  t: PgTables,
  id: string,
  revocation: InvitationRevocation,
): Promise<LinkRecord> {
  if (!isUuid(id)) throw new AuthError("invitation_not_found");
  const { now } = revocation;
  const [pending] = await t.sql`
    SELECT * FROM ${t.links}
    WHERE id = ${id} AND kind = 'invitation' AND expires_at > ${now}`;
  if (pending === undefined) throw new AuthError("invitation_not_found");
  const invitation = toLink(pending);
  if (!withinReach(revocation.reachableRoles, invitation.role)) {
    throw new AuthError("role_beyond_reach", {
      message:
        `You may not revoke an invitation for the role "${invitation.role}"`,
    });
  }
  const events = revocation.events?.(invitation);
  const [row] = await t.sql`
    WITH d AS (
      DELETE FROM ${t.links}
      WHERE token_hash = ${invitation.tokenHash} AND id = ${id}
        AND kind = 'invitation'
      RETURNING 1
    ), e AS (
      SELECT ${t.insertEvents}(${eventsJson(events)}::text::jsonb)
      WHERE EXISTS (SELECT 1 FROM d)
    )
    SELECT (SELECT count(*) FROM d) AS deleted,
      (SELECT count(*) FROM e) AS written`;
  if (Number(row!.deleted) === 0) {
    throw new AuthError("invitation_not_found");
  }
  return invitation;
}

/**
 * Spends a reset link and, if its account is enabled and still at the
 * generation the link was issued for, sets the password, moves the
 * generation (every other reset link dies) and deletes every session: one
 * call of the schema's `confirm_reset` function (_migrations.ts), which locks
 * the account's row before the link.
 */
export async function confirmReset(
  t: PgTables,
  tokenHash: string,
  confirmation: ResetConfirmation,
): Promise<UserRecord | null> {
  const [row] = await t.sql`
    SELECT id, email, name, role, disabled, created_at
    FROM ${t.confirmReset}(${tokenHash}, ${confirmation.now},
      ${confirmation.passwordHash},
      ${eventsJson(confirmation.events)}::text::jsonb)`;
  return row?.id == null ? null : toUser(row);
}

function toLink(row: postgres.Row): LinkRecord {
  return {
    tokenHash: row.token_hash,
    id: row.id,
    kind: row.kind,
    email: row.email,
    emailKey: row.email_key,
    name: row.name,
    role: row.role,
    userId: row.user_id ?? "",
    invitedBy: row.invited_by ?? "",
    generation: row.generation,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
