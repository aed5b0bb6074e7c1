// The audit trail over a RecordStore: events that record no change (a
// refusal), pages newest first (the store filters by account and type; the
// reach rule is applied here, on the accounts' roles now), and the
// reaper's deletion. Events of a change are written in its own commit by
// the rule that makes it.

import { eventWithinReach } from "./_audit_reach.ts";
import { committing, unchanged } from "./_commit.ts";
import { readAsActor } from "./_actor.ts";
import type {
  AccountRecord,
  AuditEvent,
  EventQuery,
  RecordStore,
  Versioned,
} from "../records.ts";
import type {
  AuditPage,
  AuditQuery,
  AuditReach,
  EventRecording,
  Store,
} from "../store.ts";
import { assertWithinReach } from "../_roles.ts";
import { AuthError } from "../../http/errors.ts";

// Events one commit writes at most, within a commit's 300 writes (a store
// may add index entries of its own to each).
const EVENT_BATCH = 100;

// Events read from the store at a time while looking for those within a
// reader's reach: a page and one more at least, so that a reader who sees
// everything needs one read, and more when few pass.
const REACH_READ_MIN = 20;

/**
 * The audit operations of `Store`, decided over `records`.
 *
 * @example Reading the newest events an administrator may see
 * ```ts
 * import { auditRules } from "./audit.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function newest(records: RecordStore, self: string) {
 *   const audit = auditRules(records);
 *   const page = await audit.listAuditEvents({
 *     limit: 20,
 *     reach: { self, roles: ["member"] },
 *   });
 *   return page.events;
 * }
 * ```
 */
export function auditRules(
  records: RecordStore,
): Pick<Store, "recordEvents" | "listAuditEvents" | "deleteExpiredEvents"> {
  return {
    recordEvents: (events, options = {}) =>
      options.actor === undefined && options.target === undefined
        ? recordEvents(records, events)
        : recordEventsAs(records, events, options),
    listAuditEvents: (query) => listAuditEvents(records, query),
    // "Older than `before`": event times are whole milliseconds, and the
    // store deletes at or before the time it is given.
    deleteExpiredEvents: (before, limit) =>
      records.deleteExpired("event", before - 1, limit),
  };
}

/** Writes events that record no change, a batch a commit. */
async function recordEvents(
  records: RecordStore,
  events: readonly AuditEvent[],
): Promise<void> {
  for (let i = 0; i < events.length; i += EVENT_BATCH) {
    const done = await records.commit({
      events: events.slice(i, i + EVENT_BATCH),
    });
    if (!done) throw new Error("Cannot record audit events");
  }
}

/**
 * Writes events in one commit, only while the actor still stands and the
 * target is within its reach: an act decided on a read taken before (an
 * unlock's) holds only if that read still holds when it is recorded.
 */
function recordEventsAs(
  records: RecordStore,
  events: readonly AuditEvent[],
  { actor, target }: EventRecording,
): Promise<void> {
  return committing(records, async () => {
    const refs = target === undefined
      ? []
      : [{ kind: "account" as const, key: target.id }];
    const { found: [account = null], checks } = await readAsActor<
      [AccountRecord]
    >(records, refs, actor);
    if (target === undefined) {
      return { commit: { checks, events }, result: undefined };
    }
    if (account === null) throw new AuthError("user_not_found");
    assertWithinReach(
      target.reachableRoles,
      account.value.role,
      `You may not act on an account with the role "${account.value.role}"`,
    );
    return {
      commit: {
        checks: [unchanged("account", target.id, account), ...checks],
        events,
      },
      result: undefined,
    };
  });
}

// The store's query for `query`'s filters, `limit` events after `cursor`.
function eventQuery(
  query: AuditQuery,
  limit: number,
  cursor: string | undefined,
): EventQuery {
  return {
    limit,
    ...(cursor === undefined ? {} : { cursor }),
    ...(query.userId === undefined ? {} : { userId: query.userId }),
    ...(query.type === undefined ? {} : { type: query.type }),
  };
}

/** A page of events, newest first, within the query's reach if it has one. */
async function listAuditEvents(
  records: RecordStore,
  query: AuditQuery,
): Promise<AuditPage> {
  if (query.reach !== undefined) {
    return await listWithinReach(records, query, query.reach);
  }
  const found = await records.events(
    eventQuery(query, query.limit + 1, query.cursor),
  );
  const events = found.slice(0, query.limit);
  return {
    events,
    nextCursor: found.length > query.limit ? events.at(-1)!.id : null,
  };
}

// A reach cannot be a store filter: the store's pages are read on, each
// named account's role read once (one read a page), until a page and one
// more pass or the store has no more. The cursor is the last event shown:
// the ones between it and the next that passes are beyond reach on every
// read.
async function listWithinReach(
  records: RecordStore,
  query: AuditQuery,
  reach: AuditReach,
): Promise<AuditPage> {
  const { limit } = query;
  const batch = Math.max(limit + 1, REACH_READ_MIN);
  const roles = new Map<string, string | undefined>();
  const seen: AuditEvent[] = [];
  let cursor = query.cursor;
  while (seen.length <= limit) {
    const found = await records.events(eventQuery(query, batch, cursor));
    await learnRoles(records, found, reach, roles);
    for (const event of found) {
      if (eventWithinReach(event, reach, (id) => roles.get(id))) {
        seen.push(event);
        if (seen.length > limit) break;
      }
    }
    if (found.length < batch) break;
    cursor = found.at(-1)!.id;
  }
  const events = seen.slice(0, limit);
  return {
    events,
    nextCursor: seen.length > limit ? events.at(-1)!.id : null,
  };
}

// Reads, in one read, the current roles of the accounts `events` name that
// are not known yet (undefined: no such account).
async function learnRoles(
  records: RecordStore,
  events: readonly AuditEvent[],
  reach: AuditReach,
  roles: Map<string, string | undefined>,
): Promise<void> {
  const unknown = [
    ...new Set(events.flatMap((e) => [e.actorId, e.targetId])),
  ].filter((id): id is string =>
    id !== null && id !== reach.self && !roles.has(id)
  );
  if (unknown.length === 0) return;
  const accounts = await records.read(
    unknown.map((key) => ({ kind: "account" as const, key })),
  ) as (Versioned<AccountRecord> | null)[];
  unknown.forEach((id, i) => roles.set(id, accounts[i]?.value.role));
}
