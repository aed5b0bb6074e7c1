// The demo with the keyboard only, in Chromium: sign in, page through the
// users, disable an account after its confirmation, change a role, invite
// someone. After every action focus is on an element (never <body>) and
// that element shows a focus ring.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hydrated } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";

/** Where focus is, and whether it shows. */
async function focus(page: Page) {
  return await page.evaluate(() => {
    const element = document.activeElement;
    if (element === null || element === document.body) return null;
    const style = getComputedStyle(element);
    return {
      tag: element.tagName,
      text: (element.getAttribute("aria-label") ?? element.textContent ?? "")
        .trim(),
      ring: style.outlineStyle !== "none" &&
        parseFloat(style.outlineWidth) >= 2,
    };
  });
}

/** Asserts focus is on something visible after `what`, and answers it. */
async function focusAfter(page: Page, what: string) {
  const now = await focus(page);
  assert.ok(now !== null, `${what}: focus is on <body>`);
  assert.ok(now.ring, `${what}: no visible focus on ${now.tag} "${now.text}"`);
  return now;
}

/** Presses Tab until the focused element's name matches, at most `max` times. */
async function tabTo(page: Page, name: RegExp, max = 80, key = "Tab") {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const now = await focus(page);
    if (now && name.test(now.text)) return;
  }
  throw new Error(`${name} is not reached with ${max} × ${key}`);
}

e2eTest(
  "keyboard only: sign in, page through users, disable with confirmation, change a role, invite; focus always shows",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${demo.origin}/`);
    await hydrated(page);

    // The skip link comes first and leads to the main region.
    await page.keyboard.press("Tab");
    assert.match((await focusAfter(page, "first Tab")).text, /Skip to main/);

    // Sign in.
    await tabTo(page, /^$/); // the email field (an input has no text)
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.locator('[data-gh-screen="account"]').waitFor();
    assert.equal((await focusAfter(page, "sign-in")).text, "Your account");

    // To the users through the navigation.
    await tabTo(page, /^Users$/, 10, "Shift+Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${demo.origin}/users`);
    await hydrated(page);
    await page.locator(".gh-row").nth(19).waitFor();

    // Page through: focus stays on Next page.
    await tabTo(page, /^Next page$/);
    await page.keyboard.press("Enter");
    await page.getByText("Page 2 of 3").waitFor();
    await page.locator('.gh-row:has-text("Person 19")').waitFor();
    assert.equal((await focusAfter(page, "Next page")).text, "Next page");
    await page.keyboard.press("Enter");
    await page.getByText("Page 3 of 3").waitFor();
    await page.locator('.gh-row:has-text("Person 39")').waitFor();
    assert.equal((await focusAfter(page, "Next page again")).text, "Next page");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Enter");
    await page.getByText("Page 2 of 3").waitFor();
    await page.locator('.gh-row:has-text("Person 19")').waitFor();
    assert.equal(
      (await focusAfter(page, "Previous page")).text,
      "Previous page",
    );

    // Disable an account of this page, after its confirmation.
    await tabTo(page, /^Actions for Person 20$/, 80, "Shift+Tab");
    await page.keyboard.press("Enter");
    assert.equal((await focusAfter(page, "menu open")).text, "Change role…");
    await page.keyboard.press("ArrowDown");
    assert.equal((await focusAfter(page, "ArrowDown")).text, "Disable…");
    await page.keyboard.press("Enter");
    await page.locator('dialog[data-gh-dialog="disable"][open]').waitFor();
    assert.equal((await focusAfter(page, "dialog open")).text, "Cancel");
    await page.keyboard.press("Shift+Tab");
    assert.equal(
      (await focusAfter(page, "to confirm")).text,
      "Disable account",
    );
    await page.keyboard.press("Enter");
    await page.getByText("Person 20 is disabled and signed out everywhere.")
      .waitFor();
    assert.equal(
      (await focusAfter(page, "disabled")).text,
      "Actions for Person 20",
    );
    const person20 = await demo.store.credentialsByEmail(
      "person20@example.com",
    );
    assert.equal(person20?.user.disabled, true);

    // Escape cancels a dialog, focus back on the row's button.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.locator('dialog[data-gh-dialog="role"][open]').waitFor();
    await page.keyboard.press("Escape");
    await page.locator("dialog[open]").waitFor({ state: "detached" });
    assert.equal(
      (await focusAfter(page, "Escape")).text,
      "Actions for Person 20",
    );

    // Change a role: the dialog opens on the role menu.
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.locator('dialog[data-gh-dialog="role"][open]').waitFor();
    const roleMenu = await focusAfter(page, "role dialog");
    assert.equal(roleMenu.tag, "SELECT");
    await page.locator("dialog[open] select").selectOption("admin");
    await page.keyboard.press("Tab");
    assert.equal(
      (await focusAfter(page, "to Change role")).text,
      "Change role",
    );
    await page.keyboard.press("Enter");
    await page.getByText("Person 20 now has the role Administrator.").waitFor();
    assert.equal(
      (await focusAfter(page, "role changed")).text,
      "Actions for Person 20",
    );
    assert.equal(
      (await demo.store.credentialsByEmail("person20@example.com"))?.user.role,
      "admin",
    );

    // Invite someone: the link from the header, the form, the confirmation.
    await tabTo(page, /^Invite someone$/, 80, "Shift+Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(`${demo.origin}/users/invite`);
    await hydrated(page);
    await tabTo(page, /^$/); // the name field
    await page.keyboard.type("Ivy Invited");
    await page.keyboard.press("Tab");
    await page.keyboard.type("ivy@example.com");
    await page.keyboard.press("Enter");
    await page.locator('input[name="activation_link"]').waitFor();
    assert.equal(
      (await focusAfter(page, "invitation sent")).text,
      "Invitation link ready",
    );
    await tabTo(page, /^Invite someone else$/);
    await page.keyboard.press("Enter");
    assert.equal(
      (await focusAfter(page, "Invite someone else")).text,
      "Invite someone",
    );
    await context.close();
  },
);
