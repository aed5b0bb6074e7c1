// Words for each type of audit event (DESIGN.md §10), translated; the
// audit log's filter lists them in the contract's order.

import { AUDIT_EVENT_TYPES } from "@gatehouse/contract";
import type { AuditEvent, AuditEventType } from "../security_types.ts";
import { roleLabel } from "./_roles.ts";
import { __, DOMAIN } from "./i18n.ts";

/** What an event of `type` says, for people. */
export function eventLabel(type: AuditEventType | string): string {
  switch (type as AuditEventType) {
    case "login.succeeded":
      return __("Signed in", DOMAIN);
    case "login.failed":
      return __("Failed sign-in", DOMAIN);
    case "login.rate_limited":
      return __("Sign-in blocked after too many attempts", DOMAIN);
    case "login.locked":
      return __("Sign-in paused after too many failed attempts", DOMAIN);
    case "login.unlocked":
      return __("Sign-in unlocked by an administrator", DOMAIN);
    case "logout":
      return __("Signed out", DOMAIN);
    case "session.revoked":
      return __("Session ended", DOMAIN);
    case "password.changed":
      return __("Password changed", DOMAIN);
    case "password.reset_requested":
      return __("Password reset requested", DOMAIN);
    case "password.reset":
      return __("Password reset", DOMAIN);
    case "reauthenticated":
      return __("Identity confirmed again", DOMAIN);
    case "user.created":
      return __("Account created", DOMAIN);
    case "user.disabled":
      return __("Account disabled", DOMAIN);
    case "user.enabled":
      return __("Account enabled", DOMAIN);
    case "user.role_changed":
      return __("Role changed", DOMAIN);
    case "user.sessions_revoked":
      return __("Signed out everywhere", DOMAIN);
    case "invitation.created":
      return __("Invitation sent", DOMAIN);
    case "invitation.accepted":
      return __("Invitation accepted", DOMAIN);
    case "invitation.revoked":
      return __("Invitation revoked", DOMAIN);
    case "second_factor.enabled":
      return __("Two-step verification turned on", DOMAIN);
    case "second_factor.disabled":
      return __("Two-step verification turned off", DOMAIN);
    case "recovery_codes.regenerated":
      return __("New recovery codes", DOMAIN);
    case "recovery_code.used":
      return __("Recovery code used", DOMAIN);
    case "passkey.added":
      return __("Passkey added", DOMAIN);
    case "passkey.removed":
      return __("Passkey removed", DOMAIN);
    case "sso.linked":
      return __("Single sign-on identity linked", DOMAIN);
    case "sso.unlinked":
      return __("Single sign-on identity unlinked", DOMAIN);
    case "user.role_sync_skipped":
      return __(
        "Role from the sign-in provider not applied, to keep an administrator",
        DOMAIN,
      );
    case "account.updated":
      return __("Name or email language changed", DOMAIN);
    default:
      return type;
  }
}

/**
 * What changed, when the event's type alone does not say it: a role change
 * shows its old and new role ("Member → Administrator"); "" otherwise.
 */
export function eventDetail(
  event: Pick<AuditEvent, "type" | "detail">,
): string {
  if (event.type !== "user.role_changed") return "";
  const { old_role: before, new_role: after } = event.detail;
  if (before === undefined || after === undefined) return "";
  return `${roleLabel(before)} → ${roleLabel(after)}`;
}

/** Every type, for a filter menu. */
export const EVENT_TYPES: readonly AuditEventType[] = AUDIT_EVENT_TYPES;
