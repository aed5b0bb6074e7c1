// A Spanish reader sees no English: every page and state of the demo
// (tests/e2e/_walk.ts) with JavaScript on, and every page as the server
// renders it with JavaScript off (signed out and signed in), holds none of
// the English catalogue's strings: the screens' msgids, the demo's own
// (titles, 404, links) and the English names of the roles.

import assert from "node:assert/strict";
import { catalogFor } from "@gatehouse/client/screens";
import type { Page } from "playwright-core";
import { DEMO_ES, ROLE_LABELS } from "../../islands/_i18n.ts";
import { hydrated, signIn } from "../fixtures/browser.ts";
import { e2eTest } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts, walk } from "./_walk.ts";

/** The English phrases to look for: each msgid split at its placeholders. */
async function englishPhrases(): Promise<string[]> {
  const screens = Object.keys((await catalogFor("es"))!);
  const msgids = [
    ...screens,
    ...Object.keys(DEMO_ES),
    ...Object.values(ROLE_LABELS.en),
  ];
  const phrases = new Set<string>();
  for (const msgid of msgids) {
    const text = msgid.includes("\u0004") ? msgid.split("\u0004")[1]! : msgid;
    for (const part of text.split(/%(?:\d\$)?[sd]/)) {
      const phrase = part.trim().replace(
        /^[\s(),.:;·–-]+|[\s(),.:;·–-]+$/g,
        "",
      );
      if (/\p{L}{2}/u.test(phrase)) phrases.add(phrase);
    }
  }
  return [...phrases];
}

/**
 * Everything a reader (or a screen reader) gets from the page: its text
 * and title, and the words of aria-label, title, placeholder and alt. Read
 * from the serialised DOM, which works with JavaScript off too.
 */
async function readable(page: Page): Promise<string[]> {
  const html = await page.content();
  const decode = (text: string) =>
    text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&");
  const attributes = [
    ...html.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g),
  ].map((m) => decode(m[1]!));
  const text = decode(html.replace(/<[^>]*>/g, "\n"));
  return [text, ...attributes];
}

function englishIn(texts: string[], phrases: string[]): string[] {
  const text = texts.join("\n");
  return phrases.filter((phrase) => {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "u")
      .test(text);
  });
}

e2eTest(
  "every page and state in Spanish, with JavaScript on and off, holds no English string of the catalogues",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const phrases = await englishPhrases();
    assert.ok(phrases.includes("Sign in"));
    assert.ok(phrases.includes("Administrator"), "role names are checked");
    assert.ok(phrases.includes("Page not found"), "titles are checked");
    const found: string[] = [];
    let states = 0;

    // JavaScript on: every state of the walk.
    await walk(browser, demo, {
      locale: "es-ES",
      viewport: { width: 1280, height: 800 },
      visit: async (state, page) => {
        states += 1;
        const english = englishIn(await readable(page), phrases);
        if (english.length > 0) {
          found.push(`JS on, ${state}: ${english.join(" | ")}`);
        }
      },
    });

    // JavaScript off: each page as the server renders it.
    const paths = [
      "/",
      "/forgot",
      "/reset",
      "/invite",
      "/users",
      "/users/new",
      "/users/invite",
      "/nowhere",
    ];
    const signedIn = await browser.newContext({ locale: "es-ES" });
    const page = await signedIn.newPage();
    await page.goto(`${demo.origin}/`);
    await hydrated(page);
    await signIn(page, ADMIN.email, PASSWORD);
    await page.locator('[data-gh-screen="account"]').waitFor();
    const cookies = await signedIn.cookies();
    await signedIn.close();
    for (const who of ["signed out", "signed in"]) {
      const off = await browser.newContext({
        locale: "es-ES",
        javaScriptEnabled: false,
      });
      if (who === "signed in") await off.addCookies(cookies);
      const tab = await off.newPage();
      for (const path of paths) {
        await tab.goto(`${demo.origin}${path}`);
        states += 1;
        assert.equal(await tab.locator("html").getAttribute("lang"), "es-ES");
        const english = englishIn(await readable(tab), phrases);
        if (english.length > 0) {
          found.push(`JS off, ${who}, ${path}: ${english.join(" | ")}`);
        }
      }
      await off.close();
    }
    assert.ok(states >= 40, `${states} states checked`);
    assert.deepEqual(found, []);

    // The check finds English where there is some.
    const en = await browser.newContext({
      locale: "en-US",
      javaScriptEnabled: false,
    });
    const english = await en.newPage();
    await english.goto(`${demo.origin}/`);
    assert.ok(englishIn(await readable(english), phrases).includes("Sign in"));
    await en.close();
  },
);
