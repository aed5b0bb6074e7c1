/**
 * The shipped templates: every kind of mail in English and Spanish, from
 * the catalogues (`en.ts`, `es.ts`) through one layout (`layout.ts`).
 * `templates` in the options replaces any of them per kind.
 *
 * @module
 */

import { isolatedText } from "@gatehouse/contract/bidi";
import {
  type MailCatalog,
  type MailFormat,
  mailFormat,
  type MailParts,
} from "./catalog.ts";
import type { MailData, MailDataOf, MailTemplate } from "./data.ts";
import { en } from "./en.ts";
import { es } from "./es.ts";
import { MAIL_KINDS, type MailKind } from "./kinds.ts";
import { layoutMail } from "./layout.ts";
import { type MailLocale, mailLocale } from "./locale.ts";

const CATALOGS: Readonly<Record<MailLocale, MailCatalog>> = { en, es };

function shipped<K extends MailKind>(kind: K): MailTemplate<K> {
  return (given: MailDataOf[K], locale: string) => {
    const data = isolated(given);
    const catalog = CATALOGS[mailLocale(locale)];
    const write = catalog.kinds[kind] as unknown as (
      data: MailDataOf[K],
      format: MailFormat,
    ) => MailParts;
    return layoutMail(write(data, mailFormat(catalog.locale)), {
      locale: catalog.locale,
      product: data.product,
      footer: catalog.footer(data.product, data.email),
    });
  };
}

// The text from people that the shipped sentences name (the recipient's
// name and address, the inviter's name), each isolated as the screens do
// (contract/bidi.ts): the name rule admits format characters, and a name
// ending in U+202E (right-to-left override) turned the rest of its
// sentence backwards ("Grace\u202E invited you to …"). The template's own
// words stay as written; a replaced template is given the data as stored.
function isolated<D extends MailData & { inviter?: string | null }>(
  data: D,
): D {
  return {
    ...data,
    email: isolatedText(data.email),
    ...(data.name === undefined ? {} : { name: isolatedText(data.name) }),
    ...(typeof data.inviter === "string"
      ? { inviter: isolatedText(data.inviter) }
      : {}),
  };
}

/**
 * The template of every kind of mail as Gatehouse ships it: a subject, a
 * plain-text part and an HTML part, in English (`en`) or Spanish (`es`;
 * any other locale is written in English).
 *
 * @example The shipped invitation in Spanish
 * ```ts
 * import { defaultMailTemplates } from "@gatehouse/server/mail";
 *
 * const mail = defaultMailTemplates.invitation({
 *   product: "Acme",
 *   email: "ana@example.com",
 *   name: "Ana",
 *   link: "https://acme.example/invite#token=abc",
 *   expiresAt: Date.now() + 7 * 86_400_000,
 *   validFor: 7 * 86_400_000,
 *   inviter: "Grace",
 * }, "es");
 * console.assert(mail.subject === "Te invitan a Acme");
 * console.assert(mail.text.includes("https://acme.example/invite#token=abc"));
 * ```
 */
export const defaultMailTemplates: {
  readonly [K in MailKind]: MailTemplate<K>;
} = Object.freeze(
  Object.fromEntries(MAIL_KINDS.map((kind) => [kind, shipped(kind)])),
) as { readonly [K in MailKind]: MailTemplate<K> };
