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
// They are bound to the session they came with too (the actor's
// `session`): a session its owner ended alone, from another device, is as
// gone as one signed out everywhere, and its request in flight writes
// nothing. The session is read with the rule's records (no round trip of
// its own) and its version checked by the same commit.

import { AuthError } from "../../http/errors.ts";
import type {
  AccountRecord,
  Check,
  RecordRef,
  RecordStore,
  StoredSession,
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
 * (once, when one of `refs` already names that account), and its session
 * too when the actor names one; refuses unless the actor still stands.
 * Answers the records of `refs` and the checks the commit must add; when
 * `refs` holds the actor's account or session, the rule's own check of
 * that record is the one that binds it, and none is added for it.
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
  const bound: BoundRef[] = [{ kind: "account", key: actor.id }];
  if (actor.session !== undefined) {
    bound.push({ kind: "session", key: actor.session });
  }
  // Each bound record is read where `refs` names it already, else after
  // them; only those read after are checked here.
  const all = [...refs];
  const at = bound.map((ref) => {
    const own = refs.findIndex((r) => sameKey(r, ref));
    return own === -1 ? all.push(ref) - 1 : own;
  });
  const read = await readRecords<unknown[]>(records, all);
  const [account, session = null] = at.map((i) => read[i] ?? null);
  assertStanding(
    account as Versioned<AccountRecord> | null,
    session as Versioned<StoredSession> | null,
    actor,
  );
  const checks = bound.flatMap((ref, i) =>
    at[i]! < refs.length
      ? []
      : [unchanged(ref.kind, ref.key, read[at[i]!] ?? null)]
  );
  return {
    found: read.slice(0, refs.length) as {
      [I in keyof T]: Versioned<T[I]> | null;
    },
    checks,
  };
}

// A record the actor is bound to, read by its key.
type BoundRef =
  | { kind: "account"; key: string }
  | { kind: "session"; key: string };

// Whether `ref` reads the record `bound` names.
function sameKey(ref: RecordRef, bound: BoundRef): boolean {
  return ref.kind === bound.kind && "key" in ref && ref.key === bound.key;
}

// The guard's two refusals, decided on the account (and the session) as
// the commit reads them. A session ended alone, from another device, is
// gone as one signed out everywhere is; its expiry is not judged again
// here (the guard admitted it live, and a rule has no clock of its own).
function assertStanding(
  account: Versioned<AccountRecord> | null,
  session: Versioned<StoredSession> | null,
  actor: ActorStanding,
): void {
  const value = account?.value;
  if (
    value === undefined || value.disabled ||
    (actor.generation !== undefined && value.generation !== actor.generation) ||
    (actor.session !== undefined && session?.value.userId !== actor.id)
  ) {
    throw SIGNED_OUT;
  }
  if (actor.role !== undefined && value.role !== actor.role) throw DEMOTED;
}
