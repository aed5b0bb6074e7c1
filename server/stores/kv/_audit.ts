// Audit events in KvStore: written into the commit of the change they
// record (`addEvents`), or on their own for refusals; listed newest first
// by one reverse range read of the index that matches the filter (read on
// past events beyond a reader's reach); swept by the reaper from the oldest
// id.

import type {
  AuditEvent,
  AuditPage,
  AuditQuery,
  AuditReach,
} from "../../core/store.ts";
import { eventWithinReach } from "../_audit_reach.ts";
import { commit } from "./_atomic.ts";
import type { KvKeys, UserValue } from "./_keys.ts";

// An event is at most six mutations (record, two user entries, type entry,
// two user-and-type entries): 100 events stay within KV's 1000.
const EVENT_BATCH = 100;

// An event that names no account (a failed sign-in or a reset request for
// an unknown address) is indexed under this id as if it named one, so that
// it writes as many keys as the same event for a known account: the store
// work must not tell the two apart (DESIGN.md §5, equal work). No filter
// reaches it: user ids in queries are UUIDs.
const NO_ACCOUNT = "";

/** The keys an event is stored under: the record and its index entries. */
function indexKeys(k: KvKeys, event: AuditEvent): Deno.KvKey[] {
  const keys = [k.auditType(event.type, event.id)];
  const named = [event.actorId, event.targetId].filter((id): id is string =>
    id !== null
  );
  const users = new Set(named.length === 0 ? [NO_ACCOUNT] : named);
  for (const user of users) {
    keys.push(
      k.auditUser(user, event.id),
      k.auditUserType(user, event.type, event.id),
    );
  }
  return keys;
}

/** Adds the writes of `events` to `op`, the commit of their change. */
export function addEvents(
  op: Deno.AtomicOperation,
  k: KvKeys,
  events: readonly AuditEvent[] | undefined,
): Deno.AtomicOperation {
  for (const event of events ?? []) {
    op.set(k.audit(event.id), event);
    for (const key of indexKeys(k, event)) op.set(key, null);
  }
  return op;
}

/** Writes events that record no change. */
export async function recordEvents(
  kv: Deno.Kv,
  k: KvKeys,
  events: readonly AuditEvent[],
): Promise<void> {
  for (let i = 0; i < events.length; i += EVENT_BATCH) {
    const result = await commit(
      addEvents(kv.atomic(), k, events.slice(i, i + EVENT_BATCH)),
    );
    if (!result.ok) throw new Error("Cannot record audit events");
  }
}

// Deno KV reads at most 10 keys per getMany.
const READ_BATCH = 10;

/** A page of events, newest first, from the index that matches the query. */
export async function listAuditEvents(
  kv: Deno.Kv,
  k: KvKeys,
  query: AuditQuery,
): Promise<AuditPage> {
  const prefix = query.userId !== undefined
    ? query.type !== undefined
      ? k.auditsOfUserType(query.userId, query.type)
      : k.auditsOfUser(query.userId)
    : query.type !== undefined
    ? k.auditsOfType(query.type)
    : k.audits();
  const selector = query.cursor === undefined
    ? { prefix }
    : { prefix, end: [...prefix, query.cursor] };
  if (query.reach !== undefined) {
    return await listWithinReach(kv, k, selector, query.limit, query.reach);
  }
  const ids: string[] = [];
  for await (
    const entry of kv.list(selector, {
      reverse: true,
      limit: query.limit + 1,
    })
  ) {
    ids.push(entry.key[entry.key.length - 1] as string);
  }
  const more = ids.length > query.limit;
  const page = ids.slice(0, query.limit);
  const events: AuditEvent[] = [];
  for (let i = 0; i < page.length; i += READ_BATCH) {
    const keys = page.slice(i, i + READ_BATCH).map((id) => k.audit(id));
    for (const { value } of await kv.getMany<AuditEvent[]>(keys)) {
      if (value !== null) events.push(value);
    }
  }
  return { events, nextCursor: more ? page[page.length - 1]! : null };
}

// A reach filter cannot be an index: the same range is read on, ten events
// at a time, each named account's role read once, until a page and one
// more are seen or the range ends. The cursor is the last event shown: the
// ones between it and the next seen are beyond reach on every read.
async function listWithinReach(
  kv: Deno.Kv,
  k: KvKeys,
  selector: Deno.KvListSelector,
  limit: number,
  reach: AuditReach,
): Promise<AuditPage> {
  const roles = new Map<string, string | undefined>();
  const seen: AuditEvent[] = [];
  const read = async (ids: readonly string[]) => {
    const batch: AuditEvent[] = [];
    const keys = ids.map((id) => k.audit(id));
    for (const { value } of await kv.getMany<AuditEvent[]>(keys)) {
      if (value !== null) batch.push(value);
    }
    const unknown = [
      ...new Set(batch.flatMap((e) => [e.actorId, e.targetId])),
    ].filter((id): id is string =>
      id !== null && id !== reach.self && !roles.has(id)
    );
    for (let i = 0; i < unknown.length; i += READ_BATCH) {
      const some = unknown.slice(i, i + READ_BATCH);
      const users = await kv.getMany<UserValue[]>(some.map((id) => k.user(id)));
      some.forEach((id, j) => roles.set(id, users[j]!.value?.role));
    }
    for (const event of batch) {
      if (eventWithinReach(event, reach, (id) => roles.get(id))) {
        seen.push(event);
      }
    }
  };
  let ids: string[] = [];
  for await (const entry of kv.list(selector, { reverse: true })) {
    ids.push(entry.key[entry.key.length - 1] as string);
    if (ids.length < READ_BATCH) continue;
    await read(ids);
    ids = [];
    if (seen.length > limit) break;
  }
  if (seen.length <= limit && ids.length > 0) await read(ids);
  const events = seen.slice(0, limit);
  return {
    events,
    nextCursor: seen.length > limit ? events[events.length - 1]!.id : null,
  };
}

/** Deletes up to `limit` events older than `before`, oldest first. */
export async function deleteExpiredEvents(
  kv: Deno.Kv,
  k: KvKeys,
  before: number,
  limit: number,
): Promise<number> {
  const expired: AuditEvent[] = [];
  for await (
    const entry of kv.list<AuditEvent>({ prefix: k.audits() }, { limit })
  ) {
    // Ids are UUIDv7 of `at`: the first one not expired ends the sweep.
    if (entry.value.at >= before) break;
    expired.push(entry.value);
  }
  for (let i = 0; i < expired.length; i += EVENT_BATCH) {
    const op = kv.atomic();
    for (const event of expired.slice(i, i + EVENT_BATCH)) {
      op.delete(k.audit(event.id));
      for (const key of indexKeys(k, event)) op.delete(key);
    }
    await commit(op);
  }
  return expired.length;
}
