// Audit events in PostgresStore. A change hands its events to the statement
// or function that makes it, as one JSON array (`eventsJson`), which the
// schema's `insert_events` function writes in the same transaction; pages
// are index range reads by id (UUIDv7, so time order), newest first, past
// the events beyond a reader's reach.

import type postgres from "postgres";
import { isUuid } from "../../core/_crypto.ts";
import type {
  AuditEvent,
  AuditPage,
  AuditQuery,
  AuditReach,
} from "../../core/store.ts";
import type { PgTables } from "./_tables.ts";

/** The events as the JSON array `insert_events` reads, or null for none. */
export function eventsJson(
  events: readonly AuditEvent[] | undefined,
): string | null {
  if (events === undefined || events.length === 0) return null;
  return JSON.stringify(events.map((e) => ({
    id: e.id,
    type: e.type,
    at: e.at,
    actor_id: e.actorId,
    actor_email: e.actorEmail,
    target_id: e.targetId,
    target_email: e.targetEmail,
    ip: e.ip,
    user_agent: e.userAgent,
    detail: e.detail,
  })));
}

/**
 * A select-list item that writes `events` when the statement's CTE changed
 * a row: `SELECT count(*) AS n, ${eventsIfChanged(t, events)} FROM changed`
 * makes the change and its events one statement, or neither.
 */
export function eventsIfChanged(
  t: Pick<PgTables, "sql" | "insertEvents">,
  events: readonly AuditEvent[] | undefined,
): postgres.PendingQuery<postgres.Row[]> {
  return t.sql`CASE WHEN count(*) > 0
    THEN ${t.insertEvents}(${eventsJson(events)}::text::jsonb) END`;
}

/** Writes events that record no change: one statement. */
export async function recordEvents(
  t: PgTables,
  events: readonly AuditEvent[],
): Promise<void> {
  const json = eventsJson(events);
  if (json !== null) {
    await t.sql`SELECT ${t.insertEvents}(${json}::text::jsonb)`;
  }
}

/** A page of events, newest first. */
export async function listAuditEvents(
  t: PgTables,
  query: AuditQuery,
): Promise<AuditPage> {
  const { sql } = t;
  const cursor = query.cursor ?? null;
  if (cursor !== null && !isUuid(cursor)) {
    throw new TypeError(`Invalid cursor: "${cursor.slice(0, 64)}"`);
  }
  const user = query.userId ?? null;
  if (user !== null && !isUuid(user)) return { events: [], nextCursor: null };
  const before = cursor === null ? sql`` : sql`AND id < ${cursor}::uuid`;
  const type = query.type === undefined ? sql`` : sql`AND type = ${query.type}`;
  const within = withinReach(t, query.reach);
  const limit = query.limit + 1;
  // Actor and target each have an index; the union of the two ranges
  // keeps a page an index read, where an OR would scan.
  const rows = user === null
    ? await sql`
      SELECT * FROM ${t.auditEvents} AS e WHERE true ${before} ${type}
        ${within}
      ORDER BY id DESC LIMIT ${limit}`
    : await sql`
      SELECT * FROM (
        (SELECT * FROM ${t.auditEvents} AS e WHERE actor_id = ${user}::uuid
          ${before} ${type} ${within} ORDER BY id DESC LIMIT ${limit})
        UNION
        (SELECT * FROM ${t.auditEvents} AS e WHERE target_id = ${user}::uuid
          ${before} ${type} ${within} ORDER BY id DESC LIMIT ${limit})
      ) AS e ORDER BY id DESC LIMIT ${limit}`;
  const events = rows.slice(0, query.limit).map(toEvent);
  return {
    events,
    nextCursor: rows.length > query.limit
      ? events[events.length - 1]!.id
      : null,
  };
}

// The reach rule of `AuditReach` (store.ts) in SQL, as
// `eventWithinReach` (../_audit_reach.ts) states it for KV: each account
// the event `e` names is the reader, or a stored account whose role is
// empty or one of the reachable roles.
function withinReach(
  t: Pick<PgTables, "sql" | "users">,
  reach: AuditReach | undefined,
): postgres.PendingQuery<postgres.Row[]> {
  const { sql } = t;
  if (reach === undefined) return sql``;
  // Not a UUID: no stored account is the reader.
  const self = isUuid(reach.self) ? reach.self : null;
  const roles = [...reach.roles];
  const seen = (id: postgres.PendingQuery<postgres.Row[]>) =>
    sql`(${id} IS NULL OR ${id} = ${self}::uuid OR EXISTS (
      SELECT 1 FROM ${t.users} AS u WHERE u.id = ${id}
        AND (u.role = '' OR u.role = ANY(${roles}::text[]))))`;
  return sql`AND ${seen(sql`e.actor_id`)} AND ${seen(sql`e.target_id`)}`;
}

/** Deletes up to `limit` events older than `before`. */
export async function deleteExpiredEvents(
  t: PgTables,
  before: number,
  limit: number,
): Promise<number> {
  const result = await t.sql`
    DELETE FROM ${t.auditEvents} WHERE id = ANY(ARRAY(
      SELECT id FROM ${t.auditEvents} WHERE at < ${before}
      LIMIT ${limit} FOR UPDATE SKIP LOCKED))`;
  return result.count;
}

function toEvent(row: postgres.Row): AuditEvent {
  return {
    id: row.id,
    type: row.type,
    at: Number(row.at),
    actorId: row.actor_id,
    actorEmail: row.actor_email,
    targetId: row.target_id,
    targetEmail: row.target_email,
    ip: row.ip,
    userAgent: row.user_agent,
    detail: row.detail,
  };
}
