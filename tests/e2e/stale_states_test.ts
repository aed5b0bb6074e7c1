// Stale pages speak up: a tab whose session ended in another tab says so on
// its login screen at its next action (focus on the message); an
// administrator demoted while the users page is open loses its controls at
// the next refusal, without a reload.

import assert from "node:assert/strict";
import { hydrated, openPage, screen } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";
import { signIn } from "../fixtures/browser.ts";

e2eTest(
  "after signing out in one tab, the other shows 'Your session has ended' at once, without an action",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const context = await newContext(browser);
    const one = await openPage(context, `${demo.origin}/users`);
    await signIn(one, ADMIN.email, PASSWORD);
    await one.locator(".gh-row").first().waitFor();
    const two = await openPage(context, `${demo.origin}/`);
    await screen(two, "account").getByRole("button", { name: "Sign out" })
      .click();
    await screen(two, "login").waitFor();

    // Nothing done in the first tab: the BroadcastChannel brings it back.
    const alert = screen(one, "login").locator('[role="alert"]');
    await alert.getByText("Your session has ended. Sign in again.").waitFor();
    await context.close();
  },
);

e2eTest(
  "an administrator demoted while the users page is open loses its controls at the next refusal",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/users`);
    await signIn(page, ADMIN.email, PASSWORD);
    await page.locator(".gh-row").first().waitFor();
    const ada = await demo.store.credentialsByEmail(ADMIN.email);
    await demo.store.updateUser(ada!.user.id, { role: "member" });

    await page.locator(".gh-row").nth(1).locator("button[aria-haspopup]")
      .click();
    await page.locator('[role="menuitem"][data-gh-action="disable"]').click();
    await page.locator("dialog[open]").getByRole("button", {
      name: "Disable account",
    }).click();
    await page.locator('[data-gh-screen="users"][data-gh-state="not-allowed"]')
      .waitFor();
    assert.equal(await page.locator(".gh-row").count(), 0);
    assert.equal(await page.getByRole("link", { name: "Users" }).count(), 0);
    await hydrated(page);
    await context.close();
  },
);
