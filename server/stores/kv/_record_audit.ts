// Audit events in KvRecords: the index entries an event is written with
// (so each filter of the log is one reverse range read), and the page
// `events(query)` answers from the index that matches the filter. The
// reach filter is not here: the rules apply it.

import type { AuditEvent, EventQuery } from "../../core/records.ts";
import { getAll, type RecordKeys } from "./_record_keys.ts";

// An event that names no account (a failed sign-in or a reset request for
// an unknown address) is indexed under this id as if it named one, so that
// it writes as many keys as the same event for a known account: the store
// work must not tell the two apart (DESIGN.md §5, equal work). No filter
// reaches it: user ids in queries are UUIDs.
const NO_ACCOUNT = "";

/**
 * The fields of an event, beside its id, that {@linkcode eventIndexKeys}
 * reads: what its sweep note keeps so the sweep finds these entries.
 */
export const EVENT_INDEX_FIELDS = ["type", "actorId", "targetId"] as const;

/**
 * The index entries of `event` (each holds null): by type, and by each
 * account it names (actor, target) alone and with the type.
 */
export function eventIndexKeys(
  k: RecordKeys,
  event: AuditEvent,
): Deno.KvKey[] {
  const keys = [k.eventOfType(event.type, event.id)];
  const named = [event.actorId, event.targetId].filter((id): id is string =>
    id !== null
  );
  for (const user of new Set(named.length === 0 ? [NO_ACCOUNT] : named)) {
    keys.push(
      k.eventOfUser(user, event.id),
      k.eventOfUserType(user, event.type, event.id),
    );
  }
  return keys;
}

/**
 * A page of events, newest first (by id), from the index that matches the
 * query: one reverse range read of ids, then the events by key.
 */
export async function listEvents(
  kv: Deno.Kv,
  k: RecordKeys,
  query: EventQuery,
): Promise<AuditEvent[]> {
  if (query.limit <= 0) return [];
  const prefix = query.userId !== undefined
    ? query.type !== undefined
      ? k.eventsOfUserType(query.userId, query.type)
      : k.eventsOfUser(query.userId)
    : query.type !== undefined
    ? k.eventsOfType(query.type)
    : k.records("event");
  const selector: Deno.KvListSelector = query.cursor === undefined
    ? { prefix }
    : { prefix, end: [...prefix, query.cursor] };
  const options = { reverse: true, limit: query.limit };
  // The unfiltered index is the event records themselves: one read.
  if (query.userId === undefined && query.type === undefined) {
    const events: AuditEvent[] = [];
    for await (const entry of kv.list<AuditEvent>(selector, options)) {
      events.push(entry.value);
    }
    return events;
  }
  const ids: string[] = [];
  for await (const entry of kv.list(selector, options)) {
    ids.push(entry.key[entry.key.length - 1] as string);
  }
  const entries = await getAll(kv, ids.map((id) => k.record("event", id)));
  // An entry whose event is gone (swept between the two reads) is skipped.
  return entries.map((entry) => entry.value as AuditEvent | null)
    .filter((event): event is AuditEvent => event !== null);
}
