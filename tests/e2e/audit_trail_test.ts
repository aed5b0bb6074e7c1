// The audit trail in real Chromium (issue 17): an administrator changes an
// account's role on the users page, opens that account's "Activity" from
// its row and finds the change they just made, from the old role to the
// new, by them.

import assert from "node:assert/strict";
import { hydrated, openPage, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { PASSWORD } from "../fixtures/kv.ts";
import { ADMIN, seedAccounts } from "./_walk.ts";

e2eTest(
  "an administrator changes a role, opens the account's Activity and sees that change",
  async ({ browser, demo }) => {
    await seedAccounts(demo);
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/users`);
    await signIn(page, ADMIN.email, PASSWORD);
    // Person 01 is a member.
    const row = page.locator('.gh-row:has-text("Person 01")');
    await row.waitFor();
    await row.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="role"]').click();
    const dialog = page.locator('dialog[data-gh-dialog="role"][open]');
    await dialog.locator('select[name="role"]').selectOption("admin");
    await dialog.getByRole("button", { name: "Change role" }).click();
    await dialog.waitFor({ state: "detached" });
    await row.getByText("Administrator").waitFor();

    await row.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="activity"]').click();
    await page.waitForURL(
      `${demo.origin}/users/audit?email=${
        encodeURIComponent("person01@example.com")
      }`,
    );
    await hydrated(page);
    const audit = page.locator('[data-gh-screen="audit"]');
    // The filter shows the address it filters by, as the users screen does.
    assert.equal(
      await audit.locator('input[name="email"]').inputValue(),
      "person01@example.com",
    );
    const change = audit.locator('.gh-row[data-event="user.role_changed"]');
    await change.waitFor();
    assert.equal(await change.count(), 1);
    const cells = await change.locator("th, td").allTextContents();
    assert.match(cells[1]!, /^Role changed\s+Member → Administrator$/);
    assert.equal(cells[2], ADMIN.email);
    assert.equal(cells[3], "person01@example.com");
    // Only this account's events: none of Ada's own sign-in.
    assert.equal(
      await audit.locator('.gh-row[data-event="login.succeeded"]').count(),
      0,
    );
    await context.close();
  },
);
