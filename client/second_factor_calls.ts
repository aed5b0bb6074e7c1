/**
 * Second factors and passkeys, as plain functions over the transport
 * (DESIGN.md §9): enrol and remove an authenticator app, recovery codes,
 * the second step of a sign-in, passkeys (register, list, rename, remove,
 * sign in). The browser side of WebAuthn is `@simplewebauthn/browser`'s:
 * these pass its JSON through.
 *
 * @module
 */

import { changingRecoveryCodes } from "./_recovery_code_changes.ts";
import { activeTransport } from "./transport.ts";
import type {
  Passkey,
  PasskeyOptions,
  SecondFactorProof,
  TotpSetup,
} from "./security_types.ts";
import type { SessionUser } from "./types.ts";

/**
 * Starts enrolling an authenticator app (`POST /api/auth/totp/setup`): the
 * secret, its `otpauth://` URL and a QR code (SVG). Nothing is on until
 * {@linkcode confirmTotp}.
 *
 * @returns The pending setup.
 * @throws {SecondFactorEnabledError} An app is already enabled.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example Showing the key
 * ```ts
 * import { setupTotp } from "@gatehouse/client";
 *
 * const key = async () => (await setupTotp()).secret;
 * ```
 */
export function setupTotp(): Promise<TotpSetup> {
  return activeTransport().setupTotp();
}

/**
 * Finishes the enrolment with a code from the app (`POST
 * /api/auth/totp/confirm`); answers the ten recovery codes, shown once.
 *
 * @param code The six digits the app shows.
 * @returns The recovery codes.
 * @throws {CodeInvalidError} The code is wrong.
 * @throws {SecondFactorEnabledError} An app is already enabled.
 *
 * @example
 * ```ts
 * import { confirmTotp } from "@gatehouse/client";
 *
 * const confirm = (code: string): Promise<string[]> => confirmTotp(code);
 * ```
 */
export function confirmTotp(code: string): Promise<string[]> {
  return changingRecoveryCodes(activeTransport().confirmTotp(code));
}

/**
 * Removes the authenticator app and its recovery codes (`DELETE
 * /api/auth/totp`).
 *
 * @returns Once removed.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { disableTotp } from "@gatehouse/client";
 *
 * const turnOff: () => Promise<void> = disableTotp;
 * ```
 */
export function disableTotp(): Promise<void> {
  return changingRecoveryCodes(activeTransport().disableTotp());
}

/**
 * New recovery codes (`POST /api/auth/recovery-codes`); the old ones die.
 *
 * @returns The ten new codes, shown once.
 * @throws {TotpNotEnabledError} No app is enabled.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { regenerateRecoveryCodes } from "@gatehouse/client";
 *
 * const fresh: () => Promise<string[]> = regenerateRecoveryCodes;
 * ```
 */
export function regenerateRecoveryCodes(): Promise<string[]> {
  return changingRecoveryCodes(activeTransport().regenerateRecoveryCodes());
}

/**
 * How many recovery codes the signed-in account has left unused (`GET
 * /api/auth/recovery-codes`): ten after an enrolment or a regeneration, one
 * fewer for each spent, 0 when no app is enabled. In a component,
 * `useRecoveryCodeCount()` reads it through the query cache and refreshes
 * it after the calls that change it.
 *
 * @returns The count.
 * @throws {UnauthorizedError} The session is gone.
 *
 * @example Time to make new ones
 * ```ts
 * import { countRecoveryCodes } from "./second_factor_calls.ts";
 *
 * const runningLow = async () => (await countRecoveryCodes()) <= 3;
 * ```
 */
export function countRecoveryCodes(): Promise<number> {
  return activeTransport().countRecoveryCodes();
}

/**
 * Finishes a sign-in whose password step answered a
 * `SecondFactorChallenge` (`POST /api/auth/second-factor`).
 *
 * @param proof A code, a recovery code or a passkey's answer.
 * @returns The signed-in account.
 * @throws {InvalidCredentialsError} The code is wrong; try again.
 * @throws {InvalidTokenError} The pending sign-in ended (five wrong codes, five minutes): start again with the password.
 * @throws {RateLimitedError} Too many attempts.
 *
 * @example The second step
 * ```ts
 * import { isSecondFactorChallenge, login, verifySecondFactor } from "@gatehouse/client";
 *
 * async function signIn(email: string, password: string, code: () => Promise<string>) {
 *   const result = await login(email, password);
 *   return isSecondFactorChallenge(result)
 *     ? await verifySecondFactor({ code: await code() })
 *     : result;
 * }
 * ```
 */
export function verifySecondFactor(
  proof: SecondFactorProof,
): Promise<SessionUser> {
  const answer = activeTransport().verifySecondFactor(proof);
  return "recoveryCode" in proof ? changingRecoveryCodes(answer) : answer;
}

/**
 * WebAuthn creation options for a new passkey (`POST
 * /api/auth/passkeys/register/options`), for `startRegistration`.
 *
 * @returns The options.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { passkeyRegistrationOptions } from "./second_factor_calls.ts";
 *
 * const options = () => passkeyRegistrationOptions();
 * ```
 */
export function passkeyRegistrationOptions(): Promise<PasskeyOptions> {
  return activeTransport().passkeyRegistrationOptions();
}

/**
 * Registers a passkey from the authenticator's answer (`POST
 * /api/auth/passkeys`).
 *
 * @param response What `startRegistration` answered.
 * @param name A name for it ("Laptop").
 * @returns The passkey.
 * @throws {PasskeyInvalidError} The answer did not verify.
 *
 * @example
 * ```ts
 * import { registerPasskey } from "@gatehouse/client";
 *
 * const save = (response: Record<string, unknown>) => registerPasskey(response, "Laptop");
 * ```
 */
export function registerPasskey(
  response: Readonly<Record<string, unknown>>,
  name?: string,
): Promise<Passkey> {
  return activeTransport().registerPasskey(response, name);
}

/**
 * The signed-in account's passkeys (`GET /api/auth/passkeys`).
 *
 * @returns The passkeys, oldest first.
 *
 * @example
 * ```ts
 * import { listPasskeys } from "@gatehouse/client";
 *
 * const names = async () => (await listPasskeys()).map((p) => p.name);
 * ```
 */
export function listPasskeys(): Promise<Passkey[]> {
  return activeTransport().listPasskeys();
}

/**
 * Renames a passkey (`PATCH /api/auth/passkeys/{id}`).
 *
 * @param id The passkey's id.
 * @param name The new name.
 * @returns The passkey.
 * @throws {PasskeyNotFoundError} No such passkey of this account.
 * @throws {ValidationError} The name is empty or too long.
 *
 * @example
 * ```ts
 * import { renamePasskey } from "@gatehouse/client";
 *
 * const rename = (id: string) => renamePasskey(id, "Phone");
 * ```
 */
export function renamePasskey(id: string, name: string): Promise<Passkey> {
  return activeTransport().renamePasskey(id, name);
}

/**
 * Removes a passkey (`DELETE /api/auth/passkeys/{id}`).
 *
 * @param id The passkey's id.
 * @returns Once removed.
 * @throws {PasskeyNotFoundError} No such passkey of this account.
 * @throws {ReauthenticationRequiredError} Prove who you are first.
 *
 * @example
 * ```ts
 * import { removePasskey } from "@gatehouse/client";
 *
 * const remove = (id: string) => removePasskey(id);
 * ```
 */
export function removePasskey(id: string): Promise<void> {
  return activeTransport().removePasskey(id);
}

/**
 * WebAuthn request options (`POST /api/auth/passkeys/login/options`), for
 * `startAuthentication`: to sign in, to finish a pending sign-in, or to
 * re-authenticate, as the cookies say.
 *
 * @returns The options.
 * @throws {RateLimitedError} Too many options asked for from this address
 *   (each writes a challenge on the server); `retryAfter` says for how long.
 *
 * @example
 * ```ts
 * import { passkeyLoginOptions } from "./second_factor_calls.ts";
 *
 * const options = () => passkeyLoginOptions();
 * ```
 */
export function passkeyLoginOptions(): Promise<PasskeyOptions> {
  return activeTransport().passkeyLoginOptions();
}

/**
 * Signs in with a passkey, no password (`POST /api/auth/passkeys/login`).
 *
 * @param response What `startAuthentication` answered.
 * @returns The signed-in account.
 * @throws {InvalidCredentialsError} The passkey was refused.
 * @throws {InvalidTokenError} The challenge expired: ask for new options.
 *
 * @example
 * ```ts
 * import { loginWithPasskey } from "@gatehouse/client";
 *
 * const finish = (response: Record<string, unknown>) => loginWithPasskey(response);
 * ```
 */
export function loginWithPasskey(
  response: Readonly<Record<string, unknown>>,
): Promise<SessionUser> {
  return activeTransport().loginWithPasskey(response);
}
