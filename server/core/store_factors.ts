/**
 * The `FactorStore` interface: what a store keeps of second factors (TOTP
 * with its recovery codes, passkeys), pending second-factor sign-ins and
 * WebAuthn challenges (DESIGN.md §9). `Store` extends it, so every store
 * implements it and the conformance suite checks it.
 *
 * Rules every store keeps, beyond those of `Store`:
 * - Secrets that a user types or a browser holds never reach a store in
 *   clear: recovery codes, pending sign-in tokens and challenge cookies
 *   arrive as SHA-256 digests. The TOTP secret cannot be a digest, since
 *   verifying a code needs it: with `totpKeys` configured it arrives
 *   sealed (AES-256-GCM), else as it is; a store keeps it as it comes.
 * - Every account has a `factorVersion`; removing a factor (disabling
 *   TOTP, removing a passkey, an administrator's removal) moves it, and a
 *   pending sign-in bound to an older one is dead.
 * - Everything single use is spent with an atomic check: a time step is
 *   accepted once per account, ever (only if later than the last accepted
 *   one); a recovery code, a pending sign-in and a challenge are spent
 *   once, also under hundreds of concurrent attempts.
 *
 * @module
 */

import type { WithEvents } from "./audit_event.ts";
import type { ByActor } from "./actor.ts";
import type {
  ChallengeUse,
  StoredChallenge,
  StoredEnrolment,
  StoredPasskey,
  StoredPendingSignIn,
} from "./records.ts";

export type { ChallengeUse };

/**
 * What a sign-in needs to know of an account's second factors, and whether
 * it has a password: the ways the account proves itself, which its own
 * Identity shows. A store answers them from the account it reads anyway
 * (on the hot path, with the session), at no extra read.
 */
export interface AccountFactors {
  /** TOTP is enabled (and with it, recovery codes). */
  totpEnabled: boolean;
  /** How many passkeys the account has. */
  passkeyCount: number;
  /** Moved by every factor removal; pending sign-ins are bound to it. */
  factorVersion: number;
  /**
   * The account has a password: one single sign-on made has none (its
   * stored hash is "") until a reset link gives it one (DESIGN.md §13).
   */
  hasPassword: boolean;
}

/**
 * Whether an account has a second factor: TOTP or at least one passkey
 * (DESIGN.md §9). Its password sign-in then needs the second step.
 */
export function hasSecondFactor(
  factors: Pick<AccountFactors, "totpEnabled" | "passkeyCount">,
): boolean {
  return factors.totpEnabled || factors.passkeyCount > 0;
}

/** A TOTP enrolment waiting for its first code: the record `enrolment`. */
export type TotpEnrolment = StoredEnrolment;

/** The enabled TOTP of an account, read to verify a code. */
export interface TotpRecord {
  /** The secret, as {@linkcode TotpEnrolment.secret} stored it. */
  secret: string;
  /** The last accepted time step (the enrolment's at first). */
  lastStep: number;
  /** How many unused recovery codes are left. */
  recoveryCodesLeft: number;
}

/**
 * A change to one's own second factors: its events, and the standing of the
 * session that asks for it (the account still enabled, at that session's
 * generation, read in the change's own commit; else `session_absent`).
 */
export interface OwnFactorChange extends WithEvents, ByActor {}

/** What confirming a TOTP enrolment writes (with its events). */
export interface TotpConfirmation extends OwnFactorChange {
  /** The secret the code was verified against: the pending enrolment's. */
  secret: string;
  /** The time step of the confirming code: it counts as used. */
  step: number;
  /** SHA-256 digests (base64url) of the new recovery codes. */
  recoveryCodeHashes: readonly string[];
  /** Now, ms: the enrolment must still be live. */
  now: number;
}

/** A sign-in waiting for its second factor: the record `pending`. */
export type PendingSignIn = StoredPendingSignIn;

/** What a pending sign-in is created from. */
export type NewPendingSignIn = Omit<PendingSignIn, "failures">;

/** The answer to a wrong code on a pending sign-in. */
export interface PendingFailure {
  /** Wrong codes counted, this one included. */
  failures: number;
  /** The pending sign-in was ended by this one (it reached the limit). */
  ended: boolean;
}

/** A WebAuthn challenge kept server-side: the record `challenge`. */
export type ChallengeRecord = StoredChallenge;

/** A passkey as stored: the record `passkey`. */
export type PasskeyRecord = StoredPasskey;

/** What registering a passkey writes. */
export type NewPasskey = Omit<PasskeyRecord, "lastUsedAt">;

/** The pending sign-in a code (or a passkey) is spent for, if any. */
export interface PendingSpend {
  /**
   * The second step of a sign-in this code finishes: the code is accepted
   * only while that pending sign-in (by its token's digest) is live at
   * `now`, and ends it in the same commit. Of concurrent second steps with
   * one right code, one spends both; the others find the pending sign-in
   * gone (nothing to guess against) and spend nothing.
   */
  pending?: { tokenHash: string; now: number };
}

/**
 * What spending a passkey's assertion writes. With `pending` (the second
 * step of a sign-in), the use is recorded only while that pending sign-in
 * of the passkey's account is live, and ends it in the same commit, as a
 * code's spend does; with `actor` (a re-authentication), only while the
 * session it re-authenticates stands, else `session_absent` and nothing
 * spent.
 */
export interface PasskeyUse extends PendingSpend, ByActor {
  /** The counter of the assertion. */
  counter: number;
  /** Now, ms. */
  now: number;
  /**
   * The challenge the assertion answered, by its cookie's digest and its
   * use: the use is recorded only while that challenge is live at `now`,
   * and spends it in the same commit. Of concurrent second steps with one
   * assertion, one spends the challenge, the use and the pending sign-in
   * together; the others find the sign-in gone and spend nothing.
   */
  challenge?: { tokenHash: string; use: ChallengeUse };
}

/**
 * A recovery code spent: its events, and the pending sign-in it finishes
 * or the session it re-authenticates (`actor`).
 */
export interface CodeSpend extends WithEvents, PendingSpend, ByActor {}

/** What an administrator's removal of every second factor needs. */
export interface SecondFactorRemoval extends WithEvents, ByActor {
  /**
   * `role_beyond_reach` unless the account's stored role is one of these
   * (the empty role always is). Absent: every account is within reach.
   */
  reachableRoles?: readonly string[];
}

/**
 * Second factors, pending second-factor sign-ins and WebAuthn challenges;
 * part of every `Store`.
 *
 * Methods throw `AuthError` for the contract's refusals
 * (`user_not_found`, `second_factor_enabled`, `role_beyond_reach`,
 * `passkey_invalid`); "not there" answers are `null` or `false`.
 *
 * @example Enrolling TOTP on the embedded store
 * ```ts
 * import type { FactorStore } from "@gatehouse/server/store";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const factors: FactorStore = store;
 * const user = await store.createUser({
 *   id: crypto.randomUUID(),
 *   email: "ada@example.com",
 *   emailKey: "ada@example.com",
 *   name: "Ada",
 *   role: "",
 *   passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
 *   createdAt: Date.now(),
 * });
 * const now = Date.now();
 * const secret = "JBSWY3DPEHPK3PXP";
 * await factors.startTotpEnrolment({
 *   userId: user.id,
 *   secret,
 *   createdAt: now,
 *   expiresAt: now + 600_000,
 * });
 * const step = Math.floor(now / 30_000);
 * await factors.confirmTotp(user.id, {
 *   secret,
 *   step,
 *   recoveryCodeHashes: ["a", "b"],
 *   now,
 * });
 * console.assert((await factors.accountFactors(user.id))?.totpEnabled);
 * // The enrolment's step counts as used; the next one is accepted once.
 * console.assert(!(await factors.useTotpStep(user.id, step)));
 * console.assert(await factors.useTotpStep(user.id, step + 1));
 * kv.close();
 * ```
 */
export interface FactorStore {
  /** The account's second factors, or null when there is no account. */
  accountFactors(userId: string): Promise<AccountFactors | null>;

  /**
   * Keeps a TOTP enrolment until it is confirmed or expires, replacing any
   * earlier one of the account. `second_factor_enabled` when TOTP is on,
   * `user_not_found` without the account; `session_absent` when
   * `options.actor` no longer stands.
   */
  startTotpEnrolment(
    enrolment: TotpEnrolment,
    options?: ByActor,
  ): Promise<void>;
  /** The account's live enrolment at `now`, or null. */
  totpEnrolment(userId: string, now: number): Promise<TotpEnrolment | null>;
  /**
   * Enables TOTP from the live enrolment whose secret is
   * `confirmation.secret`, stores the recovery codes and marks the step as
   * used, at once. False when there is no such live enrolment (expired,
   * replaced, already confirmed); `second_factor_enabled` when TOTP is on;
   * `session_absent` when `confirmation.actor` no longer stands.
   */
  confirmTotp(userId: string, confirmation: TotpConfirmation): Promise<boolean>;
  /** The enabled TOTP of the account, or null. */
  totp(userId: string): Promise<TotpRecord | null>;
  /**
   * Removes TOTP and its recovery codes and moves the factor version,
   * with `options.events`. False when TOTP was not on; `session_absent`
   * when `options.actor` no longer stands.
   */
  disableTotp(userId: string, options?: OwnFactorChange): Promise<boolean>;
  /**
   * Replaces every recovery code (the old ones die at once), with
   * `options.events`. False when TOTP is not on; `session_absent` when
   * `options.actor` no longer stands.
   */
  replaceRecoveryCodes(
    userId: string,
    hashes: readonly string[],
    options?: OwnFactorChange,
  ): Promise<boolean>;
  /**
   * Accepts a time step for the account only if TOTP is on and `step` is
   * later than the last accepted one, and records it: of concurrent calls
   * with one step, one wins. With `options.pending`, only while that
   * pending sign-in is live, ending it in the same commit;
   * `session_absent` when `options.actor` no longer stands.
   */
  useTotpStep(
    userId: string,
    step: number,
    options?: PendingSpend & ByActor,
  ): Promise<boolean>;
  /**
   * Replaces the enabled TOTP's stored secret with `nextSecret` only if it
   * is still `previousSecret`, leaving the last accepted step and the
   * recovery codes as they are: how a secret stored before `totpKeys` were
   * set, or sealed with an older key, is sealed with the current one once
   * its code is accepted. False when TOTP is off or the secret changed.
   * Optional: without it, a secret stays as it was stored until its
   * account enrols again.
   */
  replaceTotpSecret?(
    userId: string,
    previousSecret: string,
    nextSecret: string,
  ): Promise<boolean>;
  /**
   * Spends one recovery code by its digest: the codes left after it, or
   * null when it is not one of the account's unused codes. Of concurrent
   * calls with one code, one wins; `options.events` are written with the
   * winner's spend. With `options.pending`, only while that pending
   * sign-in is live, ending it in the same commit; `session_absent` when
   * `options.actor` no longer stands.
   */
  useRecoveryCode(
    userId: string,
    codeHash: string,
    options?: CodeSpend,
  ): Promise<number | null>;

  /** Records a pending sign-in (no failures yet). */
  createPendingSignIn(pending: NewPendingSignIn): Promise<void>;
  /**
   * The pending sign-in behind `tokenHash`, or null when there is none, it
   * expired by `now`, or its account is gone, disabled, or has a generation
   * or factor version other than the one it was bound to.
   */
  findPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null>;
  /**
   * Counts a wrong code on a live pending sign-in; the `maxFailures`-th
   * ends it. Null when it is not live (see {@linkcode findPendingSignIn}).
   * Exact under concurrency: no count is lost, none is counted past the end.
   */
  failPendingSignIn(
    tokenHash: string,
    now: number,
    maxFailures: number,
  ): Promise<PendingFailure | null>;
  /**
   * Ends a live pending sign-in and returns it: of concurrent calls, one
   * gets it, the others null (also null when it is not live).
   */
  spendPendingSignIn(
    tokenHash: string,
    now: number,
  ): Promise<PendingSignIn | null>;

  /**
   * Keeps a WebAuthn challenge until it is spent or expires;
   * `session_absent` when `options.actor` no longer stands.
   */
  createChallenge(challenge: ChallengeRecord, options?: ByActor): Promise<void>;
  /**
   * The live challenge behind `tokenHash` issued for `use`, left as it is:
   * null when it is unknown, spent, expired at `now`, or issued for another
   * use. What a proof spent with its challenge reads first (`PasskeyUse`).
   */
  findChallenge(
    tokenHash: string,
    use: ChallengeUse,
    now: number,
  ): Promise<ChallengeRecord | null>;
  /**
   * Spends the live challenge behind `tokenHash` issued for `use`: of
   * concurrent calls, one gets it. Null when it is unknown, spent, expired
   * at `now`, or issued for another use (which is then left as it is).
   */
  spendChallenge(
    tokenHash: string,
    use: ChallengeUse,
    now: number,
  ): Promise<ChallengeRecord | null>;

  /**
   * Registers a passkey for an enabled account that has fewer than
   * `maxPasskeys`: the record, or null at the cap. `user_not_found` when
   * the account is gone or disabled, `passkey_invalid` when the credential
   * is registered already (to any account); `session_absent` when
   * `options.actor` no longer stands. `options.events` are written with it.
   */
  addPasskey(
    passkey: NewPasskey,
    maxPasskeys: number,
    options?: OwnFactorChange,
  ): Promise<PasskeyRecord | null>;
  /** The account's passkeys, oldest first. */
  listPasskeys(userId: string): Promise<PasskeyRecord[]>;
  /** The passkey of this credential id, whoever owns it, or null. */
  passkeyByCredentialId(credentialId: string): Promise<PasskeyRecord | null>;
  /**
   * Renames the account's passkey `id`; null when it has no such passkey;
   * `session_absent` when `options.actor` no longer stands.
   */
  renamePasskey(
    userId: string,
    id: string,
    name: string,
    options?: ByActor,
  ): Promise<PasskeyRecord | null>;
  /**
   * Removes the account's passkey `id` and moves the factor version, with
   * `options.events`. False when it has no such passkey;
   * `last_sign_in_method` when it is the last way in of an account with no
   * password and no linked identity (decided on reads its commit checks, so
   * an unlink at the same moment cannot leave the account none either);
   * `session_absent` when `options.actor` no longer stands.
   */
  removePasskey(
    userId: string,
    id: string,
    options?: OwnFactorChange,
  ): Promise<boolean>;
  /**
   * Records a sign-in with passkey `id`: sets its counter and last use,
   * only if the passkey still exists and the counter grew (or both the
   * stored and the new counter are 0: an authenticator that does not
   * count). False otherwise (a replayed or cloned authenticator). With
   * `use.challenge` and `use.pending`, only while that challenge and that
   * pending sign-in of the passkey's account are live, spending both in
   * the same commit (false, and nothing spent, otherwise); with
   * `use.actor`, `session_absent` and nothing spent once it no longer
   * stands.
   */
  usePasskey(id: string, use: PasskeyUse): Promise<boolean>;

  /**
   * Removes every second factor of an account (TOTP, recovery codes, a
   * pending enrolment, passkeys) and moves the factor version, with
   * `removal.events`, under the reach rule, at once. False, and nothing
   * written, when the account has neither TOTP nor a passkey (a racing
   * removal took them first). `user_not_found`, `role_beyond_reach`.
   */
  removeUserSecondFactor(
    userId: string,
    removal: SecondFactorRemoval,
  ): Promise<boolean>;

  /**
   * Deletes up to `limit` pending sign-ins, challenges and TOTP enrolments
   * expired by `now`; returns how many.
   */
  deleteExpiredFactorRecords(now: number, limit: number): Promise<number>;
}
