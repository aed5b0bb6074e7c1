// TOTP and recovery codes in KvStore: the pending enrolment, its
// confirmation, removal, and the two single-use spends (a time step, a
// recovery code). Each decision is one read of the records it depends on
// and one commit checked against them.

import { AuthError } from "../../http/errors.ts";
import type {
  AccountFactors,
  TotpConfirmation,
  TotpEnrolment,
  TotpRecord,
} from "../../core/store_factors.ts";
import type { WithEvents } from "../../core/store.ts";
import { retry } from "./_atomic.ts";
import { addEvents } from "./_audit.ts";
import {
  afterRemoval,
  type FactorKeys,
  factorsOf,
  type TotpValue,
  withFactors,
} from "./_factor_keys.ts";
import { ttl, type UserValue } from "./_keys.ts";

/** The account's second factors, or null. */
export async function accountFactors(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
): Promise<AccountFactors | null> {
  const user = await kv.get<UserValue>(k.user(userId));
  return user.value === null ? null : factorsOf(user.value);
}

/** Keeps an enrolment, replacing any earlier one, while TOTP is off. */
export async function startTotpEnrolment(
  kv: Deno.Kv,
  k: FactorKeys,
  enrolment: TotpEnrolment,
): Promise<void> {
  await retry(async () => {
    const user = await kv.get<UserValue>(k.user(enrolment.userId));
    if (user.value === null) throw new AuthError("user_not_found");
    if (factorsOf(user.value).totpEnabled) {
      throw new AuthError("second_factor_enabled");
    }
    const op = kv.atomic().check(user).set(
      k.totpEnrolment(enrolment.userId),
      enrolment,
      ttl(enrolment.expiresAt, enrolment.createdAt),
    );
    return { op, result: undefined };
  });
}

/** The live enrolment, or null. */
export async function totpEnrolment(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  now: number,
): Promise<TotpEnrolment | null> {
  const entry = await kv.get<TotpEnrolment>(k.totpEnrolment(userId));
  return entry.value !== null && entry.value.expiresAt > now
    ? entry.value
    : null;
}

/** Enables TOTP from the live enrolment with this secret, codes and step. */
export function confirmTotp(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  confirmation: TotpConfirmation,
): Promise<boolean> {
  return retry(async () => {
    const [user, enrolment] = await kv.getMany<[UserValue, TotpEnrolment]>([
      k.user(userId),
      k.totpEnrolment(userId),
    ]);
    if (user.value === null) return { op: null, result: false };
    if (factorsOf(user.value).totpEnabled) {
      throw new AuthError("second_factor_enabled");
    }
    const pending = enrolment.value;
    if (
      pending === null || pending.expiresAt <= confirmation.now ||
      pending.secret !== confirmation.secret
    ) {
      return { op: null, result: false };
    }
    const totp: TotpValue = {
      secret: pending.secret,
      lastStep: confirmation.step,
      recoveryCodes: [...confirmation.recoveryCodeHashes],
    };
    const op = addEvents(kv.atomic(), k, confirmation.events)
      .check(user, enrolment)
      .set(k.user(userId), withFactors(user.value, { totpEnabled: true }))
      .set(k.totp(userId), totp)
      .delete(k.totpEnrolment(userId));
    return { op, result: true };
  });
}

/** The enabled TOTP, or null. */
export async function totp(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
): Promise<TotpRecord | null> {
  const entry = await kv.get<TotpValue>(k.totp(userId));
  const value = entry.value;
  return value === null ? null : {
    secret: value.secret,
    lastStep: value.lastStep,
    recoveryCodesLeft: value.recoveryCodes.length,
  };
}

/** Removes TOTP and its codes, moving the factor version. */
export function disableTotp(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  options: WithEvents = {},
): Promise<boolean> {
  return retry(async () => {
    const [user, entry] = await kv.getMany<[UserValue, TotpValue]>([
      k.user(userId),
      k.totp(userId),
    ]);
    if (user.value === null || entry.value === null) {
      return { op: null, result: false };
    }
    const op = addEvents(kv.atomic(), k, options.events).check(user, entry)
      .set(k.user(userId), afterRemoval(user.value, { totpEnabled: false }))
      .delete(k.totp(userId));
    return { op, result: true };
  });
}

// One read-modify-write of the TOTP record: `change` answers the new value
// and the result, or null to write nothing (and answer `none`); `events`
// are written with the change.
function updateTotp<T>(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  none: T,
  change: (value: TotpValue) => { next: TotpValue; result: T } | null,
  events?: WithEvents["events"],
): Promise<T> {
  return retry(async () => {
    const entry = await kv.get<TotpValue>(k.totp(userId));
    const decided = entry.value === null ? null : change(entry.value);
    if (decided === null) return { op: null, result: none };
    const op = addEvents(kv.atomic(), k, events).check(entry)
      .set(k.totp(userId), decided.next);
    return { op, result: decided.result };
  });
}

/** Replaces every recovery code. */
export function replaceRecoveryCodes(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  hashes: readonly string[],
  options: WithEvents = {},
): Promise<boolean> {
  return updateTotp(kv, k, userId, false, (value) => ({
    next: { ...value, recoveryCodes: [...hashes] },
    result: true,
  }), options.events);
}

/** Accepts `step` once, if later than the last accepted one. */
export function useTotpStep(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  step: number,
): Promise<boolean> {
  return updateTotp(
    kv,
    k,
    userId,
    false,
    (value) =>
      step > value.lastStep
        ? { next: { ...value, lastStep: step }, result: true }
        : null,
  );
}

/** Replaces the stored secret if it is still `previous`. */
export function replaceTotpSecret(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  previous: string,
  next: string,
): Promise<boolean> {
  return updateTotp(
    kv,
    k,
    userId,
    false,
    (value) =>
      value.secret === previous
        ? { next: { ...value, secret: next }, result: true }
        : null,
  );
}

/** Spends one recovery code; the codes left, or null. */
export function useRecoveryCode(
  kv: Deno.Kv,
  k: FactorKeys,
  userId: string,
  codeHash: string,
  options: WithEvents = {},
): Promise<number | null> {
  return updateTotp<number | null>(kv, k, userId, null, (value) => {
    if (!value.recoveryCodes.includes(codeHash)) return null;
    const recoveryCodes = value.recoveryCodes.filter((h) => h !== codeHash);
    return { next: { ...value, recoveryCodes }, result: recoveryCodes.length };
  }, options.events);
}
