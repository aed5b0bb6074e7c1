// TOTP and recovery codes over the narrow store: the pending enrolment, its
// confirmation, removal, and the single-use spends (a time step, a
// recovery code). The recovery codes live inside the TOTP record, so
// spending one, accepting a step, replacing the codes and sealing the
// secret again all commit against that one record's version.

import { AuthError } from "../../http/errors.ts";
import type { ByActor } from "../actor.ts";
import type {
  AccountRecord,
  Commit,
  RecordStore,
  StoredEnrolment,
  StoredTotp,
} from "../records.ts";
import type {
  CodeSpend,
  OwnFactorChange,
  PendingSpend,
  TotpConfirmation,
  TotpEnrolment,
  TotpRecord,
} from "../store.ts";
import { committing, readRecord, unchanged } from "./_commit.ts";
import { accountPut, afterRemoval, withFactors } from "./_factor_account.ts";
import { pendingUnchanged, readPending } from "./_factor_pending.ts";
import { readAsActor } from "./_actor.ts";

/**
 * Keeps an enrolment, replacing any earlier one, while TOTP is off:
 * `user_not_found`, `second_factor_enabled`; with `options.actor`, only
 * while that account still stands (`readAsActor`), else `session_absent`.
 */
export function startTotpEnrolment(
  records: RecordStore,
  enrolment: TotpEnrolment,
  options: ByActor = {},
): Promise<void> {
  const { userId } = enrolment;
  const value: StoredEnrolment = {
    userId,
    secret: enrolment.secret,
    createdAt: enrolment.createdAt,
    expiresAt: enrolment.expiresAt,
  };
  return committing(records, async () => {
    const { found: [account, earlier], checks } = await readAsActor<
      [AccountRecord, StoredEnrolment]
    >(records, [
      { kind: "account", key: userId },
      { kind: "enrolment", key: userId },
    ], options.actor);
    if (account === null) throw new AuthError("user_not_found");
    if (account.value.totpEnabled) {
      throw new AuthError("second_factor_enabled");
    }
    return {
      commit: {
        checks: [
          unchanged("account", userId, account),
          unchanged("enrolment", userId, earlier),
          ...checks,
        ],
        puts: [{ kind: "enrolment", value, before: earlier?.value ?? null }],
      },
      result: undefined,
    };
  });
}

/** The account's live enrolment at `now`, or null. */
export async function totpEnrolment(
  records: RecordStore,
  userId: string,
  now: number,
): Promise<TotpEnrolment | null> {
  const found = await readRecord(records, "enrolment", userId);
  return found !== null && found.value.expiresAt > now ? found.value : null;
}

/**
 * Enables TOTP from the live enrolment with this secret: the TOTP record
 * with its codes and the confirming step as used, the account's
 * `totpEnabled`, the enrolment deleted, in one commit.
 */
export function confirmTotp(
  records: RecordStore,
  userId: string,
  confirmation: TotpConfirmation,
): Promise<boolean> {
  return committing(records, async () => {
    const { found: [account, enrolment, totp], checks } = await readAsActor<
      [AccountRecord, StoredEnrolment, StoredTotp]
    >(records, [
      { kind: "account", key: userId },
      { kind: "enrolment", key: userId },
      { kind: "totp", key: userId },
    ], confirmation.actor);
    if (account === null) return { commit: null, result: false };
    if (account.value.totpEnabled) {
      throw new AuthError("second_factor_enabled");
    }
    const pending = enrolment?.value ?? null;
    if (
      pending === null || pending.expiresAt <= confirmation.now ||
      pending.secret !== confirmation.secret
    ) {
      return { commit: null, result: false };
    }
    const value: StoredTotp = {
      userId,
      secret: pending.secret,
      lastStep: confirmation.step,
      recoveryCodes: [...confirmation.recoveryCodeHashes],
    };
    return {
      commit: {
        checks: [
          unchanged("account", userId, account),
          unchanged("enrolment", userId, enrolment),
          unchanged("totp", userId, totp),
          ...checks,
        ],
        puts: [
          accountPut(
            account.value,
            withFactors(account.value, { totpEnabled: true }),
          ),
          { kind: "totp", value, before: totp?.value ?? null },
        ],
        deletes: [{ kind: "enrolment", value: pending }],
        events: confirmation.events ?? [],
      },
      result: true,
    };
  });
}

/** The enabled TOTP of the account, or null. */
export async function totp(
  records: RecordStore,
  userId: string,
): Promise<TotpRecord | null> {
  const found = await readRecord(records, "totp", userId);
  return found === null ? null : {
    secret: found.value.secret,
    lastStep: found.value.lastStep,
    recoveryCodesLeft: found.value.recoveryCodes.length,
  };
}

/** Removes TOTP and its codes and moves the factor version; false when off. */
export function disableTotp(
  records: RecordStore,
  userId: string,
  options: OwnFactorChange = {},
): Promise<boolean> {
  return committing(records, async () => {
    const { found: [account, totp], checks } = await readAsActor<
      [AccountRecord, StoredTotp]
    >(
      records,
      [{ kind: "account", key: userId }, { kind: "totp", key: userId }],
      options.actor,
    );
    if (account === null || totp === null) {
      return { commit: null, result: false };
    }
    return {
      commit: {
        checks: [
          unchanged("account", userId, account),
          unchanged("totp", userId, totp),
          ...checks,
        ],
        puts: [
          accountPut(
            account.value,
            afterRemoval(account.value, { totpEnabled: false }),
          ),
        ],
        deletes: [{ kind: "totp", value: totp.value }],
        events: options.events ?? [],
      },
      result: true,
    };
  });
}

// One read-modify-write of the TOTP record: `change` answers the next
// record and the result, or null to write nothing (the answer is then
// `none`, as it is without TOTP); `events` are written with the change.
// With `pending`, the change is made only while that pending sign-in of the
// account is live, and ends it in the same commit, checked against it and
// its account: the code and the sign-in it finishes are spent together, so
// a second step that checks the same code a moment later finds the pending
// sign-in gone rather than the code used (before, it counted the right code
// as a wrong guess; five such ended the pending sign-in under the winner).
// With `actor`, the change is made only while that account still stands
// (`readAsActor`), its account checked by the same commit.
function updateTotp<T>(
  records: RecordStore,
  userId: string,
  none: T,
  change: (totp: StoredTotp) => { next: StoredTotp; result: T } | null,
  { events = [], pending, actor }: CodeSpend & ByActor = {},
): Promise<T> {
  return committing(records, async () => {
    const [{ found: [found], checks }, signIn] = await Promise.all([
      readAsActor<[StoredTotp]>(
        records,
        [{ kind: "totp", key: userId }],
        actor,
      ),
      pending === undefined
        ? null
        : readPending(records, pending.tokenHash, pending.now),
    ]);
    const decided = found === null ? null : change(found.value);
    if (
      found === null || decided === null ||
      (signIn !== null &&
        (signIn.live === null || signIn.live.userId !== userId))
    ) {
      return { commit: null, result: none };
    }
    const commit: Commit = {
      checks: [unchanged("totp", userId, found), ...checks],
      puts: [{ kind: "totp", value: decided.next, before: found.value }],
      events,
    };
    if (signIn?.live) {
      commit.checks = [
        ...commit.checks!,
        ...pendingUnchanged(signIn, signIn.live),
      ];
      commit.deletes = [{ kind: "pending", value: signIn.live }];
    }
    return { commit, result: decided.result };
  });
}

/** Replaces every recovery code; false when TOTP is off. */
export function replaceRecoveryCodes(
  records: RecordStore,
  userId: string,
  hashes: readonly string[],
  options: OwnFactorChange = {},
): Promise<boolean> {
  return updateTotp(records, userId, false, (totp) => ({
    next: { ...totp, recoveryCodes: [...hashes] },
    result: true,
  }), {
    ...(options.events === undefined ? {} : { events: options.events }),
    ...(options.actor === undefined ? {} : { actor: options.actor }),
  });
}

/**
 * Accepts `step` once, only if later than the last accepted one (and, with
 * `options.pending`, while that pending sign-in is live: it ends too).
 */
export function useTotpStep(
  records: RecordStore,
  userId: string,
  step: number,
  options: PendingSpend & ByActor = {},
): Promise<boolean> {
  return updateTotp(
    records,
    userId,
    false,
    (totp) =>
      step > totp.lastStep
        ? { next: { ...totp, lastStep: step }, result: true }
        : null,
    options,
  );
}

/** Replaces the stored secret only if it is still `previous`. */
export function replaceTotpSecret(
  records: RecordStore,
  userId: string,
  previous: string,
  next: string,
): Promise<boolean> {
  return updateTotp(
    records,
    userId,
    false,
    (totp) =>
      totp.secret === previous
        ? { next: { ...totp, secret: next }, result: true }
        : null,
  );
}

/**
 * Spends one recovery code by its digest: the codes left, or null (with
 * `options.pending`, only while that pending sign-in is live: it ends too).
 */
export function useRecoveryCode(
  records: RecordStore,
  userId: string,
  codeHash: string,
  options: CodeSpend = {},
): Promise<number | null> {
  return updateTotp<number | null>(records, userId, null, (totp) => {
    if (!totp.recoveryCodes.includes(codeHash)) return null;
    const recoveryCodes = totp.recoveryCodes.filter((h) => h !== codeHash);
    return { next: { ...totp, recoveryCodes }, result: recoveryCodes.length };
  }, options);
}
