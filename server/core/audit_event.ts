/**
 * The security event as stored, and the `events` a store write carries to
 * record in its own commit. Apart from the Store interface so that both of
 * its halves (accounts and sessions; second factors) can name it without
 * importing each other.
 *
 * @module
 */

import type { AuditEventType } from "@gatehouse/contract";

/**
 * A security event as stored (DESIGN.md §10): written in the same commit as
 * the change it records, or on its own for a refusal. Never holds a
 * password, token, code or hash.
 */
export interface AuditEvent {
  /** A UUIDv7 made from `at`, so ids sort by time. */
  id: string;
  /** What happened. */
  type: AuditEventType;
  /** When, ms. */
  at: number;
  /** Who acted; null when no account is known. */
  actorId: string | null;
  /** The actor's email when it acted. */
  actorEmail: string | null;
  /** The account acted upon; null when none is known. */
  targetId: string | null;
  /** The target's email when it was acted upon. */
  targetEmail: string | null;
  /** The acting client's address; "" when unknown. */
  ip: string;
  /** The acting client's browser label; "" when unknown. */
  userAgent: string;
  /** Non-secret facts (old and new role, an attempted email). */
  detail: Record<string, string | number | boolean | null>;
}

/** The events a write records in its own commit. */
export interface WithEvents {
  /** Written in the same commit as the change, or not at all. */
  events?: readonly AuditEvent[];
}
