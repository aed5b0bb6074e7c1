// Making audit events and handing them on (DESIGN.md §10). A change's events
// are made before its store call and written by it, in its commit; once the
// call returned, `committed` hands them to the application's `onEvent`.
// Refusals (`login.failed`, `login.rate_limited`) are written by `refused`
// off the answer's critical path: the answer does not wait for the write,
// and a failed write is logged, never answered.

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

/** The events of one configuration: made with its clock, handed to its hook. */
export interface AuditTrail {
  /** An event of `type` at the configured clock's now. */
  event(type: AuditEventType, parts: EventParts): AuditEvent;
  /** Hands committed events to `onEvent`; its failures are logged. */
  committed(events: readonly AuditEvent[]): void;
  /** Writes refusal events off the critical path, then hands them on. */
  refused(events: readonly AuditEvent[]): void;
}

/** Builds the trail of one configuration. */
export function auditTrail(options: {
  store: Store;
  logger: Logger;
  now: () => number;
  onEvent?: EventListener | undefined;
}): AuditTrail {
  const { store, logger, now, onEvent } = options;
  const committed = (events: readonly AuditEvent[]) => {
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
      return {
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
  };
}
