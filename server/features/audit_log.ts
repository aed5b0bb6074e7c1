/**
 * Reading the audit trail (DESIGN.md §10): `GET /api/audit` pages the
 * events an administrator may read, filtered by account (as actor or
 * target; by id or by address) and type; `GET /api/auth/activity` pages
 * the caller's own. Both newest first, `{events, next_cursor}`.
 *
 * Reach (DESIGN.md §5) covers reads as it covers writes: an administrator
 * reads an event only when every account it names, actor and target, is
 * itself or an account whose current role it may grant (or has no role);
 * events that name no account (a failed sign-in for an unknown address)
 * are read by every administrator. The store applies the rule
 * (`AuditQuery.reach`), so a page is still full and its cursor still pages.
 *
 * One's own activity names who acted only when it was oneself: an action
 * of another account (an administrator's) on the caller shows as an
 * unnamed actor (`{id: null, email: null}`), without its address or
 * browser.
 *
 * @module
 */

import type { AuditEventJson, AuditEventPageJson } from "@gatehouse/contract";
import type { GatehouseContext } from "../core/context.ts";
import { readAuditEmail, readAuditQuery } from "../core/_input.ts";
import { defineOperation, type Operation } from "../core/operation.ts";
import { NO_STORE, respond } from "../http/respond.ts";
import type { AuditEvent, AuditPage } from "../core/store.ts";

const NO_EVENTS: AuditEventPageJson = { events: [], next_cursor: null };

/**
 * `GET /api/audit?limit&cursor&user_id&email&type` (behind the privileged
 * guard): the events within the actor's reach. `email` is resolved to the
 * account that has the address now; an address no account has matches no
 * event (an invitation to it is found under the administrator who sent it,
 * whose row shows the invited address).
 */
export function listAuditEventsOperation(context: GatehouseContext): Operation {
  const { store, rules, limits } = context;
  return defineOperation(
    context,
    "listAuditEvents",
    async function listAuditEvents(req, { identity: actor }) {
      const url = new URL(req.url);
      const query = readAuditQuery(url);
      const emailKey = readAuditEmail(url, limits);
      const [roles, account] = await Promise.all([
        rules.reachable(actor),
        emailKey === undefined ? null : store.credentialsByEmail(emailKey),
      ]);
      if (emailKey !== undefined) {
        if (account === null) return respond(NO_EVENTS, { headers: NO_STORE });
        query.userId = account.user.id;
      }
      query.reach = { self: actor.id, roles };
      const page = await store.listAuditEvents(query);
      return respond(toPageJson(page, toEventJson), { headers: NO_STORE });
    },
  );
}

/** `GET /api/auth/activity?limit&cursor`: the caller's own events. */
export function listActivityOperation(context: GatehouseContext): Operation {
  const { store } = context;
  return defineOperation(
    context,
    "listActivity",
    async function listActivity(req, { identity }) {
      const query = readAuditQuery(new URL(req.url), identity.id);
      const page = await store.listAuditEvents(query);
      return respond(
        toPageJson(page, (event) => toOwnEventJson(event, identity.id)),
        { headers: NO_STORE },
      );
    },
  );
}

function toPageJson(
  page: AuditPage,
  toJson: (event: AuditEvent) => AuditEventJson,
): AuditEventPageJson {
  return { events: page.events.map(toJson), next_cursor: page.nextCursor };
}

/**
 * An event as the wire shows it: ISO time, accounts as `{id, email}`,
 * string details (a null detail is left out).
 *
 * @example Shipping an event to a SIEM in the API's own shape
 * ```ts
 * import type { AuditEvent } from "../core/store.ts";
 * import { toEventJson } from "./audit_log.ts";
 *
 * const ship = (event: AuditEvent) => console.log(JSON.stringify(toEventJson(event)));
 * ```
 */
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

/**
 * An event of `self`'s own activity: as `toEventJson`, except that an
 * actor other than `self` (an administrator acting on the account) is not
 * named, and its address and browser are left out. A person sees the
 * network details of their own actions only.
 */
function toOwnEventJson(
  event: AuditEvent,
  self: string,
): AuditEventJson {
  const json = toEventJson(event);
  if (event.actorId === null || event.actorId === self) return json;
  return {
    ...json,
    actor: { id: null, email: null },
    ip: "",
    user_agent: "",
  };
}
