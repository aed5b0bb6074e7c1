// Changing an account's role or disabled state under its rules
// (role_changed, role_beyond_reach, last_privileged_refused), decided by
// ./_user_rules.ts on the account and the enabled tallies read
// together, and committed against exactly what was read. A disable moves
// the generation (every session dies in that commit); the dead session
// records are removed after, and so are the invitations the account sent
// (else enabling it again would revive them); after a role change, those
// its new role may not grant (else giving the role back would).

import { AuthError } from "../../http/errors.ts";
import { userUpdateDecision } from "./_user_rules.ts";
import type {
  AccountRecord,
  Check,
  RecordRef,
  RecordStore,
  StoredTally,
  TallyMove,
} from "../records.ts";
import type { UserRecord, UserUpdate } from "../store.ts";
import { committing, unchanged } from "./_commit.ts";
import { readAsActor } from "./_actor.ts";
import { tally, toUserRecord } from "./_records.ts";
import { deleteDeadSessions } from "./_session_sweep.ts";
import { deleteInvitationsBy } from "./_link_invitations.ts";

// A commit checks at most ten records: the account, its administrator's
// account and one tally per privileged role.
const MAX_PRIVILEGED_ROLES = 8;

/**
 * The moves of the enabled tallies between two states of one account: one
 * move per tally (a store may not touch a record twice in a commit).
 */
export function enabledMoves(
  before: Pick<AccountRecord, "role" | "disabled">,
  after: Pick<AccountRecord, "role" | "disabled">,
): TallyMove[] {
  const moves: TallyMove[] = [];
  if (before.disabled !== after.disabled) {
    moves.push({ key: tally.enabled(), by: after.disabled ? -1 : 1 });
  }
  const was = before.disabled ? null : before.role;
  const is = after.disabled ? null : after.role;
  if (was !== is) {
    if (was !== null) moves.push({ key: tally.role(was), by: -1 });
    if (is !== null) moves.push({ key: tally.role(is), by: 1 });
  }
  return moves;
}

// The tallies the last-privileged rule counts: every enabled account for
// an empty list, else one per role (a role listed twice counts once).
function ruleTallies(update: UserUpdate): string[] {
  const keep = update.keepPrivileged;
  if (keep === undefined) return [];
  const keys = keep.length === 0
    ? [tally.enabled()]
    : [...new Set(keep)].map((role) => tally.role(role));
  if (keys.length > MAX_PRIVILEGED_ROLES) {
    throw new Error(
      `Stores support at most ${MAX_PRIVILEGED_ROLES} privileged roles, got ${keys.length}`,
    );
  }
  return keys;
}

/** Applies `update` to account `id` atomically under its rules. */
export async function updateUser(
  records: RecordStore,
  id: string,
  update: UserUpdate,
): Promise<UserRecord> {
  const keys = ruleTallies(update);
  const refs: RecordRef[] = [
    { kind: "account", key: id },
    ...keys.map((key) => ({ kind: "tally" as const, key })),
  ];
  const { user, revokedAt } = await committing(records, async () => {
    const read = await readAsActor<
      [AccountRecord, ...StoredTally[]]
    >(records, refs, update.actor);
    const [found, ...counts] = read.found;
    if (found === null) throw new AuthError("user_not_found");
    const current = found.value;
    // The tallies are checked only when the decision counted them.
    let counted = false;
    const decision = userUpdateDecision(current, update, () => {
      counted = true;
      return counts.reduce((sum, c) => sum + (c?.value.count ?? 0), 0);
    });
    const next: AccountRecord = { ...current, ...decision.changes };
    const checks: Check[] = [unchanged("account", id, found), ...read.checks];
    if (counted) {
      keys.forEach((key, i) =>
        checks.push(unchanged("tally", key, counts[i] ?? null))
      );
    }
    const events = update.events?.(toUserRecord(current), toUserRecord(next));
    const changed = Object.keys(decision.changes).length > 0;
    const result = {
      user: toUserRecord(next),
      revokedAt: next.generation !== current.generation
        ? next.generation
        : null,
    };
    if (!changed && (events === undefined || events.length === 0)) {
      return { commit: null, result };
    }
    return {
      commit: {
        checks,
        ...(changed
          ? {
            puts: [{ kind: "account" as const, value: next, before: current }],
          }
          : {}),
        tallies: enabledMoves(current, next),
        ...(events === undefined ? {} : { events }),
      },
      result,
    };
  });
  if (revokedAt !== null) await deleteDeadSessions(records, id, revokedAt);
  // Asked again (a disable, or a role set, that found nothing to change),
  // the invitations are ended again too: a first request whose cleanup
  // failed after its commit answered an error, and its retry would
  // otherwise end none, leaving them to revive with the account or role.
  if (user.disabled && (revokedAt !== null || update.disabled === true)) {
    await deleteInvitationsBy(records, id);
  } else if (update.role !== undefined && update.granters !== undefined) {
    await deleteInvitationsBy(
      records,
      id,
      beyondGrant(user.role, update.granters),
    );
  }
  return user;
}

// Whether an invitation of a role is beyond what an account of `role` may
// grant, asking `granters` once per invitation role.
function beyondGrant(
  role: string,
  granters: NonNullable<UserUpdate["granters"]>,
): (invited: string) => Promise<boolean> {
  const asked = new Map<string, Promise<boolean>>();
  return (invited) => {
    let answer = asked.get(invited);
    if (answer === undefined) {
      answer = granters(invited).then((roles) =>
        roles !== undefined && !roles.includes(role)
      );
      asked.set(invited, answer);
    }
    return answer;
  };
}
