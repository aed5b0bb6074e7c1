// A refusal of the signed-in account's right (role_insufficient,
// capability_missing: ForbiddenError or RoleRefusedError) means the session
// the page holds is out of date, e.g. the account was demoted meanwhile:
// read the session again, so the screens drop the controls it no longer
// has instead of keeping them until a reload.

import type { QueryClient } from "../_peer_types.ts";
import { sessionQueryKey } from "../_session_cache.ts";
import { ForbiddenError } from "../errors.ts";
import { RoleRefusedError } from "../role_errors.ts";

const RIGHTS = new Set(["role_insufficient", "capability_missing"]);

/** Re-reads the session when `error` refuses the account's right. */
export function recheckSession(client: QueryClient, error: unknown): void {
  const refused = error instanceof RoleRefusedError ||
    (error instanceof ForbiddenError && RIGHTS.has(error.code));
  if (refused) void client.invalidateQueries({ queryKey: sessionQueryKey });
}
