/**
 * Canned answers of account security and the audit trail (DESIGN.md §8,
 * §10): password change, re-authentication, sessions, one's own activity,
 * an administrator ending sessions or removing a second factor, and the
 * audit log. Factories named `<operation><Outcome>()`, as every canned
 * handler is; `refuse` answers any other code.
 *
 * @module
 */

import type { HttpHandler } from "../_peer_types.ts";
import type { AccountSession, AuditEvent } from "../security_types.ts";
import type { SessionUser } from "../types.ts";
import { jsonBody, text } from "./_routes.ts";
import { answer, refuse } from "./answers.ts";
import { auditEventOf, currentSession, otherSession } from "./security_data.ts";

/**
 * One's own name or language changes: 200 with `user` as the request left
 * it (the name given, trimmed; the language given).
 *
 * @param user The signed-in account before the change.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { defaultUser, updateAccountOk } from "@gatehouse/client/testing";
 *
 * const handler = updateAccountOk({ ...defaultUser, locale: "en" });
 * ```
 */
export function updateAccountOk(user: SessionUser): HttpHandler {
  return answer("updateAccount", async (request) => {
    const body = await jsonBody(request);
    return {
      ...user,
      name: text(body.name, user.name).trim(),
      locale: text(body.locale, user.locale ?? ""),
    };
  });
}

/**
 * The change is refused: 400 `locale_unknown` (field `locale`),
 * `name_required` or `name_too_long` (field `name`).
 *
 * @param code What refuses it.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { updateAccountRefused } from "@gatehouse/client/testing";
 *
 * const handler = updateAccountRefused("locale_unknown");
 * ```
 */
export function updateAccountRefused(
  code: "locale_unknown" | "name_required" | "name_too_long",
): HttpHandler {
  return refuse("updateAccount", code, {
    meta: { field: code === "locale_unknown" ? "locale" : "name" },
  });
}

/**
 * The password change succeeds: 204 (the real server renews the cookie).
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { changePasswordOk } from "@gatehouse/client/testing";
 *
 * const handler = changePasswordOk();
 * ```
 */
export function changePasswordOk(): HttpHandler {
  return answer("changePassword");
}

/**
 * The current password is wrong: 403 `password_incorrect`, field
 * `current_password`.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { changePasswordIncorrect } from "@gatehouse/client/testing";
 *
 * const handler = changePasswordIncorrect();
 * ```
 */
export function changePasswordIncorrect(): HttpHandler {
  return refuse("changePassword", "password_incorrect", {
    meta: { field: "current_password" },
  });
}

/**
 * The new password is refused: 400 with `code` (`password_too_common` by
 * default), field `new_password`.
 *
 * @param code `password_too_short`, `password_too_long` or `password_too_common`.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { changePasswordRefused } from "@gatehouse/client/testing";
 *
 * const handler = changePasswordRefused("password_too_short");
 * ```
 */
export function changePasswordRefused(
  code:
    | "password_too_short"
    | "password_too_long"
    | "password_too_common" = "password_too_common",
): HttpHandler {
  return refuse("changePassword", code, {
    meta: { field: "new_password" },
  });
}

/**
 * The limiter refuses the password change: 429 with `Retry-After`.
 *
 * @param retryAfter Seconds; 60 by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { changePasswordRateLimited } from "@gatehouse/client/testing";
 *
 * const handler = changePasswordRateLimited(120);
 * ```
 */
export function changePasswordRateLimited(retryAfter = 60): HttpHandler {
  return refuse("changePassword", "login_rate_limited", { retryAfter });
}

/**
 * The re-authentication succeeds: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { reauthenticateOk } from "@gatehouse/client/testing";
 *
 * const handler = reauthenticateOk();
 * ```
 */
export function reauthenticateOk(): HttpHandler {
  return answer("reauthenticate");
}

/**
 * The re-authentication is refused: 403 `password_incorrect` (field
 * `password`), or 400 `code_invalid` / 409 `totp_not_enabled` (field
 * `code`, or `recovery_code` when a recovery code was the proof), or 400
 * `passkey_invalid` (field `passkey`), each with the field the server names.
 *
 * @param code What refuses it; `password_incorrect` by default.
 * @param field For a code: which one was wrong; `code` by default.
 * @returns The handler.
 *
 * @example A wrong recovery code
 * ```ts
 * import { reauthenticateRefused } from "@gatehouse/client/testing";
 *
 * const handler = reauthenticateRefused("code_invalid", "recovery_code");
 * ```
 */
export function reauthenticateRefused(
  code:
    | "password_incorrect"
    | "code_invalid"
    | "passkey_invalid"
    | "totp_not_enabled" = "password_incorrect",
  field: "code" | "recovery_code" = "code",
): HttpHandler {
  const named = code === "password_incorrect"
    ? "password"
    : code === "passkey_invalid"
    ? "passkey"
    : field;
  return refuse("reauthenticate", code, { meta: { field: named } });
}

/**
 * The limiter refuses the re-authentication: 429 with `Retry-After`.
 *
 * @param retryAfter Seconds; 60 by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { reauthenticateRateLimited } from "@gatehouse/client/testing";
 *
 * const handler = reauthenticateRateLimited();
 * ```
 */
export function reauthenticateRateLimited(retryAfter = 60): HttpHandler {
  return refuse("reauthenticate", "login_rate_limited", { retryAfter });
}

/**
 * The session list answers these sessions.
 *
 * @param sessions This browser's and another device's by default.
 * @returns The handler.
 *
 * @example Only this browser
 * ```ts
 * import { currentSession, listSessionsOk } from "@gatehouse/client/testing";
 *
 * const handler = listSessionsOk([currentSession]);
 * ```
 */
export function listSessionsOk(
  sessions: readonly AccountSession[] = [currentSession, otherSession],
): HttpHandler {
  return answer("listSessions", { sessions });
}

/**
 * Ending one session succeeds: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { revokeSessionOk } from "@gatehouse/client/testing";
 *
 * const handler = revokeSessionOk();
 * ```
 */
export function revokeSessionOk(): HttpHandler {
  return answer("revokeSession");
}

/**
 * The session is not one of the caller's live ones: 404 `session_not_found`.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { revokeSessionNotFound } from "@gatehouse/client/testing";
 *
 * const handler = revokeSessionNotFound();
 * ```
 */
export function revokeSessionNotFound(): HttpHandler {
  return refuse("revokeSession", "session_not_found");
}

/**
 * Ending every other session succeeds: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { revokeOtherSessionsOk } from "@gatehouse/client/testing";
 *
 * const handler = revokeOtherSessionsOk();
 * ```
 */
export function revokeOtherSessionsOk(): HttpHandler {
  return answer("revokeOtherSessions");
}

/**
 * An administrator ends another account's sessions: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { revokeUserSessionsOk } from "@gatehouse/client/testing";
 *
 * const handler = revokeUserSessionsOk();
 * ```
 */
export function revokeUserSessionsOk(): HttpHandler {
  return answer("revokeUserSessions");
}

/**
 * Ending another account's sessions is refused: 404 `user_not_found`, 403
 * `role_beyond_reach` or 403 `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request (then the handlers behind answer).
 * @returns The handler.
 *
 * @example Past the re-authentication window, once
 * ```ts
 * import { revokeUserSessionsRefused } from "@gatehouse/client/testing";
 *
 * const handler = revokeUserSessionsRefused("reauthentication_required", true);
 * ```
 */
export function revokeUserSessionsRefused(
  code: "user_not_found" | "role_beyond_reach" | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("revokeUserSessions", code, { once });
}

/**
 * An administrator removes another account's second factor: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { removeUserSecondFactorOk } from "@gatehouse/client/testing";
 *
 * const handler = removeUserSecondFactorOk();
 * ```
 */
export function removeUserSecondFactorOk(): HttpHandler {
  return answer("removeUserSecondFactor");
}

/**
 * Removing another account's second factor is refused: 404
 * `user_not_found`, 403 `role_beyond_reach` or 403
 * `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { removeUserSecondFactorRefused } from "@gatehouse/client/testing";
 *
 * const handler = removeUserSecondFactorRefused("role_beyond_reach");
 * ```
 */
export function removeUserSecondFactorRefused(
  code: "user_not_found" | "role_beyond_reach" | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("removeUserSecondFactor", code, { once });
}

/**
 * An administrator clears another account's lock: 204.
 *
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { unlockUserOk } from "@gatehouse/client/testing";
 *
 * const handler = unlockUserOk();
 * ```
 */
export function unlockUserOk(): HttpHandler {
  return answer("unlockUser");
}

/**
 * Clearing another account's lock is refused: 404 `user_not_found`, 403
 * `role_beyond_reach` or 403 `reauthentication_required`.
 *
 * @param code What refuses it.
 * @param once Refuse only the first request.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { unlockUserRefused } from "@gatehouse/client/testing";
 *
 * const handler = unlockUserRefused("role_beyond_reach");
 * ```
 */
export function unlockUserRefused(
  code: "user_not_found" | "role_beyond_reach" | "reauthentication_required",
  once = false,
): HttpHandler {
  return refuse("unlockUser", code, { once });
}

// A page of `events` as the server filters it: by `user_id` or `email`
// (actor or target; an address compared trimmed and lower-cased, standing
// for the account that has it) and `type`, from the request's query.
function pageOf(
  events: readonly AuditEvent[],
  nextCursor: string | null,
  url: URL,
) {
  const user = url.searchParams.get("user_id");
  const email = url.searchParams.get("email")?.trim().toLowerCase() ?? null;
  const type = url.searchParams.get("type");
  const named = (account: AuditEvent["actor"]) =>
    account !== null &&
    (user === null || account.id === user) &&
    (email === null || account.email?.toLowerCase() === email);
  const matching = events.filter((event) =>
    (user === null && email === null || named(event.actor) ||
      named(event.target)) &&
    (type === null || event.type === type)
  );
  return { events: matching, nextCursor };
}

const SOME_EVENTS = (): AuditEvent[] => [
  auditEventOf("login.succeeded"),
  auditEventOf("password.changed"),
];

/**
 * The audit log answers a page of `events`, filtered by the request's
 * `user_id` or `email` and `type` as the server does.
 *
 * @param events The events; a sign-in and a password change by default.
 * @param nextCursor The next page's cursor; null by default.
 * @returns The handler.
 *
 * @example A page with a next one
 * ```ts
 * import { auditEventOf, listAuditEventsOk } from "@gatehouse/client/testing";
 *
 * const handler = listAuditEventsOk([auditEventOf("user.disabled")], "next");
 * ```
 */
export function listAuditEventsOk(
  events: readonly AuditEvent[] = SOME_EVENTS(),
  nextCursor: string | null = null,
): HttpHandler {
  return answer(
    "listAuditEvents",
    (request) => pageOf(events, nextCursor, new URL(request.url)),
  );
}

/**
 * One's own activity answers a page of `events`.
 *
 * @param events The events; a sign-in and a password change by default.
 * @param nextCursor The next page's cursor; null by default.
 * @returns The handler.
 *
 * @example
 * ```ts
 * import { auditEventOf, listActivityOk } from "@gatehouse/client/testing";
 *
 * const handler = listActivityOk([auditEventOf("login.succeeded")]);
 * ```
 */
export function listActivityOk(
  events: readonly AuditEvent[] = SOME_EVENTS(),
  nextCursor: string | null = null,
): HttpHandler {
  return answer(
    "listActivity",
    (request) => pageOf(events, nextCursor, new URL(request.url)),
  );
}
