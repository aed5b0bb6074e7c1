// The shipped templates (DESIGN.md §14): every kind of mail in English and
// Spanish, each a one-line subject, a plain-text part and an HTML part a
// mail client renders (tables, inline styles, nothing remote), the link in
// both parts of the kinds that carry one and no link in a notice, every
// value escaped; the language picked from Accept-Language; bad `notices`
// and `templates` options refused when the Gatehouse is built.

import {
  assert,
  assertEquals,
  assertMatch,
  assertThrows,
} from "../fixtures/assert.ts";
import { createGatehouse, type Store } from "../../mod.ts";
import {
  defaultMailTemplates,
  type MailDataOf,
  type MailKind,
  NOTICE_KINDS,
} from "../../server/mail.ts";
import { negotiateLocale } from "../../server/core/mail/locale.ts";
import { MAIL_KINDS } from "../../server/core/mail/kinds.ts";

const HOSTILE =
  `Eve "<script>alert(1)</script>" <img src=x onerror=alert(2)> & Co`;
const LINK = "https://app.example/invite#token=AAAA_bbbb-CCCC";

function dataOf(kind: MailKind): MailDataOf[MailKind] {
  const base = {
    product: "Acme & <Sons>",
    email: "ana@example.com",
    name: HOSTILE,
  };
  if (kind === "invitation") {
    return {
      ...base,
      link: LINK,
      expiresAt: 0,
      validFor: 7 * 86_400_000,
      inviter: HOSTILE,
    };
  }
  if (kind === "password_reset") {
    return { ...base, link: LINK, expiresAt: 0, validFor: 3_600_000 };
  }
  if (kind === "account_exists") return base;
  return {
    ...base,
    at: Date.UTC(2026, 6, 3, 10, 15),
    browser: HOSTILE,
    ip: "2001:db8::1",
    byAdministrator: false,
    viaReset: false,
    untilReset: false,
  };
}

const render = (kind: MailKind, locale: string) =>
  (defaultMailTemplates[kind] as (d: unknown, l: string) => {
    subject: string;
    text: string;
    html: string;
  })(dataOf(kind), locale);

for (const kind of MAIL_KINDS) {
  Deno.test(`the shipped ${kind} mail, in English and Spanish, renders safely in mail clients`, () => {
    const [en, es] = [render(kind, "en"), render(kind, "es")];
    for (const [locale, mail] of [["en", en], ["es", es]] as const) {
      assert(mail.subject.length > 0 && !/[\r\n]/.test(mail.subject));
      assertMatch(mail.html, /^<!DOCTYPE html>\n<html lang="(en|es)">/);
      assert(mail.html.includes(`<html lang="${locale}">`));
      assertMatch(mail.html, /<table role="presentation"/);
      assert(mail.html.includes("style="), "inline styles");
      assert(
        !/<(img|script|link|style|iframe|object)\b/i.test(mail.html) &&
          !/<[^>]*\s(src|background)=/i.test(mail.html) &&
          !/url\(/i.test(mail.html),
        "nothing remote, nothing active",
      );
      // Every value escaped: the hostile name is text, not markup.
      assert(!mail.html.includes("<script>") && !mail.html.includes("<Sons>"));
      assert(
        mail.html.includes("Acme &#38; &#60;Sons&#62;"),
        "the product, escaped",
      );
      assert(mail.text.includes("Acme & <Sons>"), "the text part as it is");
      const carriesLink = kind === "invitation" || kind === "password_reset";
      assertEquals(mail.text.includes(LINK), carriesLink);
      assertEquals(mail.html.includes(`href="${LINK}"`), carriesLink);
      if (!carriesLink) assert(!mail.html.includes("href="), "no link at all");
      if ((NOTICE_KINDS as readonly string[]).includes(kind)) {
        assert(mail.text.includes("2001:db8::1"));
        assertMatch(mail.text, /2026.*10:15:00( AM)? UTC/);
      }
    }
    assert(en.subject !== es.subject, "Spanish is Spanish");
    assert(en.text !== es.text);
  });
}

Deno.test("the Spanish notices say when in Spanish", () => {
  const mail = render("password_changed", "es");
  assertMatch(mail.text, /^Cuándo: 3 de julio de 2026, 10:15:00 UTC$/m);
  assertMatch(
    render("password_changed", "en").text,
    /^When: July 3, 2026 at 10:15:00 AM UTC$/m,
  );
});

Deno.test("a locale without a catalogue is written in English", () => {
  assertEquals(
    render("password_reset", "fr").subject,
    render("password_reset", "en").subject,
  );
});

Deno.test("negotiateLocale() picks the best shipped language of Accept-Language", () => {
  const table: [string | null, string][] = [
    [null, "en"],
    ["", "en"],
    ["es", "es"],
    ["es-MX", "es"],
    ["ES-es", "es"],
    ["fr-FR, es;q=0.5, en;q=0.4", "es"],
    ["en;q=0.5, es;q=0.9", "es"],
    ["es;q=0, en", "en"],
    ["de, fr", "en"],
    ["*", "en"],
    ["es;q=abc", "en"],
    ["de;q=0.9, es;q=0.9", "es"],
    [`${"x,".repeat(500)}es`, "en"],
  ];
  for (const [header, locale] of table) {
    assertEquals(negotiateLocale(header), locale, String(header));
  }
});

Deno.test("createGatehouse() refuses notices and templates it cannot use", () => {
  const store = {} as Store;
  const mailer = { send: () => Promise.resolve() };
  const base = { store, mailer, publicUrl: "https://app.example" };
  for (
    const bad of [
      { notices: ["invitation"] },
      { notices: ["password_changed", "nonsense"] },
      { notices: "all" },
      { templates: { nonsense: () => ({}) } },
      { templates: { invitation: "Hello" } },
    ]
  ) {
    assertThrows(
      () =>
        createGatehouse(
          { ...base, ...bad } as Parameters<typeof createGatehouse>[0],
        ),
      TypeError,
    );
  }
  createGatehouse({ ...base, notices: false });
  createGatehouse({ ...base, notices: ["password_changed"] });
});
