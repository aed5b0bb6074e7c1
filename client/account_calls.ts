/**
 * The signed-in person's own account security, as plain functions over the
 * transport (REST unless replaced): change the password, prove who you are
 * again, see and end sessions, read one's own activity (DESIGN.md §8, §10).
 *
 * @module
 */

import { changingRecoveryCodes } from "./_recovery_code_changes.ts";
import { activeTransport } from "./transport.ts";
import type { SessionUser } from "./types.ts";
import type {
  AccountSession,
  AccountUpdate,
  ActivityQuery,
  AuditEventPage,
  PasswordChange,
  Proof,
} from "./security_types.ts";

/**
 * Changes one's own password (`POST /api/auth/password`). Every session of
 * the account ends, this one is renewed in the same answer, and pending
 * reset links die.
 *
 * @param change The current and the new password.
 * @returns Once changed.
 * @throws {PasswordIncorrectError} The current password is wrong (`field`: `current_password`).
 * @throws {ValidationError} The new password is refused (`code`: `password_too_short`, `password_too_common`…).
 * @throws {RateLimitedError} Too many wrong passwords from this address.
 *
 * @example From a form
 * ```ts
 * import { changePassword, PasswordIncorrectError } from "@gatehouse/client";
 *
 * async function change(current: string, next: string): Promise<string> {
 *   try {
 *     await changePassword({ currentPassword: current, newPassword: next });
 *     return "changed";
 *   } catch (error) {
 *     if (error instanceof PasswordIncorrectError) return "wrong current password";
 *     throw error;
 *   }
 * }
 * ```
 */
export function changePassword(change: PasswordChange): Promise<void> {
  return activeTransport().changePassword(change);
}

/**
 * Proves who you are again (`POST /api/auth/reauthenticate`), so that
 * sensitive writes pass for the re-authentication window (30 minutes by
 * default). The screens ask for it in a dialog (`useReauthentication`).
 *
 * @param proof The password, a code, a recovery code or a passkey's answer.
 * @returns Once renewed.
 * @throws {PasswordIncorrectError} The password is wrong (`field`: `password`).
 * @throws {CodeInvalidError} The code is wrong.
 * @throws {TotpNotEnabledError} A code was given, but no app is enabled.
 * @throws {PasskeyInvalidError} The passkey's answer did not verify.
 *
 * @example With the password
 * ```ts
 * import { reauthenticate } from "@gatehouse/client";
 *
 * const confirm = (password: string) => reauthenticate({ password });
 * ```
 */
export function reauthenticate(proof: Proof): Promise<void> {
  const answer = activeTransport().reauthenticate(proof);
  return "recoveryCode" in proof ? changingRecoveryCodes(answer) : answer;
}

/**
 * Changes one's own name or the language of one's mail (`PATCH
 * /api/auth/account`): `en` or a language the server's mail is written in
 * (`es`). A chosen language is kept; until one is chosen, each sign-in sets
 * it from the browser. Put the answer in the cache with `adoptSession`.
 *
 * @param update The name, the language, or both.
 * @returns The signed-in account as it is now.
 * @throws {ValidationError} The name is refused (`name_required`, `name_too_long`) or the language is not one of the server's (`locale_unknown`).
 *
 * @example Mail in Spanish
 * ```ts
 * import { updateAccount } from "@gatehouse/client";
 *
 * const spanish = () => updateAccount({ locale: "es" });
 * ```
 */
export function updateAccount(update: AccountUpdate): Promise<SessionUser> {
  return activeTransport().updateAccount(update);
}

/**
 * The signed-in account's live sessions, newest first (`GET
 * /api/auth/sessions`); `current` marks this browser's.
 *
 * @returns The sessions.
 * @throws {UnauthorizedError} The session is gone.
 *
 * @example Counting the other devices
 * ```ts
 * import { listSessions } from "@gatehouse/client";
 *
 * const others = async () => (await listSessions()).filter((s) => !s.current).length;
 * ```
 */
export function listSessions(): Promise<AccountSession[]> {
  return activeTransport().listSessions();
}

/**
 * Ends one of the signed-in account's sessions (`DELETE
 * /api/auth/sessions/{id}`); ending the current one signs this browser out.
 *
 * @param id The session's id (from `listSessions`).
 * @returns Once ended.
 * @throws {SessionNotFoundError} No such live session of this account.
 *
 * @example Ending a lost phone's session
 * ```ts
 * import { revokeSession } from "@gatehouse/client";
 *
 * const end = (id: string) => revokeSession(id);
 * ```
 */
export function revokeSession(id: string): Promise<void> {
  return activeTransport().revokeSession(id);
}

/**
 * Ends every session of the signed-in account but this one (`DELETE
 * /api/auth/sessions`).
 *
 * @returns Once ended.
 *
 * @example "Sign out everywhere else"
 * ```ts
 * import { revokeOtherSessions } from "@gatehouse/client";
 *
 * const elsewhere: () => Promise<void> = revokeOtherSessions;
 * ```
 */
export function revokeOtherSessions(): Promise<void> {
  return activeTransport().revokeOtherSessions();
}

/**
 * A page of the signed-in account's own security events, newest first
 * (`GET /api/auth/activity`): sign-ins with device and address, password
 * changes, sessions ended…
 *
 * @param query `limit` and `cursor`.
 * @returns The page.
 *
 * @example The ten latest
 * ```ts
 * import { listActivity } from "@gatehouse/client";
 *
 * const latest = () => listActivity({ limit: 10 });
 * ```
 */
export function listActivity(
  query: ActivityQuery = {},
): Promise<AuditEventPage> {
  return activeTransport().listActivity(query);
}
