// The screens' layout in real Chromium (issue 26, item 6): the stylesheet
// once set `overflow-wrap: anywhere` on every screen and kept the audit log
// in a form's 28rem column, so table columns and buttons shrank to one
// letter and words broke mid-word ("verifica tion", "Fil ter",
// "Administr ador"); the account panel's lists had no style at all
// ("Signed inNov 27", cards touching). On a desktop the audit log takes the
// list's width; on a 375 px phone, in English and in Spanish, no word of a
// button, heading, label, header cell, link or badge wraps inside itself
// (addresses may), and each activity's label and time stand apart.

import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { hydrated, signIn } from "../fixtures/browser.ts";
import { type Demo, e2eTest } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";

/**
 * The words of the page's controls and headings that are drawn over more
 * than one line: each word (a run without spaces, addresses left out) is a
 * Range whose boxes must share one line.
 */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      "button, h1, h2, h3, th, label, dt, dd, a, legend, .gh-badge, [role=menuitem], .gh-list-name";
    const broken: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.getClientRects().length === 0) continue;
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const match of text.matchAll(/\S+/g)) {
          // Addresses and ids may wrap inside (overflow-wrap: anywhere).
          if (/[@/]|\w\.\w/.test(match[0])) continue;
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set(
            [...range.getClientRects()].filter((r) => r.width > 0)
              .map((r) => Math.round(r.bottom)),
          );
          if (lines.size > 1) {
            broken.push(`${element.tagName} "${match[0]}"`);
          }
        }
      }
    }
    return broken;
  });
}

async function signedInPage(
  browser: Browser,
  demo: Demo,
  locale: string,
  width: number,
): Promise<Page> {
  const context = await browser.newContext({
    locale,
    viewport: { width, height: 900 },
  });
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  await page.goto(`${demo.origin}/`);
  await hydrated(page);
  await signIn(page, ADMIN.email, PASSWORD);
  await page.locator('[data-gh-screen="account"]').waitFor();
  return page;
}

e2eTest(
  "on a desktop the audit log takes the list's width and breaks no word",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const page = await signedInPage(browser, demo, "en-US", 1280);
    await page.goto(`${demo.origin}/users/audit`);
    await hydrated(page);
    const table = page.locator('[data-gh-screen="audit"] table');
    await table.locator(".gh-row").first().waitFor();
    const box = await table.boundingBox();
    assert.ok(box !== null && box.width > 900, `table ${box?.width} px wide`);
    assert.deepEqual(await brokenWords(page), []);
    await page.context().close();
  },
);

e2eTest(
  "on a 375 px phone, in English and in Spanish, no word breaks inside itself and the activity's label and time stand apart",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const found: string[] = [];
    for (const locale of ["en-US", "es-ES"]) {
      const page = await signedInPage(browser, demo, locale, 375);
      const look = async (what: string) => {
        for (const word of await brokenWords(page)) {
          found.push(`${locale} ${what}: ${word}`);
        }
      };
      const item = page.locator(".gh-activity-list .gh-list-item").first();
      await item.waitFor();
      await look("account");
      // "Signed in" and its time: apart on the screen and in the text.
      const name = await item.locator(".gh-list-name").boundingBox();
      const time = await item.locator("time").boundingBox();
      assert.ok(name !== null && time !== null);
      const apart = time.x >= name.x + name.width + 8 ||
        time.y >= name.y + name.height;
      assert.ok(apart, `${locale}: the time stands apart from the label`);
      assert.match(
        await item.innerText(),
        /^\S.*\S\s*\n\s*\S/,
        "label and time on separate lines of the text",
      );
      // Cards apart.
      const cards = await page.locator('[data-gh-screen="account"] > .gh-card')
        .all();
      const first = await cards[0]!.boundingBox();
      const second = await cards[1]!.boundingBox();
      assert.ok(second!.y >= first!.y + first!.height + 8, "cards apart");

      for (const path of ["/users", "/users/audit", "/users/invite"]) {
        await page.goto(`${demo.origin}${path}`);
        await hydrated(page);
        await page.locator("[data-gh-screen] h1").first().waitFor();
        if (path !== "/users/invite") {
          await page.locator(".gh-row").first().waitFor();
        }
        await look(path);
      }
      await page.locator("header a, nav a").first().waitFor();
      await page.context().close();
    }
    assert.deepEqual(found, []);
  },
);
