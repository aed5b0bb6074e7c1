// Single-use links in PostgresStore: storing and finding them, spending an
// invitation (the account and its first session, under the inviter's
// authority or, for the first-run link, while no account exists) or a reset
// link (under the generation it was issued for), listing and revoking
// pending invitations, and the reaper's sweep.

import type postgres from "postgres";
import { isUuid, uuidv7 } from "../../_crypto.ts";
import { AuthError } from "../../errors.ts";
import { fold } from "../../_fold.ts";
import type {
  InvitationAcceptance,
  InvitationRevocation,
  LinkKind,
  LinkRecord,
  ResetConfirmation,
  UserRecord,
  WithEvents,
} from "../../store.ts";
import { eventsJson, insertEvents } from "./_audit.ts";
import { type PgTables, toUser, type Tx } from "./_tables.ts";

/** Stores a single-use link. */
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

// Deletes a live link of `kind` and returns it, or null. The DELETE locks
// the row, so of two concurrent spenders one gets it and the other nothing.
// A link of another kind or an expired one is left as it is.
async function spendLink(
  tx: Tx,
  t: PgTables,
  tokenHash: string,
  kind: LinkKind,
  now: number,
): Promise<LinkRecord | null> {
  const [row] = await tx`
    DELETE FROM ${t.links}
    WHERE token_hash = ${tokenHash} AND kind = ${kind} AND expires_at > ${now}
    RETURNING *`;
  return row === undefined ? null : toLink(row);
}

/**
 * Spends an invitation and creates its account and first session in one
 * transaction. A link without inviter locks the accounts table against
 * writers (`SHARE ROW EXCLUSIVE`: an account being created elsewhere is
 * waited for, then seen) and creates only into an empty table; any other
 * locks its inviter's row (`FOR SHARE`), so a disable or demotion in flight
 * is waited for and then seen.
 */
export async function acceptInvitation(
  t: PgTables,
  tokenHash: string,
  acceptance: InvitationAcceptance,
): Promise<UserRecord | null> {
  const { now, session } = acceptance;
  return await t.transaction(async (tx) => {
    const link = await spendLink(tx, t, tokenHash, "invitation", now);
    if (link === null) return null;
    if (!(await authorised(tx, t, link, acceptance.granters))) return null;
    // An address that has an account (or got one since) creates nothing;
    // the link stays spent. This is also how decoy invitations die.
    const created = await tx`
      INSERT INTO ${t.users}
        (id, email, email_key, name, name_key, role, password_hash, created_at)
      VALUES (${acceptance.userId}, ${link.email}, ${link.emailKey},
        ${link.name}, ${fold(link.name)}, ${link.role},
        ${acceptance.passwordHash}, ${now})
      ON CONFLICT (email_key) DO NOTHING`;
    if (created.count === 0) return null;
    await tx`
      INSERT INTO ${t.sessions}
        (token_hash, id, user_id, generation, created_at, expires_at,
          last_seen_at, authenticated_at, ip, user_agent)
      VALUES (${session.tokenHash}, ${session.id ?? uuidv7(now)}::uuid,
        ${acceptance.userId}, 0, ${now}, ${session.expiresAt}, ${now}, ${now},
        ${session.ip ?? ""}, ${session.userAgent ?? ""})`;
    await insertEvents(tx, t, acceptance.events);
    return {
      id: acceptance.userId,
      email: link.email,
      name: link.name,
      role: link.role,
      disabled: false,
      createdAt: now,
    };
  });
}

async function authorised(
  tx: Tx,
  t: PgTables,
  link: LinkRecord,
  granters: readonly string[] | undefined,
): Promise<boolean> {
  if (link.invitedBy === "") {
    await tx`LOCK TABLE ${t.users} IN SHARE ROW EXCLUSIVE MODE`;
    const [row] = await tx`SELECT EXISTS (SELECT 1 FROM ${t.users}) AS found`;
    return row?.found === false;
  }
  const [inviter] = await tx`
    SELECT role, disabled FROM ${t.users}
    WHERE id = ${link.invitedBy} FOR SHARE`;
  return inviter !== undefined && !inviter.disabled &&
    (granters === undefined || granters.includes(inviter.role));
}

/** The pending invitations, newest first. */
export async function listInvitations(
  t: PgTables,
  now: number,
): Promise<LinkRecord[]> {
  const rows = await t.sql`
    SELECT * FROM ${t.links}
    WHERE kind = 'invitation' AND expires_at > ${now}
    ORDER BY created_at DESC, id DESC`;
  return rows.map(toLink);
}

/**
 * Deletes a pending invitation within reach and returns it: one DELETE
 * whose condition holds the reach rule. When it deletes nothing, a read
 * tells an invitation out of reach from one that is not pending.
 */
export async function revokeInvitation(
  t: PgTables,
  id: string,
  revocation: InvitationRevocation,
): Promise<LinkRecord> {
  if (!isUuid(id)) throw new AuthError("invitation_not_found");
  const { now } = revocation;
  const reach = revocation.reachableRoles === undefined
    ? null
    : [...revocation.reachableRoles];
  const [row] = await t.sql`
    WITH d AS (
      DELETE FROM ${t.links}
      WHERE id = ${id} AND kind = 'invitation' AND expires_at > ${now}
        AND (role = '' OR ${reach}::text[] IS NULL
          OR role = ANY(${reach}::text[]))
      RETURNING *
    ), e AS (
      SELECT ${t.insertEvents}(${eventsJson(revocation.events)}::text::jsonb)
      WHERE EXISTS (SELECT 1 FROM d)
    )
    SELECT d.*, (SELECT count(*) FROM e) AS written FROM d`;
  if (row !== undefined) return toLink(row);
  const [pending] = await t.sql`
    SELECT role FROM ${t.links}
    WHERE id = ${id} AND kind = 'invitation' AND expires_at > ${now}`;
  if (pending === undefined) throw new AuthError("invitation_not_found");
  throw new AuthError("role_beyond_reach", {
    message: `You may not revoke an invitation for the role "${pending.role}"`,
  });
}

/**
 * Spends a reset link and, if its account is enabled and still at the
 * generation the link was issued for, sets the password, moves the
 * generation (every other reset link dies) and deletes every session.
 */
export async function confirmReset(
  t: PgTables,
  tokenHash: string,
  confirmation: ResetConfirmation,
): Promise<UserRecord | null> {
  return await t.transaction(async (tx) => {
    const link = await spendLink(tx, t, tokenHash, "reset", confirmation.now);
    if (link === null || link.userId === "") return null;
    const [row] = await tx`
      UPDATE ${t.users}
      SET password_hash = ${confirmation.passwordHash},
        generation = generation + 1
      WHERE id = ${link.userId} AND NOT disabled
        AND generation = ${link.generation}
      RETURNING id, email, name, role, disabled, created_at`;
    if (row === undefined) return null;
    await tx`DELETE FROM ${t.sessions} WHERE user_id = ${row.id}`;
    await insertEvents(tx, t, confirmation.events);
    return toUser(row);
  });
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
