// An administrator's change holds only while its administrator does. The
// guard admitted the request with the session and role it saw then; another
// instance may disable, demote or sign out that administrator before the
// change commits. So every administrative rule reads the actor's account
// with its own records and checks it in the same commit: still enabled,
// still under the generation its session was issued with, still in the role
// the guard admitted. A change made by someone no longer allowed to make it
// is refused as the guard would now refuse the request. The caller's own
// security changes (TOTP on or off, new recovery codes, a passkey removed)
// are bound the same way, without a role: an account an administrator
// disables or signs out meanwhile does not weaken its factors after that.

import { AuthError } from "../../http/errors.ts";
import type {
  AccountRecord,
  Check,
  RecordRef,
  RecordStore,
  Versioned,
} from "../records.ts";
import type { ActorStanding } from "../actor.ts";
import { readRecords, unchanged } from "./_commit.ts";

const SIGNED_OUT = new AuthError("session_absent", {
  message: "Your session ended while this request was in flight",
});
const DEMOTED = new AuthError("role_insufficient", {
  message: "Your role changed while this request was in flight",
});

/**
 * Reads `refs` and, for an actor, its account with them in the same read
 * (once, when one of `refs` already names that account), and refuses unless
 * the actor still stands. Answers the records of `refs` and the checks the
 * commit must add; when `refs` holds the actor's account, the rule's own
 * check of that record is the one that binds it, and none is added.
 */
export async function readAsActor<T extends readonly unknown[]>(
  records: RecordStore,
  refs: readonly RecordRef[],
  actor: ActorStanding | undefined,
): Promise<
  { found: { [I in keyof T]: Versioned<T[I]> | null }; checks: Check[] }
> {
  if (actor === undefined) {
    return { found: await readRecords<T>(records, refs), checks: [] };
  }
  const own = refs.findIndex((ref) =>
    ref.kind === "account" && "key" in ref && ref.key === actor.id
  );
  const all = own === -1
    ? [...refs, { kind: "account" as const, key: actor.id }]
    : refs;
  const read = await readRecords<unknown[]>(records, all);
  const account = read[own === -1 ? refs.length : own] as
    | Versioned<AccountRecord>
    | null;
  assertStanding(account, actor);
  return {
    found: read.slice(0, refs.length) as {
      [I in keyof T]: Versioned<T[I]> | null;
    },
    checks: own === -1 ? [unchanged("account", actor.id, account)] : [],
  };
}

// The guard's two refusals, decided on the account as the commit reads it.
function assertStanding(
  account: Versioned<AccountRecord> | null,
  actor: ActorStanding,
): void {
  const value = account?.value;
  if (
    value === undefined || value.disabled ||
    (actor.generation !== undefined && value.generation !== actor.generation)
  ) {
    throw SIGNED_OUT;
  }
  if (actor.role !== undefined && value.role !== actor.role) throw DEMOTED;
}
