/**
 * Sample data of account security for tests: sessions, an authenticator
 * setup, recovery codes, passkeys and audit events, as the canned handlers
 * answer them by default.
 *
 * @module
 */

import type {
  AccountSession,
  AuditEvent,
  AuditEventType,
  Passkey,
  TotpSetup,
} from "../security_types.ts";
import { defaultUser } from "./users.ts";

const AT = "2026-03-01T10:00:00.000Z";

/**
 * This browser's session, as `listSessions` answers it.
 *
 * @example
 * ```ts
 * import { currentSession } from "@gatehouse/client/testing";
 *
 * console.assert(currentSession.current);
 * ```
 */
export const currentSession: AccountSession = Object.freeze({
  id: "0190f0a0-0000-7000-8000-0000000000c1",
  createdAt: AT,
  lastSeenAt: "2026-03-01T11:00:00.000Z",
  expiresAt: "2026-03-08T10:00:00.000Z",
  idleExpiresAt: "2026-03-02T11:00:00.000Z",
  ip: "203.0.113.7",
  userAgent: "Firefox on Linux",
  current: true,
});

/**
 * Another device's session of the same account.
 *
 * @example
 * ```ts
 * import { otherSession } from "@gatehouse/client/testing";
 *
 * console.assert(!otherSession.current);
 * ```
 */
export const otherSession: AccountSession = Object.freeze({
  id: "0190f0a0-0000-7000-8000-0000000000c2",
  createdAt: "2026-02-27T08:00:00.000Z",
  lastSeenAt: "2026-02-28T21:30:00.000Z",
  expiresAt: "2026-03-06T08:00:00.000Z",
  idleExpiresAt: "2026-03-01T21:30:00.000Z",
  ip: "198.51.100.23",
  userAgent: "Safari on iOS",
  current: false,
});

/**
 * A pending authenticator-app enrolment.
 *
 * @example
 * ```ts
 * import { sampleTotpSetup } from "@gatehouse/client/testing";
 *
 * console.assert(sampleTotpSetup.qrSvg.startsWith("<svg"));
 * ```
 */
export const sampleTotpSetup: TotpSetup = Object.freeze({
  secret: "JBSWY3DPEHPK3PXP",
  otpauthUrl:
    "otpauth://totp/Gatehouse:test%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Gatehouse",
  qrSvg:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
});

/**
 * Ten recovery codes.
 *
 * @example
 * ```ts
 * import { sampleRecoveryCodes } from "@gatehouse/client/testing";
 *
 * console.assert(sampleRecoveryCodes.length === 10);
 * ```
 */
export const sampleRecoveryCodes: readonly string[] = Object.freeze(
  Array.from({ length: 10 }, (_, i) => `code-${String(i).padStart(2, "0")}x`),
);

/**
 * A passkey, used once.
 *
 * @example
 * ```ts
 * import { samplePasskey } from "@gatehouse/client/testing";
 *
 * console.assert(samplePasskey.name === "Laptop");
 * ```
 */
export const samplePasskey: Passkey = Object.freeze({
  id: "0190f0a0-0000-7000-8000-0000000000d1",
  name: "Laptop",
  createdAt: AT,
  lastUsedAt: "2026-03-01T12:00:00.000Z",
});

let events = 0;

/**
 * An audit event of `type`, done by {@linkcode defaultUser} to itself from
 * a Linux Firefox, unless `changes` says otherwise; each gets a new id.
 *
 * @param type What happened.
 * @param changes Fields to change.
 * @returns The event.
 *
 * @example An administrator's role change
 * ```ts
 * import { auditEventOf } from "@gatehouse/client/testing";
 *
 * const event = auditEventOf("user.role_changed", { detail: { from: "member", to: "admin" } });
 * console.assert(event.type === "user.role_changed");
 * ```
 */
export function auditEventOf(
  type: AuditEventType,
  changes: Partial<AuditEvent> = {},
): AuditEvent {
  events += 1;
  const me = { id: defaultUser.id, email: defaultUser.email };
  return Object.freeze({
    id: `0190f0a0-0000-7000-8000-${events.toString(16).padStart(12, "0")}`,
    type,
    at: AT,
    actor: me,
    target: me,
    ip: "203.0.113.7",
    userAgent: "Firefox on Linux",
    detail: {},
    ...changes,
  });
}
