/**
 * What a template is given for each kind of mail, and what it gives back
 * (DESIGN.md §14: `templates: {[kind]: (data, locale) => {subject, text,
 * html}}`).
 *
 * @module
 */

import type { MailKind, NoticeKind } from "./kinds.ts";

/** What every template is given. */
export interface MailData {
  /** The product's name (`productName`, else the host of `publicUrl`). */
  product: string;
  /** The recipient's address. */
  email: string;
  /** The recipient's name, when Gatehouse knows it. */
  name?: string;
}

/** An invitation: the person sets their own password through `link`. */
export interface InvitationData extends MailData {
  /** The invited person's name, as the administrator typed it. */
  name: string;
  /** The single-use link; it signs the person in. */
  link: string;
  /** When the link dies, ms since the epoch. */
  expiresAt: number;
  /** How long the link lives, ms (`limits.invitationTtl`). */
  validFor: number;
  /** The inviting administrator's name, or null (the first-run link). */
  inviter: string | null;
}

/** A reset link. */
export interface PasswordResetData extends MailData {
  /** The single-use link. */
  link: string;
  /** When the link dies, ms since the epoch. */
  expiresAt: number;
  /** How long the link lives, ms (`limits.resetTtl`). */
  validFor: number;
}

/**
 * A security notice: what happened to the account, when, and from which
 * browser and address. It carries no link that acts on the account.
 */
export interface NoticeData extends MailData {
  /** When it happened, ms since the epoch. */
  at: number;
  /** The browser's label ("Firefox on Linux"); "" when unknown. */
  browser: string;
  /** The client's address; "" when unknown. */
  ip: string;
  /** An administrator did it (second factor removed), not the owner. */
  byAdministrator: boolean;
  /** `password_changed` through a reset link rather than a change. */
  viaReset: boolean;
  /**
   * `account_locked` after too many failures in a row: every browser is
   * refused until the password is reset, not only unknown ones for a while
   * (DESIGN.md §15).
   */
  untilReset: boolean;
}

/** The data of each kind of mail. */
export type MailDataOf =
  & {
    invitation: InvitationData;
    password_reset: PasswordResetData;
    account_exists: MailData;
  }
  & { [K in NoticeKind]: NoticeData };

/** A message as a template writes it. */
export interface MailContent {
  /** One line: line breaks are turned into spaces. */
  subject: string;
  /** The plain-text part. */
  text: string;
  /** The HTML part: a whole document, inline styles, no remote images. */
  html: string;
}

/**
 * Writes one kind of mail in `locale` (`en`, `es`: the request's
 * `Accept-Language` matched against the shipped catalogues).
 */
export type MailTemplate<K extends MailKind> = (
  data: MailDataOf[K],
  locale: string,
) => MailContent;

/**
 * Templates by kind: each one given replaces the shipped one of its kind.
 *
 * @example A subject of your own for invitations
 * ```ts
 * import { defaultMailTemplates, type MailTemplates } from "@gatehouse/server/mail";
 *
 * const templates: MailTemplates = {
 *   invitation: (data, locale) => ({
 *     ...defaultMailTemplates.invitation(data, locale),
 *     subject: locale === "es" ? "Te esperamos en Acme" : "Welcome to Acme",
 *   }),
 * };
 * ```
 */
export type MailTemplates = { readonly [K in MailKind]?: MailTemplate<K> };
