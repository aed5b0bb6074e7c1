// The users page and the login limiter in real Chromium against the demo
// (issue 26, items 7, 8 and 12): a role change and the removal of a second
// factor confirm on screen, not only to screen readers; "Remove second
// factor…" is offered only on an account that has one; and once the
// per-address limiter has refused, the sign-in page says how long to wait,
// read from the real answer's Retry-After, in English and in Spanish.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hydrated, openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";

/** The text of the visible status regions of the users table. */
async function shownStatus(page: Page): Promise<string> {
  const status = page.locator('[data-gh-screen="users"] .gh-status');
  await status.filter({ hasText: /\S/ }).first().waitFor();
  const box = await status.first().boundingBox();
  assert.ok(box !== null && box.height > 16 && box.width > 100, "seen");
  return (await status.first().innerText()).trim();
}

async function menuActions(page: Page, name: string): Promise<string[]> {
  const row = page.locator(`.gh-row:has-text("${name}")`);
  await row.locator('button[aria-haspopup="menu"]').click();
  const items = page.locator('[role="menuitem"]');
  await items.first().waitFor();
  const actions = await items.evaluateAll((all) =>
    all.map((item) => item.getAttribute("data-gh-action") ?? "")
  );
  await page.keyboard.press("Escape");
  return actions;
}

e2eTest(
  "a role change and a second factor removed confirm on screen; the removal is offered only where there is a factor",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    // Person 02 has an authenticator app.
    const person = await demo.store.credentialsByEmail("person02@example.com");
    const now = Date.now();
    const secret = "JBSWY3DPEHPK3PXP";
    await demo.store.startTotpEnrolment({
      userId: person!.user.id,
      secret,
      createdAt: now,
      expiresAt: now + 600_000,
    });
    assert.ok(
      await demo.store.confirmTotp(person!.user.id, {
        secret,
        step: Math.floor(now / 30_000),
        recoveryCodeHashes: ["a", "b"],
        now,
      }),
    );

    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/users`);
    await signIn(page, ADMIN.email, PASSWORD);
    await page.locator('.gh-row:has-text("Person 02")').waitFor();
    assert.ok(
      !(await menuActions(page, "Person 01")).includes("second-factor"),
    );
    assert.ok((await menuActions(page, "Person 02")).includes("second-factor"));

    const row = page.locator('.gh-row:has-text("Person 02")');
    await row.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="second-factor"]')
      .click();
    const dialog = page.locator('dialog[data-gh-dialog="second-factor"][open]');
    await dialog.getByRole("button", { name: "Remove second factor" }).click();
    await dialog.waitFor({ state: "detached" });
    assert.equal(
      await shownStatus(page),
      "Person 02 can sign in with their password alone now.",
    );
    assert.ok(
      !(await menuActions(page, "Person 02")).includes("second-factor"),
    );

    // Person 01 is a member.
    const first = page.locator('.gh-row:has-text("Person 01")');
    await first.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="role"]').click();
    const role = page.locator('dialog[data-gh-dialog="role"][open]');
    await role.locator('select[name="role"]').selectOption("admin");
    await role.getByRole("button", { name: "Change role" }).click();
    await role.waitFor({ state: "detached" });
    assert.equal(
      await shownStatus(page),
      "Person 01 now has the role Administrator.",
    );
    await context.close();
  },
);

let clock = Date.now();

e2eTest(
  "after the limiter refuses, the sign-in page says how long to wait, in English and in Spanish",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    // Wrong passwords from this address (the browser's too) until it locks.
    let status = 0;
    for (let i = 0; i < 50 && status !== 429; i++) {
      const res = await fetch(`${demo.origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: demo.origin },
        body: JSON.stringify({ email: ADMIN.email, password: "not it at all" }),
      });
      await res.body?.cancel();
      status = res.status;
    }
    assert.equal(status, 429);
    // Three of the window's fifteen minutes pass.
    clock += 3 * 60_000;
    for (
      const [locale, words] of [
        ["en-US", "Too many attempts. Try again in 12 minutes."],
        ["es-ES", "Demasiados intentos. Vuelve a intentarlo en 12 minutos."],
      ]
    ) {
      const context = await newContext(browser, { locale: locale! });
      const page = await openPage(context, `${demo.origin}/`);
      await hydrated(page);
      // The right password: the address is locked all the same.
      await signIn(page, ADMIN.email, PASSWORD);
      const alert = screen(page, "login").locator('[role="alert"] p');
      await alert.waitFor();
      assert.equal((await alert.innerText()).trim(), words);
      await context.close();
    }
  },
  { now: () => clock },
);
