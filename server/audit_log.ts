/**
 * Reading the audit trail (DESIGN.md §10): `GET /api/audit` pages every
 * event for administrators, filtered by account (as actor or target) and
 * type; `GET /api/auth/activity` pages the caller's own. Both newest first,
 * `{events, next_cursor}`.
 *
 * @module
 */

import type { AuditEventJson, AuditEventPageJson } from "@gatehouse/contract";
import { readAuditQuery } from "./_input.ts";
import { AuthError } from "./errors.ts";
import { type Handler, type Middleware, NO_STORE, respond } from "./http.ts";
import { identityFromContext } from "./identity.ts";
import type { AuditEvent, AuditPage, Store } from "./store.ts";

const SESSION_ABSENT = new AuthError("session_absent");

/** `GET /api/audit?limit&cursor&user_id&type` (behind the privileged guard). */
export function listAuditEventsHandler(
  store: Store,
  answering: Middleware,
): Handler {
  return answering(async function listAuditEvents(req) {
    if (identityFromContext(req) === null) throw SESSION_ABSENT;
    const page = await store.listAuditEvents(readAuditQuery(new URL(req.url)));
    return respond(toPageJson(page), { headers: NO_STORE });
  });
}

/** `GET /api/auth/activity?limit&cursor`: the caller's own events. */
export function listActivityHandler(
  store: Store,
  answering: Middleware,
): Handler {
  return answering(async function listActivity(req) {
    const identity = identityFromContext(req);
    if (identity === null) throw SESSION_ABSENT;
    const query = readAuditQuery(new URL(req.url), identity.id);
    return respond(toPageJson(await store.listAuditEvents(query)), {
      headers: NO_STORE,
    });
  });
}

function toPageJson(page: AuditPage): AuditEventPageJson {
  return { events: page.events.map(toEventJson), next_cursor: page.nextCursor };
}

/** An event as the wire shows it: ISO time, accounts as `{id, email}`, string details. */
export function toEventJson(event: AuditEvent): AuditEventJson {
  const account = (id: string | null, email: string | null) =>
    id === null ? null : { id, email: email ?? "" };
  const detail: Record<string, string> = {};
  for (const [key, value] of Object.entries(event.detail)) {
    if (value !== null) detail[key] = String(value);
  }
  return {
    id: event.id,
    type: event.type,
    at: new Date(event.at).toISOString(),
    actor: account(event.actorId, event.actorEmail),
    target: account(event.targetId, event.targetEmail),
    ip: event.ip,
    user_agent: event.userAgent,
    detail,
  };
}
