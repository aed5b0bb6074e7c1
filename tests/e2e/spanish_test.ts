// The demo follows the browser's language: a Chromium whose language is
// Spanish gets the shipped Spanish catalogue, on the login screen and on
// the other pages; an English one stays in English.

import assert from "node:assert/strict";
import { catalogFor } from "@gatehouse/client/screens";
import { openPage, screen } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";

/** The Spanish of an English string of the screens. */
async function spanish(english: string): Promise<string> {
  const entry = (await catalogFor("es"))?.[english];
  assert.ok(Array.isArray(entry) && entry[0], `no Spanish for "${english}"`);
  return entry[0];
}

e2eTest(
  "a browser whose language is Spanish gets the Spanish catalogue",
  async ({ browser, demo }) => {
    const title = (await spanish("Sign in to %s")).replace("%s", "Gatehouse");
    const signIn = await spanish("Sign in");
    assert.notEqual(title, "Sign in to Gatehouse");

    const es = await newContext(browser, { locale: "es-ES" });
    const page = await openPage(es, `${demo.origin}/`);
    const login = screen(page, "login");
    assert.equal(await login.locator("h1").textContent(), title);
    assert.equal(
      await login.locator('button[type="submit"]').textContent(),
      signIn,
    );
    assert.equal(await page.locator("html").getAttribute("lang"), "es-ES");

    const forgot = await openPage(es, `${demo.origin}/forgot`);
    assert.equal(
      await screen(forgot, "request-reset").locator("h1").textContent(),
      await spanish("Reset your password"),
    );

    // The same page in an English browser.
    const en = await newContext(browser, { locale: "en-US" });
    const english = await openPage(en, `${demo.origin}/`);
    assert.equal(
      await screen(english, "login").locator("h1").textContent(),
      "Sign in to Gatehouse",
    );
    await es.close();
    await en.close();
  },
);
