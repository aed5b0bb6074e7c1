// Second factors over the narrow store (DESIGN.md §9): the account's
// factors as its record carries them, TOTP with its recovery codes
// (_totp_rules.ts), pending sign-ins and WebAuthn challenges
// (_factor_pending.ts), an administrator's removal of every factor and the
// sweep of the short-lived records.

import { assertWithinReach } from "../_roles.ts";
import { AuthError } from "../../http/errors.ts";
import type {
  AccountRecord,
  Delete,
  ExpiringKind,
  RecordStore,
  StoredEnrolment,
  StoredTotp,
} from "../records.ts";
import type { SecondFactorRemoval, Store } from "../store.ts";
import { committing, readRecord, unchanged } from "./_commit.ts";
import { factorsOf } from "./_records.ts";
import { readAsActor } from "./_actor.ts";
import { accountPut, afterRemoval } from "./_factor_account.ts";
import * as pending from "./_factor_pending.ts";
import * as totp from "./_totp_rules.ts";

// The factor operations of `Store`.
type FactorRules = Pick<
  Required<Store>,
  | "accountFactors"
  | "startTotpEnrolment"
  | "totpEnrolment"
  | "confirmTotp"
  | "totp"
  | "disableTotp"
  | "replaceRecoveryCodes"
  | "useTotpStep"
  | "replaceTotpSecret"
  | "useRecoveryCode"
  | "createPendingSignIn"
  | "findPendingSignIn"
  | "failPendingSignIn"
  | "spendPendingSignIn"
  | "createChallenge"
  | "findChallenge"
  | "spendChallenge"
  | "removeUserSecondFactor"
  | "deleteExpiredFactorRecords"
>;

// The short-lived kinds the sweep deletes, in this order.
const SHORT_LIVED: readonly ExpiringKind[] = [
  "pending",
  "challenge",
  "enrolment",
];

/**
 * The second-factor operations of `Store` (TOTP, recovery codes, pending
 * sign-ins, challenges), decided over `records`. Every factor removal moves
 * the account's `factorVersion` in its own commit.
 *
 * @example Accepting a time step once
 * ```ts
 * import { factorRules } from "./factors.ts";
 * import type { RecordStore } from "../records.ts";
 *
 * async function step(records: RecordStore, userId: string, step: number) {
 *   const factors = factorRules(records);
 *   // Of two calls with one step, only the first is accepted.
 *   return [
 *     await factors.useTotpStep(userId, step),
 *     await factors.useTotpStep(userId, step),
 *   ];
 * }
 * ```
 */
export function factorRules(records: RecordStore): FactorRules {
  return {
    accountFactors: async (userId) => {
      const found = await readRecord(records, "account", userId);
      return found === null ? null : factorsOf(found.value);
    },
    startTotpEnrolment: (enrolment, options) =>
      totp.startTotpEnrolment(records, enrolment, options),
    totpEnrolment: (userId, now) => totp.totpEnrolment(records, userId, now),
    confirmTotp: (userId, confirmation) =>
      totp.confirmTotp(records, userId, confirmation),
    totp: (userId) => totp.totp(records, userId),
    disableTotp: (userId, options) =>
      totp.disableTotp(records, userId, options),
    replaceRecoveryCodes: (userId, hashes, options) =>
      totp.replaceRecoveryCodes(records, userId, hashes, options),
    useTotpStep: (userId, step, options) =>
      totp.useTotpStep(records, userId, step, options),
    replaceTotpSecret: (userId, previous, next) =>
      totp.replaceTotpSecret(records, userId, previous, next),
    useRecoveryCode: (userId, codeHash, options) =>
      totp.useRecoveryCode(records, userId, codeHash, options),
    createPendingSignIn: (signIn) =>
      pending.createPendingSignIn(records, signIn),
    findPendingSignIn: (tokenHash, now) =>
      pending.findPendingSignIn(records, tokenHash, now),
    failPendingSignIn: (tokenHash, now, maxFailures) =>
      pending.failPendingSignIn(records, tokenHash, now, maxFailures),
    spendPendingSignIn: (tokenHash, now) =>
      pending.spendPendingSignIn(records, tokenHash, now),
    createChallenge: (challenge, options) =>
      pending.createChallenge(records, challenge, options),
    findChallenge: async (tokenHash, use, now) =>
      (await pending.readChallenge(records, tokenHash, use, now)).live,
    spendChallenge: (tokenHash, use, now) =>
      pending.spendChallenge(records, tokenHash, use, now),
    removeUserSecondFactor: (userId, removal) =>
      removeUserSecondFactor(records, userId, removal),
    deleteExpiredFactorRecords: async (now, limit) => {
      // `expiresAt <= now`, up to `limit` over the three kinds together.
      let deleted = 0;
      for (const kind of SHORT_LIVED) {
        if (deleted >= limit) break;
        deleted += await records.deleteExpired(kind, now, limit - deleted);
      }
      return deleted;
    },
  };
}

// Removes TOTP, its codes, a pending enrolment and every passkey, and moves
// the factor version, in one commit checked against the account: every
// passkey added or removed meanwhile changes the account's record (its
// `passkeyCount`), so the passkeys listed after reading it are exact. An
// account with neither TOTP nor a passkey (the reach rule decided first,
// so one beyond reach does not tell) has nothing to remove: nothing is
// committed, no event and no version move, also when a racing removal
// emptied it between this attempt's reads and a retry.
function removeUserSecondFactor(
  records: RecordStore,
  userId: string,
  removal: SecondFactorRemoval,
): Promise<boolean> {
  return committing(records, async () => {
    const { found: [account, totp, enrolment], checks } = await readAsActor<
      [AccountRecord, StoredTotp, StoredEnrolment]
    >(records, [
      { kind: "account", key: userId },
      { kind: "totp", key: userId },
      { kind: "enrolment", key: userId },
    ], removal.actor);
    if (account === null) throw new AuthError("user_not_found");
    const { role } = account.value;
    assertWithinReach(
      removal.reachableRoles,
      role,
      `You may not change an account whose role is "${role}"`,
    );
    // Listed after the account was read: see above.
    const passkeys = await records.list("passkey", "userId", userId);
    if (totp === null && passkeys.length === 0) {
      return { commit: null, result: false };
    }
    const deletes: Delete[] = passkeys.map(({ value }) => ({
      kind: "passkey",
      value,
    }));
    if (totp !== null) deletes.push({ kind: "totp", value: totp.value });
    if (enrolment !== null) {
      deletes.push({ kind: "enrolment", value: enrolment.value });
    }
    const next = afterRemoval(account.value, {
      totpEnabled: false,
      passkeyCount: 0,
    });
    return {
      commit: {
        checks: [
          unchanged("account", userId, account),
          unchanged("totp", userId, totp),
          unchanged("enrolment", userId, enrolment),
          ...checks,
        ],
        puts: [accountPut(account.value, next)],
        deletes,
        events: removal.events ?? [],
      },
      result: true,
    };
  });
}
