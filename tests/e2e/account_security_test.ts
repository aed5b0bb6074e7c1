// Account security in real Chromium (issue 14): a password changed from the
// account panel (the old one stops working, the new one signs in); a
// session ended from another browser's sessions list, whose next action
// lands on the login screen saying so; an administrator past the
// re-authentication window disabling an account through the dialog. (Two
// tabs of one browser, signed out in one: stale_states_test.ts.)

import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { type Demo, e2eTest, newContext } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";

/** The demo's clock for the re-authentication test, moved instead of slept. */
const clock = (() => {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
})();

const NEW_PASSWORD = "a brand new passphrase 2024";

/** A new browser context signed in as `email` on `path`. */
async function signedIn(
  browser: Browser,
  demo: Demo,
  path: string,
  email = ADMIN.email,
  password = PASSWORD,
) {
  const context = await newContext(browser);
  const page = await openPage(context, `${demo.origin}${path}`);
  await signIn(page, email, password);
  return { context, page };
}

e2eTest(
  "a password changed from the account panel: the old one is refused, the new one signs in",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const { context, page } = await signedIn(browser, demo, "/");
    const section = screen(page, "account").locator(".gh-password");
    await section.locator('input[name="current_password"]').fill(PASSWORD);
    await section.locator('input[name="new_password"]').fill(NEW_PASSWORD);
    await section.locator('input[name="confirm"]').fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Change password" }).click();
    await section.getByText("Your password is changed.").waitFor();
    // This browser stays signed in (its session was renewed).
    await page.reload();
    await screen(page, "account").waitFor();
    await context.close();

    const other = await newContext(browser);
    const login = await openPage(other, `${demo.origin}/`);
    await signIn(login, ADMIN.email, PASSWORD);
    await screen(login, "login").locator('[role="alert"] p').waitFor();
    assert.equal(await screen(login, "account").count(), 0);
    await signIn(login, ADMIN.email, NEW_PASSWORD);
    await screen(login, "account").waitFor();
    await other.close();
  },
);

e2eTest(
  "a session ended from another browser's sessions list: its next action lands on the login screen with 'Your session has ended'",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    // The browser to be ended signs in first, so the other lists it.
    const victim = await signedIn(browser, demo, "/users");
    await victim.page.locator(".gh-row").first().waitFor();
    const { context, page } = await signedIn(browser, demo, "/");
    const sessions = screen(page, "account").locator(".gh-sessions");
    const items = sessions.locator(".gh-session-list li");
    await items.nth(1).waitFor();
    assert.equal(await items.count(), 2);
    const others = sessions.locator("li:not(:has(.gh-badge-active))");
    assert.equal(await others.count(), 1);
    await others.getByRole("button", { name: /^End the session on / }).click();
    await sessions.getByText(/^The session on .* has ended\.$/).waitFor();
    await items.nth(1).waitFor({ state: "detached" });

    // The ended browser's next action (the next page of users).
    await victim.page.locator(".gh-pager button").last().click();
    const alert = screen(victim.page, "login").locator('[role="alert"]');
    await alert.getByText("Your session has ended. Sign in again.").waitFor();
    await victim.context.close();
    await context.close();
  },
);

e2eTest(
  "an administrator past the re-authentication window disables an account through the dialog, and the disable completes after it",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const { context, page } = await signedIn(browser, demo, "/users");
    const row = page.locator('.gh-row:has-text("Person 01")');
    await row.waitFor();
    clock.advance(31 * 60_000);

    await row.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="disable"]').click();
    await page.locator('dialog[data-gh-dialog="disable"][open]')
      .getByRole("button", { name: "Disable account" }).click();
    const reauth = page.locator(
      'dialog[data-gh-dialog="reauthenticate"][open]',
    );
    await reauth.waitFor();
    assert.equal(
      await reauth.locator('input[name="password"]').evaluate((input) =>
        input === document.activeElement
      ),
      true,
    );
    // A wrong password keeps the dialog open and says so.
    await reauth.locator('input[name="password"]').fill("not the password");
    await reauth.getByRole("button", { name: "Confirm" }).click();
    await reauth.locator('[aria-invalid="true"], [role="alert"] p').first()
      .waitFor();
    let person = await demo.store.credentialsByEmail("person01@example.com");
    assert.equal(person?.user.disabled, false);

    await reauth.locator('input[name="password"]').fill(PASSWORD);
    await reauth.getByRole("button", { name: "Confirm" }).click();
    await reauth.waitFor({ state: "detached" });
    await row.getByText("Disabled").waitFor();
    person = await demo.store.credentialsByEmail("person01@example.com");
    assert.equal(person?.user.disabled, true);
    await context.close();
  },
  { now: () => clock.now() },
);
