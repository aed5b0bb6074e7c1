// Sessions in PostgresStore: creating one bound to the credential it was
// verified against and within the account's cap, the hot-path read, use and
// re-authentication times, listing, and ending them one, all-but-one or all
// at once, each in one statement or one function call (no client-side
// transaction on a request path).

import type postgres from "postgres";
import { isUuid, uuidv7 } from "../../core/_crypto.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  NewSession,
  PasswordChange,
  SessionLookup,
  SessionRecord,
  SessionsRevocation,
  UserRecord,
  WithEvents,
} from "../../core/store.ts";
import { eventsIfChanged, eventsJson } from "./_audit.ts";
import { toFactors } from "./_factor_tables.ts";
import { type PgTables, toUser } from "./_tables.ts";

/**
 * Records a session if the account is enabled and has the expected
 * generation, ending its sessions that would end first beyond
 * `maxSessions`: one call of the schema's `create_session_v5` function
 * (_migrations.ts), which also writes the events and checks the factor
 * version a second factor was verified under.
 *
 * The function locks the account's row first (`FOR NO KEY UPDATE`): a
 * disable or a reset in flight is waited for and then seen, and the
 * sign-ins of one account run one after another, each counting (a VOLATILE
 * function reads afresh at each statement) the sessions the ones before it
 * committed. A single SQL statement with CTEs would count from the snapshot
 * taken before the lock was granted, and miss them; a client-side
 * transaction would put the sign-in path at the mercy of the driver when a
 * connection drops mid-transaction.
 */
export async function createSession(
  t: PgTables,
  session: NewSession,
): Promise<boolean> {
  if (!isUuid(session.userId)) return false;
  const [row] = await t.sql`
    SELECT ${t.createSession}(${session.tokenHash},
      ${session.id ?? uuidv7(session.createdAt)}::uuid, ${session.userId},
      ${session.createdAt}, ${session.expiresAt},
      ${session.expectedGeneration ?? null}::integer,
      ${session.maxSessions ?? null}::integer, ${session.ip ?? ""},
      ${session.userAgent ?? ""}, ${eventsJson(session.events)}::text::jsonb,
      ${session.expectedFactorVersion ?? null}::integer) AS created`;
  return row?.created === true;
}

/**
 * The hot path: one prepared query joining the session to its account,
 * whose row carries its second factors (kept by triggers): two primary-key
 * probes, no other table, and one query for all the checks waiting at the
 * same moment. A session of another account than the one the token names
 * is refused.
 */
export async function findSession(
  t: PgTables,
  tokenHash: string,
  now: number,
  userId?: string,
): Promise<SessionLookup | null> {
  const row = await t.sessionRow(tokenHash);
  if (row === undefined || (userId !== undefined && row.id !== userId)) {
    return null;
  }
  const expiresAt = Number(row.expires_at);
  if (expiresAt <= now) return null;
  return {
    // The statement reads enabled accounts only.
    user: {
      id: row.id,
      email: row.email,
      name: row.name,
      role: row.role,
      disabled: false,
      createdAt: Number(row.created_at),
    },
    id: row.session_id,
    createdAt: Number(row.session_created_at),
    expiresAt,
    lastSeenAt: Number(row.last_seen_at),
    authenticatedAt: Number(row.authenticated_at),
    factors: toFactors(row),
  };
}

/** Sets `last_seen_at` if later; a deleted session stays deleted. */
export async function touchSession(
  t: PgTables,
  tokenHash: string,
  at: number,
): Promise<void> {
  await t.sql`
    UPDATE ${t.sessions} SET last_seen_at = ${at}
    WHERE token_hash = ${tokenHash} AND last_seen_at < ${at}`;
}

/** The account's live sessions, newest first: one index range read. */
export async function listSessions(
  t: PgTables,
  userId: string,
  now: number,
): Promise<SessionRecord[]> {
  if (!isUuid(userId)) return [];
  const rows = await t.sql`
    SELECT s.id, s.created_at, s.expires_at, s.last_seen_at,
      s.authenticated_at, s.ip, s.user_agent
    FROM ${t.sessions} s JOIN ${t.users} u ON u.id = s.user_id
    WHERE s.user_id = ${userId} AND s.expires_at > ${now}
      AND NOT u.disabled AND u.generation = s.generation
    ORDER BY s.created_at DESC, s.id DESC`;
  return rows.map((row: postgres.Row) => ({
    id: row.id,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    lastSeenAt: Number(row.last_seen_at),
    authenticatedAt: Number(row.authenticated_at),
    ip: row.ip,
    userAgent: row.user_agent,
  }));
}

/** Deletes one session and writes the events if it existed. */
export async function deleteSession(
  t: PgTables,
  tokenHash: string,
  options: WithEvents = {},
): Promise<boolean> {
  const [row] = await t.sql`
    WITH d AS (
      DELETE FROM ${t.sessions} WHERE token_hash = ${tokenHash} RETURNING 1
    )
    SELECT count(*) AS n,
      ${eventsIfChanged(t, options.events)}
    FROM d`;
  return Number(row?.n) > 0;
}

/** Deletes the session `sessionId` of `userId`; whether one was deleted. */
export async function deleteSessionById(
  t: PgTables,
  userId: string,
  sessionId: string,
  options: WithEvents = {},
): Promise<boolean> {
  if (!isUuid(userId) || !isUuid(sessionId)) return false;
  const [row] = await t.sql`
    WITH d AS (
      DELETE FROM ${t.sessions}
      WHERE id = ${sessionId} AND user_id = ${userId} RETURNING 1
    )
    SELECT count(*) AS n,
      ${eventsIfChanged(t, options.events)}
    FROM d`;
  return Number(row?.n) > 0;
}

/**
 * Deletes every session of `userId` but one, with the events: one
 * statement. Nothing deleted, nothing written: the events record a change.
 */
export async function deleteOtherSessions(
  t: PgTables,
  userId: string,
  keepTokenHash: string,
  options: WithEvents = {},
): Promise<number> {
  if (!isUuid(userId)) return 0;
  const [row] = await t.sql`
    WITH d AS (
      DELETE FROM ${t.sessions}
      WHERE user_id = ${userId} AND token_hash <> ${keepTokenHash}
      RETURNING 1
    )
    SELECT count(*) AS n,
      ${eventsIfChanged(t, options.events)}
    FROM d`;
  return Number(row?.n);
}

/**
 * Ends every session of an account: its generation moves, under the reach
 * rule, with the events; the dead rows go in the same statement. When
 * nothing was updated, the read of the statement's snapshot tells an
 * unknown account from one out of reach.
 */
export async function revokeUserSessions(
  t: PgTables,
  userId: string,
  revocation: SessionsRevocation,
): Promise<UserRecord> {
  if (!isUuid(userId)) throw new AuthError("user_not_found");
  const reach = revocation.reachableRoles === undefined
    ? null
    : [...revocation.reachableRoles];
  const [row] = await t.sql`
    WITH u AS (
      UPDATE ${t.users} SET generation = generation + 1
      WHERE id = ${userId} AND (role = '' OR ${reach}::text[] IS NULL
        OR role = ANY(${reach}::text[]))
      RETURNING id, email, name, role, disabled, created_at
    ), d AS (
      DELETE FROM ${t.sessions} WHERE user_id IN (SELECT id FROM u)
    ), e AS (
      SELECT ${t.insertEvents}(${eventsJson(revocation.events)}::text::jsonb)
      WHERE EXISTS (SELECT 1 FROM u)
    )
    SELECT u.*, (SELECT count(*) FROM e) AS written,
      (SELECT role FROM ${t.users} WHERE id = ${userId}) AS stored_role
    FROM (SELECT 1) AS one LEFT JOIN u ON true`;
  if (row?.id != null) return toUser(row);
  if (row?.stored_role == null) throw new AuthError("user_not_found");
  throw new AuthError("role_beyond_reach", {
    message: `You may not act on an account with the role "${row.stored_role}"`,
  });
}

/** Renews the proof of identity of a live session, with the events. */
export async function renewAuthentication(
  t: PgTables,
  tokenHash: string,
  now: number,
  options: WithEvents = {},
): Promise<boolean> {
  const [row] = await t.sql`
    WITH r AS (
      UPDATE ${t.sessions} s SET authenticated_at = ${now},
        last_seen_at = GREATEST(s.last_seen_at, ${now})
      FROM ${t.users} u
      WHERE s.token_hash = ${tokenHash} AND u.id = s.user_id
        AND s.expires_at > ${now} AND NOT u.disabled
        AND u.generation = s.generation
      RETURNING 1
    ), e AS (
      SELECT ${t.insertEvents}(${eventsJson(options.events)}::text::jsonb)
      WHERE EXISTS (SELECT 1 FROM r)
    )
    SELECT (SELECT count(*) FROM r) AS n, (SELECT count(*) FROM e) AS written`;
  return Number(row?.n) > 0;
}

/** A password change with its fresh session: one call of `change_password`. */
export async function changePassword(
  t: PgTables,
  change: PasswordChange,
): Promise<boolean> {
  if (!isUuid(change.userId)) return false;
  const { session } = change;
  const [row] = await t.sql`
    SELECT ${t.changePassword}(${change.userId}::uuid,
      ${change.expectedGeneration}::integer, ${change.passwordHash},
      ${session.tokenHash}, ${session.id}::uuid, ${session.createdAt},
      ${session.expiresAt}, ${session.ip}, ${session.userAgent},
      ${eventsJson(change.events)}::text::jsonb) AS changed`;
  return row?.changed === true;
}
