// Making audit events and handing them on (DESIGN.md §10). A change's events
// are made before its store call and written by it, in its commit; once the
// call returned, `committed` hands them to the application's `onEvent`.
// Refusals (`login.failed`, `login.rate_limited`) are written by `refused`
// off the answer's critical path: the answer does not wait for the write,
// and a failed write is logged, never answered. A commit hook (the security
// notices of §14) sees each committed event with the parts it was made
// from, which are kept beside the event, never in it.

import type { AuditEventType } from "@gatehouse/contract";
import { uuidv7 } from "./_crypto.ts";
import type { ClientMeta } from "../http/_client_meta.ts";
import { inBackground } from "../http/_background.ts";
import type { Logger } from "../http/logger.ts";
import type { AuditEvent, Store } from "./store.ts";

/** An account as an event names it. */
export interface EventAccount {
  readonly id: string;
  readonly email: string;
  /** Never stored with the event: a notice greets its reader with it. */
  readonly name?: string;
  /**
   * The language of the account's mail and whether its owner chose it, as
   * read with the account (never stored with the event): a sign-in sets it
   * from the browser until a choice (DESIGN.md §14).
   */
  readonly locale?: string;
  readonly localeChosen?: boolean;
}

/** What an event says beyond its type. */
export interface EventParts {
  /** Who acted; null or absent when no account is known. */
  actor?: EventAccount | null;
  /** The account acted upon; the actor when absent (one's own action). */
  target?: EventAccount | null;
  /** Where the request came from. */
  client: ClientMeta;
  /** Non-secret facts. */
  detail?: AuditEvent["detail"];
}

/** Called with each event once its commit landed. */
export type EventListener = (event: AuditEvent) => void | Promise<void>;

/** Called with each commit's events, and what each was made from. */
export type CommitHook = (
  events: readonly AuditEvent[],
  partsOf: (event: AuditEvent) => EventParts | undefined,
) => void;

/** The events of one configuration: made with its clock, handed to its hook. */
export interface AuditTrail {
  /** An event of `type` at the configured clock's now. */
  event(type: AuditEventType, parts: EventParts): AuditEvent;
  /** Hands committed events to `onEvent`; its failures are logged. */
  committed(events: readonly AuditEvent[]): void;
  /** Writes refusal events off the critical path, then hands them on. */
  refused(events: readonly AuditEvent[]): void;
  /** The same trail (clock, store, `onEvent`) with another commit hook. */
  withCommitHook(onCommitted: CommitHook | undefined): AuditTrail;
}

/** Builds the trail of one configuration. */
export function auditTrail(options: {
  store: Store;
  logger: Logger;
  now: () => number;
  onEvent?: EventListener | undefined;
  onCommitted?: CommitHook | undefined;
}): AuditTrail {
  const { store, logger, now, onEvent, onCommitted } = options;
  // What each event was made from, for the commit hook; weak, so an event
  // dropped with its request takes its parts along.
  const made = new WeakMap<AuditEvent, EventParts>();
  const committed = (events: readonly AuditEvent[]) => {
    if (onCommitted !== undefined) {
      try {
        onCommitted(events, (event) => made.get(event));
      } catch (error) {
        logger.error("commit hook failed", { error });
      }
    }
    if (onEvent === undefined) return;
    for (const event of events) {
      try {
        Promise.resolve(onEvent(event)).catch((error) =>
          logger.error("onEvent failed", { error, type: event.type })
        );
      } catch (error) {
        logger.error("onEvent failed", { error, type: event.type });
      }
    }
  };
  return {
    event(type, parts) {
      const at = now();
      const actor = parts.actor ?? null;
      const target = parts.target === undefined ? actor : parts.target;
      const event: AuditEvent = {
        id: uuidv7(at),
        type,
        at,
        actorId: actor?.id ?? null,
        actorEmail: actor?.email ?? null,
        targetId: target?.id ?? null,
        targetEmail: target?.email ?? null,
        ip: parts.client.ip,
        userAgent: parts.client.userAgent,
        detail: { ...parts.detail },
      };
      if (onCommitted !== undefined) made.set(event, parts);
      return event;
    },
    committed,
    refused(events) {
      inBackground(
        store,
        store.recordEvents(events).then(() => committed(events)),
        (error) =>
          logger.error("audit event write failed", {
            error,
            types: events.map((e) => e.type),
          }),
      );
    },
    withCommitHook: (hook) => auditTrail({ ...options, onCommitted: hook }),
  };
}
