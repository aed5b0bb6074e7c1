// The keys and values of second factors in KvStore, beside the account
// keys of _keys.ts:
//
//   totp/{user id}                       -> TotpValue (secret, last step, codes)
//   totp_enrolment/{user id}             -> TotpEnrolment
//   pending_sign_in/{token hash}         -> PendingSignIn
//   webauthn_challenge/{token hash}      -> ChallengeRecord
//   passkey/{id}                         -> PasskeyRecord
//   passkey_user/{user id}/{id}          -> null         (listing, removal)
//   passkey_credential/{credential id}   -> passkey id   (sign-in lookup)
//
// The account record itself carries `totpEnabled`, `passkeyCount` and
// `factorVersion`, so a sign-in learns them in the read it does anyway, and
// every factor change commits against the account's versionstamp: a cap on
// passkeys and the factor version hold under concurrency. Recovery codes
// live inside the TOTP record: spending one, accepting a time step and
// replacing the codes all commit against that one record.

import type { AccountFactors } from "../../core/store_factors.ts";
import { kvKeys, type UserValue } from "./_keys.ts";

/** The enabled TOTP of an account as KvStore keeps it. */
export interface TotpValue {
  secret: string;
  lastStep: number;
  /** SHA-256 digests of the unused recovery codes. */
  recoveryCodes: string[];
}

/** The account keys plus those of second factors, under `prefix`. */
export function factorKeys(prefix: Deno.KvKey) {
  const key = (...parts: Deno.KvKeyPart[]): Deno.KvKey => [...prefix, ...parts];
  return {
    ...kvKeys(prefix),
    totp: (userId: string) => key("totp", userId),
    totpEnrolment: (userId: string) => key("totp_enrolment", userId),
    pendingSignIn: (hash: string) => key("pending_sign_in", hash),
    pendingSignIns: () => key("pending_sign_in"),
    challenge: (hash: string) => key("webauthn_challenge", hash),
    challenges: () => key("webauthn_challenge"),
    totpEnrolments: () => key("totp_enrolment"),
    passkey: (id: string) => key("passkey", id),
    passkeyUser: (userId: string, id: string) =>
      key("passkey_user", userId, id),
    passkeysOfUser: (userId: string) => key("passkey_user", userId),
    passkeyCredential: (credentialId: string) =>
      key("passkey_credential", credentialId),
  };
}

/** The key builders of one store, second factors included. */
export type FactorKeys = ReturnType<typeof factorKeys>;

/** The second factors of a stored account (absent fields: none yet). */
export function factorsOf(user: UserValue): AccountFactors {
  return {
    totpEnabled: user.totpEnabled ?? false,
    passkeyCount: user.passkeyCount ?? 0,
    factorVersion: user.factorVersion ?? 0,
  };
}

/** The account with its factor fields replaced. */
export function withFactors(
  user: UserValue,
  factors: Partial<AccountFactors>,
): UserValue {
  return { ...user, ...factorsOf(user), ...factors };
}

/**
 * The account after a factor removal: `factors` replaced and the factor
 * version moved, which kills every pending sign-in bound to the old one.
 */
export function afterRemoval(
  user: UserValue,
  factors: Partial<Omit<AccountFactors, "factorVersion">>,
): UserValue {
  const { factorVersion } = factorsOf(user);
  return withFactors(user, { ...factors, factorVersion: factorVersion + 1 });
}
