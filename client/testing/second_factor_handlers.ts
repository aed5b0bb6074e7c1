/**
 * Canned answers of second factors and passkeys (DESIGN.md §9): the 202 of
 * a sign-in that waits for its second factor, the second step, the
 * authenticator-app enrolment, recovery codes (and how many are left), and
 * passkeys. Factories named `<operation><Outcome>()`.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type {
  Passkey,
  SecondFactorMethod,
  TotpSetup,
} from "../security_types.ts";
import type { SessionUser } from "../types.ts";
import { jsonBody, text } from "./_routes.ts";
import { answer, refuse } from "./answers.ts";
import {
  samplePasskey,
  sampleRecoveryCodes,
  sampleTotpSetup,
} from "./security_data.ts";
import { defaultUser } from "./users.ts";

/**
 * The password is right and the account has a second factor: 202 with the
 * methods (no session yet).
 *
 * @param methods The account's methods; the app and recovery codes by default.
 * @returns The handler.
 *
 * @example An account with a passkey only
 * ```ts
 * import { loginSecondFactor } from "@gatehouse/client/testing";
 *
 * const handler = loginSecondFactor(["passkey"]);
 * ```
 */
export function loginSecondFactor(
  methods: readonly SecondFactorMethod[] = ["totp", "recovery_code"],
): HttpHandler {
  return answer("login", { secondFactor: [...methods] }, { status: 202 });
}

/**
 * The second step succeeds as the given account.
 *
 * @param user The account; {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { verifySecondFactorOk } from "@gatehouse/client/testing";
 *
 * const handler = verifySecondFactorOk();
 * ```
 */
export function verifySecondFactorOk(
  user: SessionUser = defaultUser,
): HttpHandler {
  return answer("verifySecondFactor", user);
}

/**
 * The code is wrong: 401 `credentials_invalid` (the pending sign-in lives on).
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { verifySecondFactorInvalid } from "@gatehouse/client/testing";
 *
 * const handler = verifySecondFactorInvalid();
 * ```
 */
export function verifySecondFactorInvalid(): HttpHandler {
  return refuse("verifySecondFactor", "credentials_invalid");
}

/**
 * The pending sign-in ended (fifth wrong code, older than five minutes,
 * unknown): 410 `token_invalid`.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { verifySecondFactorExpired } from "@gatehouse/client/testing";
 *
 * const handler = verifySecondFactorExpired();
 * ```
 */
export function verifySecondFactorExpired(): HttpHandler {
  return refuse("verifySecondFactor", "token_invalid");
}

/**
 * The limiter refuses the second step: 429 with `Retry-After`.
 *
 * @param retryAfter Seconds; 60 by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { verifySecondFactorRateLimited } from "@gatehouse/client/testing";
 *
 * const handler = verifySecondFactorRateLimited();
 * ```
 */
export function verifySecondFactorRateLimited(retryAfter = 60): HttpHandler {
  return refuse("verifySecondFactor", "login_rate_limited", {
    retryAfter,
  });
}

/**
 * The enrolment starts: the secret, URL and QR code.
 *
 * @param setup {@linkcode sampleTotpSetup} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { setupTotpOk } from "@gatehouse/client/testing";
 *
 * const handler = setupTotpOk();
 * ```
 */
export function setupTotpOk(setup: TotpSetup = sampleTotpSetup): HttpHandler {
  return answer("setupTotp", setup);
}

/**
 * The enrolment is refused: 409 `second_factor_enabled` or 403
 * `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { setupTotpRefused } from "@gatehouse/client/testing";
 *
 * const handler = setupTotpRefused("reauthentication_required", true);
 * ```
 */
export function setupTotpRefused(
  code: "second_factor_enabled" | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("setupTotp", code, { once });
}

/**
 * The code confirms the enrolment: the ten recovery codes.
 *
 * @param codes {@linkcode sampleRecoveryCodes} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { confirmTotpOk } from "@gatehouse/client/testing";
 *
 * const handler = confirmTotpOk();
 * ```
 */
export function confirmTotpOk(
  codes: readonly string[] = sampleRecoveryCodes,
): HttpHandler {
  return answer("confirmTotp", { recoveryCodes: [...codes] });
}

/**
 * The confirmation is refused: 400 `code_invalid` or 409
 * `second_factor_enabled`.
 *
 * @param code What refuses it; `code_invalid` by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { confirmTotpRefused } from "@gatehouse/client/testing";
 *
 * const handler = confirmTotpRefused();
 * ```
 */
export function confirmTotpRefused(
  code: "code_invalid" | "second_factor_enabled" = "code_invalid",
): HttpHandler {
  return refuse("confirmTotp", code, {
    ...(code === "code_invalid" ? { meta: { field: "code" } } : {}),
  });
}

/**
 * The app is removed: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { disableTotpOk } from "@gatehouse/client/testing";
 *
 * const handler = disableTotpOk();
 * ```
 */
export function disableTotpOk(): HttpHandler {
  return answer("disableTotp");
}

/**
 * Removing the app needs a fresh proof: 403 `reauthentication_required`.
 *
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { disableTotpReauthenticationRequired } from "@gatehouse/client/testing";
 *
 * const handler = disableTotpReauthenticationRequired(true);
 * ```
 */
export function disableTotpReauthenticationRequired(
  once = false,
): HttpHandler {
  return refuse("disableTotp", "reauthentication_required", { once });
}

/**
 * New recovery codes.
 *
 * @param codes {@linkcode sampleRecoveryCodes} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { regenerateRecoveryCodesOk } from "@gatehouse/client/testing";
 *
 * const handler = regenerateRecoveryCodesOk();
 * ```
 */
export function regenerateRecoveryCodesOk(
  codes: readonly string[] = sampleRecoveryCodes,
): HttpHandler {
  return answer("regenerateRecoveryCodes", { recoveryCodes: [...codes] });
}

/**
 * New recovery codes are refused: 409 `totp_not_enabled` or 403
 * `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { regenerateRecoveryCodesRefused } from "@gatehouse/client/testing";
 *
 * const handler = regenerateRecoveryCodesRefused("totp_not_enabled");
 * ```
 */
export function regenerateRecoveryCodesRefused(
  code: "totp_not_enabled" | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("regenerateRecoveryCodes", code, { once });
}

/**
 * How many recovery codes are left.
 *
 * @param left The count; 10 (a fresh set) by default.
 * @returns The handler.
 *
 * @example Running low
 * ```ts
 * import { countRecoveryCodesOk } from "@gatehouse/client/testing";
 *
 * const handler = countRecoveryCodesOk(3);
 * ```
 */
export function countRecoveryCodesOk(left = 10): HttpHandler {
  return answer("countRecoveryCodes", { recoveryCodesLeft: left });
}

/**
 * The session is gone: 401 `session_absent` (the client drops its session).
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { countRecoveryCodesUnauthorized } from "@gatehouse/client/testing";
 *
 * const handler = countRecoveryCodesUnauthorized();
 * ```
 */
export function countRecoveryCodesUnauthorized(): HttpHandler {
  return refuse("countRecoveryCodes", "session_absent");
}

const CREATION_OPTIONS = {
  challenge: "Y3JlYXRpb24tY2hhbGxlbmdl",
  rp: { id: "localhost", name: "Gatehouse" },
  user: { id: "dXNlcg", name: "test@example.com", displayName: "Test User" },
  pubKeyCredParams: [{ type: "public-key", alg: -7 }],
  authenticatorSelection: { userVerification: "required" },
  excludeCredentials: [],
};

/**
 * WebAuthn creation options for a new passkey.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { passkeyRegistrationOptionsOk } from "@gatehouse/client/testing";
 *
 * const handler = passkeyRegistrationOptionsOk();
 * ```
 */
export function passkeyRegistrationOptionsOk(): HttpHandler {
  return answer("passkeyRegistrationOptions", CREATION_OPTIONS);
}

/**
 * The creation options need a fresh proof: 403 `reauthentication_required`.
 *
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { passkeyRegistrationOptionsReauthenticationRequired } from "@gatehouse/client/testing";
 *
 * const handler = passkeyRegistrationOptionsReauthenticationRequired(true);
 * ```
 */
export function passkeyRegistrationOptionsReauthenticationRequired(
  once = false,
): HttpHandler {
  return refuse(
    "passkeyRegistrationOptions",
    "reauthentication_required",
    {
      once,
    },
  );
}

/**
 * The passkey is registered: 201 with the name the request gave.
 *
 * @param passkey {@linkcode samplePasskey} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { registerPasskeyOk } from "@gatehouse/client/testing";
 *
 * const handler = registerPasskeyOk();
 * ```
 */
export function registerPasskeyOk(
  passkey: Passkey = samplePasskey,
): HttpHandler {
  return answer("registerPasskey", async (request) => ({
    ...passkey,
    name: text((await jsonBody(request)).name, passkey.name),
    lastUsedAt: null,
  }));
}

/**
 * The registration is refused: 400 `passkey_invalid` or `name_too_long`.
 *
 * @param code What refuses it; `passkey_invalid` by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { registerPasskeyRefused } from "@gatehouse/client/testing";
 *
 * const handler = registerPasskeyRefused();
 * ```
 */
export function registerPasskeyRefused(
  code: "passkey_invalid" | "name_too_long" = "passkey_invalid",
): HttpHandler {
  return refuse("registerPasskey", code, {
    ...(code === "name_too_long" ? { meta: { field: "name" } } : {}),
  });
}

/**
 * The passkey list.
 *
 * @param passkeys One passkey by default.
 * @returns The handler.
 *
 * @example No passkeys
 * ```ts
 * import { listPasskeysOk } from "@gatehouse/client/testing";
 *
 * const handler = listPasskeysOk([]);
 * ```
 */
export function listPasskeysOk(
  passkeys: readonly Passkey[] = [samplePasskey],
): HttpHandler {
  return answer("listPasskeys", { passkeys });
}

/**
 * The passkey is renamed to what the request said.
 *
 * @param passkey {@linkcode samplePasskey} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { renamePasskeyOk } from "@gatehouse/client/testing";
 *
 * const handler = renamePasskeyOk();
 * ```
 */
export function renamePasskeyOk(passkey: Passkey = samplePasskey): HttpHandler {
  return answer("renamePasskey", async (request) => ({
    ...passkey,
    name: text((await jsonBody(request)).name, passkey.name),
  }));
}

/**
 * The rename is refused: 404 `passkey_not_found`, 400 `name_required` or
 * `name_too_long`.
 *
 * @param code What refuses it.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { renamePasskeyRefused } from "@gatehouse/client/testing";
 *
 * const handler = renamePasskeyRefused("name_required");
 * ```
 */
export function renamePasskeyRefused(
  code: "passkey_not_found" | "name_required" | "name_too_long",
): HttpHandler {
  return refuse("renamePasskey", code, {
    ...(code === "passkey_not_found" ? {} : { meta: { field: "name" } }),
  });
}

/**
 * The passkey is removed: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { removePasskeyOk } from "@gatehouse/client/testing";
 *
 * const handler = removePasskeyOk();
 * ```
 */
export function removePasskeyOk(): HttpHandler {
  return answer("removePasskey");
}

/**
 * The removal is refused: 404 `passkey_not_found`, 403
 * `reauthentication_required`, or 409 `last_sign_in_method` (the account's
 * last way to sign in).
 *
 * @param code What refuses it.
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { removePasskeyRefused } from "@gatehouse/client/testing";
 *
 * const handler = removePasskeyRefused("passkey_not_found");
 * ```
 */
export function removePasskeyRefused(
  code:
    | "passkey_not_found"
    | "reauthentication_required"
    | "last_sign_in_method",
  once = false,
): HttpHandler {
  return refuse("removePasskey", code, { once });
}

/**
 * WebAuthn request options (sign-in, second step or re-authentication).
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { passkeyLoginOptionsOk } from "@gatehouse/client/testing";
 *
 * const handler = passkeyLoginOptionsOk();
 * ```
 */
export function passkeyLoginOptionsOk(): HttpHandler {
  return answer("passkeyLoginOptions", {
    challenge: "cmVxdWVzdC1jaGFsbGVuZ2U",
    rpId: "localhost",
    userVerification: "required",
    allowCredentials: [],
  });
}

/**
 * The limiter refuses the passkey options (too many challenges asked for
 * from this address): 429 with `Retry-After`.
 *
 * @param retryAfter Seconds; 60 by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { passkeyLoginOptionsRateLimited } from "@gatehouse/client/testing";
 *
 * const handler = passkeyLoginOptionsRateLimited(120);
 * ```
 */
export function passkeyLoginOptionsRateLimited(retryAfter = 60): HttpHandler {
  return refuse("passkeyLoginOptions", "login_rate_limited", {
    retryAfter,
  });
}

/**
 * The passkey sign-in succeeds as the given account.
 *
 * @param user {@linkcode defaultUser} by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { loginWithPasskeyOk } from "@gatehouse/client/testing";
 *
 * const handler = loginWithPasskeyOk();
 * ```
 */
export function loginWithPasskeyOk(
  user: SessionUser = defaultUser,
): HttpHandler {
  return answer("loginWithPasskey", user);
}

/**
 * The passkey sign-in is refused: 401 `credentials_invalid` (the passkey
 * or its account is refused) or 410 `token_invalid` (the challenge expired).
 *
 * @param code What refuses it; `credentials_invalid` by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { loginWithPasskeyRefused } from "@gatehouse/client/testing";
 *
 * const handler = loginWithPasskeyRefused("token_invalid");
 * ```
 */
export function loginWithPasskeyRefused(
  code: "credentials_invalid" | "token_invalid" = "credentials_invalid",
): HttpHandler {
  return refuse("loginWithPasskey", code);
}
