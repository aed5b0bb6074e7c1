// The English catalogue of the shipped templates: every kind of mail of
// DESIGN.md §14. Notices name what happened, when, from which browser and
// address, and what to do if it was not the reader; they carry no link.

import type { MailCatalog, MailFormat, MailParts } from "./catalog.ts";
import type { NoticeData } from "./data.ts";

const greeting = (name: string | undefined) =>
  name === undefined || name === "" ? undefined : `Hello ${name},`;

// What to do when a change to one's sign-in was not one's own: get the
// password back through the sign-in page (no link: a notice acts on
// nothing) and tell an administrator.
const NOT_YOU =
  'If this was you, there is nothing to do. If it was not, someone may be able to sign in to your account: reset your password now with "Forgot password?" on the sign-in page, and tell your administrator.';

function notice(
  data: NoticeData,
  format: MailFormat,
  words: { subject: string; heading: string; said: string; advice?: string },
): MailParts {
  const unknown = "unknown";
  return {
    subject: words.subject,
    heading: words.heading,
    ...defined(greeting(data.name)),
    paragraphs: [words.said],
    facts: [
      ["When", format.dateTime(data.at)],
      ["Browser", data.browser || unknown],
      ["Address", data.ip || unknown],
    ],
    closing: [words.advice ?? NOT_YOU],
  };
}

function defined(value: string | undefined): { greeting?: string } {
  return value === undefined ? {} : { greeting: value };
}

/** English. */
export const en: MailCatalog = {
  locale: "en",
  footer: (product, email) =>
    `${product} sent this message to ${email} about your account.`,
  kinds: {
    invitation: (data, format) => ({
      subject: `You are invited to ${data.product}`,
      heading: `You are invited to ${data.product}`,
      ...defined(greeting(data.name)),
      paragraphs: [
        data.inviter === null
          ? `You were invited to ${data.product}. Choose your password to open your account.`
          : `${data.inviter} invited you to ${data.product}. Choose your password to open your account.`,
      ],
      action: {
        label: "Choose your password",
        url: data.link,
        fallback: "If the button does not work, open this address:",
      },
      closing: [
        `The link works once and expires in ${format.duration(data.validFor)}.`,
        "If you did not expect this invitation, ignore this message: no account is made until the link is used.",
      ],
    }),
    password_reset: (data, format) => ({
      subject: `Reset your ${data.product} password`,
      heading: "Reset your password",
      ...defined(greeting(data.name)),
      paragraphs: [
        `Someone asked to reset the password of the ${data.product} account of ${data.email}. If it was you, choose a new password:`,
      ],
      action: {
        label: "Choose a new password",
        url: data.link,
        fallback: "If the button does not work, open this address:",
      },
      closing: [
        `The link works once and expires in ${format.duration(data.validFor)}.`,
        "If it was not you, ignore this message: your password stays as it is.",
      ],
    }),
    account_exists: (data) => ({
      subject: `An invitation to ${data.product}`,
      heading: "You already have an account",
      ...defined(greeting(data.name)),
      paragraphs: [
        `Someone invited ${data.email} to ${data.product}, but this address already has an account, so no new account was made.`,
      ],
      closing: [
        'Sign in as usual. If you forgot your password, use "Forgot password?" on the sign-in page.',
      ],
    }),
    new_sign_in: (data, format) =>
      notice(data, format, {
        subject: `New sign-in to your ${data.product} account`,
        heading: "New sign-in to your account",
        said:
          `Your ${data.product} account (${data.email}) was signed in to from a browser or network it has not used recently.`,
      }),
    password_changed: (data, format) =>
      notice(data, format, {
        subject: `Your ${data.product} password was changed`,
        heading: "Your password was changed",
        said: data.viaReset
          ? `The password of your ${data.product} account (${data.email}) was changed with a reset link.`
          : `The password of your ${data.product} account (${data.email}) was changed.`,
      }),
    second_factor_enabled: (data, format) =>
      notice(data, format, {
        subject: `Two-step verification is on for your ${data.product} account`,
        heading: "Two-step verification is on",
        said:
          `An authenticator app now protects your ${data.product} account (${data.email}): signing in with your password also asks for a code.`,
      }),
    second_factor_disabled: (data, format) =>
      notice(data, format, {
        subject:
          `Two-step verification is off for your ${data.product} account`,
        heading: "Two-step verification is off",
        said: data.byAdministrator
          ? `An administrator turned off two-step verification of your ${data.product} account (${data.email}): signing in needs only your password now.`
          : `Two-step verification of your ${data.product} account (${data.email}) was turned off: signing in needs only your password now.`,
      }),
    passkey_added: (data, format) =>
      notice(data, format, {
        subject: `A passkey was added to your ${data.product} account`,
        heading: "A passkey was added",
        said:
          `A new passkey can now sign in to your ${data.product} account (${data.email}).`,
      }),
    passkey_removed: (data, format) =>
      notice(data, format, {
        subject: `A passkey was removed from your ${data.product} account`,
        heading: "A passkey was removed",
        said:
          `A passkey of your ${data.product} account (${data.email}) was removed: it can no longer sign in.`,
      }),
    recovery_codes_regenerated: (data, format) =>
      notice(data, format, {
        subject: `New recovery codes for your ${data.product} account`,
        heading: "New recovery codes",
        said:
          `New recovery codes were made for your ${data.product} account (${data.email}); the old ones no longer work.`,
      }),
    sso_linked: (data, format) =>
      notice(data, format, {
        subject: `Your ${data.product} account was linked to single sign-on`,
        heading: "Single sign-on linked",
        said:
          `Your ${data.product} account (${data.email}) was linked to your organisation's single sign-on: you can sign in through it now.`,
      }),
    account_locked: (data, format) =>
      notice(data, format, {
        subject: `Sign-ins to your ${data.product} account are paused`,
        heading: "Sign-ins are paused",
        said: data.untilReset
          ? `After too many wrong passwords or codes in a row for your ${data.product} account (${data.email}), sign-ins are paused until its password is reset. The last attempt:`
          : `After many wrong passwords or codes for your ${data.product} account (${data.email}), sign-ins from browsers it does not know are paused for a while. Browsers you signed in with before are not affected. The last attempt:`,
        advice:
          'If these attempts were not yours, someone is guessing your password. Once you are signed in, change it to one you use nowhere else; if you cannot sign in, use "Forgot password?" on the sign-in page or ask your administrator.',
      }),
  },
};
