// Creating a session in PostgresStore: bound to the credential it was
// verified against, and within the account's session cap, in one statement.

import { isUuid } from "../../_crypto.ts";
import type { NewSession } from "../../store.ts";
import type { PgTables } from "./_tables.ts";

/**
 * Records a session if the account is enabled and has the expected
 * generation, ending its sessions that would end first beyond
 * `maxSessions`: one call of the schema's `create_session` function
 * (migration 2).
 *
 * The function locks the account's row first (`FOR NO KEY UPDATE`): a
 * disable or a reset in flight is waited for and then seen, and the
 * sign-ins of one account run one after another, each counting (a VOLATILE
 * function reads afresh at each statement) the sessions the ones before it
 * committed. A single SQL statement with CTEs would count from the snapshot
 * taken before the lock was granted, and miss them; a client-side
 * transaction would put the sign-in path at the mercy of the driver when a
 * connection drops mid-transaction.
 */
export async function createSession(
  t: PgTables,
  session: NewSession,
): Promise<boolean> {
  if (!isUuid(session.userId)) return false;
  const [row] = await t.sql`
    SELECT ${t.createSession}(${session.tokenHash}, ${session.userId},
      ${session.createdAt}, ${session.expiresAt},
      ${session.expectedGeneration ?? null}::integer,
      ${session.maxSessions ?? null}::integer) AS created`;
  return row?.created === true;
}
