// The reach rule of reading the audit trail (`AuditReach`, store.ts), for
// a store that decides it in memory (KV). PostgreSQL states the same rule
// in SQL (postgres/_audit.ts); the conformance cases hold both to it.

import { withinReach } from "../_roles.ts";
import type { AuditEvent, AuditReach } from "../store.ts";

/**
 * Whether a reader of `reach` may see `event`: every account it names is
 * the reader, or one whose current role (`roleOf`; undefined for an
 * account no longer stored) is within reach. Naming none passes.
 */
export function eventWithinReach(
  event: Pick<AuditEvent, "actorId" | "targetId">,
  reach: AuditReach,
  roleOf: (id: string) => string | undefined,
): boolean {
  const seen = (id: string | null) => {
    if (id === null || id === reach.self) return true;
    const role = roleOf(id);
    return role !== undefined && withinReach(reach.roles, role);
  };
  return seen(event.actorId) && seen(event.targetId);
}
