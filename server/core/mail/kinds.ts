/**
 * The kinds of mail Gatehouse sends (DESIGN.md §14): three that carry or
 * replace a link, and the security notices that tell an account's owner
 * what just changed. Apart from the mailer and the templates so that both
 * can name them without importing each other.
 *
 * @module
 */

/**
 * Every security notice, in the order DESIGN.md §14 lists them.
 *
 * @example Picking the notices to send
 * ```ts
 * import { NOTICE_KINDS } from "@gatehouse/server/mail";
 *
 * const notices = NOTICE_KINDS.filter((kind) => kind !== "passkey_added");
 * console.assert(notices.length === NOTICE_KINDS.length - 1);
 * ```
 */
export const NOTICE_KINDS = [
  "new_sign_in",
  "password_changed",
  "second_factor_enabled",
  "second_factor_disabled",
  "passkey_added",
  "passkey_removed",
  "recovery_codes_regenerated",
  "sso_linked",
  "account_locked",
] as const;

/** A security notice: tells the owner of an account what changed. */
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * What a mail is about: an invitation, a reset link, the notice that an
 * invited address already has an account, or a security notice.
 */
export type MailKind =
  | "invitation"
  | "password_reset"
  | "account_exists"
  | NoticeKind;

/** Every kind of mail, links first, then the notices. */
export const MAIL_KINDS: readonly MailKind[] = Object.freeze([
  "invitation",
  "password_reset",
  "account_exists",
  ...NOTICE_KINDS,
]);

/** Whether `kind` is a security notice. */
export function isNoticeKind(kind: unknown): kind is NoticeKind {
  return (NOTICE_KINDS as readonly unknown[]).includes(kind);
}

/** Whether `kind` is a kind of mail. */
export function isMailKind(kind: unknown): kind is MailKind {
  return (MAIL_KINDS as readonly unknown[]).includes(kind);
}
