// Security notices from audit events: a notice exists exactly when the
// event that records its change was committed (the trail hands over only
// committed events), so a refused or failed change sends none, and each
// event gives at most one notice.
//
// `new_sign_in` comes from every completed sign-in's `login.succeeded`, and
// goes out only when the sign-in's browser or network is new to the account
// (./new_sign_in.ts, decided after the answer). `account_locked` comes from
// `login.locked`, which the account lock (§15) records once per lock window
// (and once per lock until a reset), naming the account when the address
// has one. `sso_linked` comes from `sso.linked`, recorded in the commit that
// links an identity to an account (§13).

import type { AuditEventType } from "@gatehouse/contract";
import type { AuditEvent } from "../audit_event.ts";
import type { NoticeData } from "./data.ts";
import type { NoticeKind } from "./kinds.ts";

/** The notice each event type gives, if any. */
export const NOTICE_OF_EVENT: Readonly<
  Partial<Record<AuditEventType, NoticeKind>>
> = Object.freeze({
  "password.changed": "password_changed",
  "password.reset": "password_changed",
  "second_factor.enabled": "second_factor_enabled",
  "second_factor.disabled": "second_factor_disabled",
  "passkey.added": "passkey_added",
  "passkey.removed": "passkey_removed",
  "recovery_codes.regenerated": "recovery_codes_regenerated",
  "login.succeeded": "new_sign_in",
  "login.locked": "account_locked",
  "sso.linked": "sso_linked",
});

/** The notice of a committed event, its recipient and its facts; null for none. */
export function noticeOf(
  event: AuditEvent,
): {
  kind: NoticeKind;
  to: string;
  facts: Omit<NoticeData, "product" | "email" | "name">;
} | null {
  const kind = NOTICE_OF_EVENT[event.type];
  // The account acted upon (the actor's own, unless an administrator acted).
  const to = event.targetEmail;
  if (kind === undefined || to === null || to === "") return null;
  return {
    kind,
    to,
    facts: {
      at: event.at,
      browser: event.userAgent,
      ip: event.ip,
      byAdministrator: event.detail.by_administrator === true ||
        (event.actorId !== null && event.actorId !== event.targetId),
      viaReset: event.type === "password.reset",
      untilReset: event.type === "login.locked" &&
        event.detail.until === "reset",
    },
  };
}
