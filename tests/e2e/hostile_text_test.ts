// Text people choose, shown to others, in real Chromium: names, addresses,
// an invited person's name and a failed sign-in's address, each written as
// markup, reach the users table, the pending invitations, the audit log and
// the account panel (its sessions and activity) as text, and the pages the
// server renders (JavaScript off) alike: no element is made of them and no
// script of theirs runs.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { hydrated, openPage, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, hashOf, PASSWORD } from "../fixtures/kv.ts";

// Each one sets `window.__pwned` if it ever runs.
const ADMIN = {
  email: "ada@example.com",
  name: `Ada <img src=x onerror="window.__pwned='name'">`,
};
const MEMBER = {
  email: `"><svg/onload=window.__pwned='email'>@x.example`,
  name: `</script><script>window.__pwned='script'</script>`,
};
const INVITED = {
  email: `inv'"><img/src=x/onerror=window.__pwned='invited'>@x.example`,
  name: `<iframe srcdoc="<script>parent.__pwned='frame'</script>">`,
};
const TYPED = `<img/src=x/onerror=window.__pwned='typed'>@evil.example`;

async function assertInert(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(() => ({
    pwned: (globalThis as { __pwned?: string }).__pwned ?? null,
    handlers: document.querySelectorAll("[onerror], [onload]").length,
    frames: document.querySelectorAll("iframe").length,
    images: document.querySelectorAll('img[src="x"]').length,
  }));
  assert.deepEqual(
    found,
    { pwned: null, handlers: 0, frames: 0, images: 0 },
    where,
  );
}

e2eTest(
  "names, addresses and typed text written as markup show as text on every screen, with JavaScript on and off",
  async ({ browser, demo }) => {
    const passwordHash = await hashOf(PASSWORD);
    await addUser(demo.store, { ...ADMIN, role: "admin", passwordHash });
    await addUser(demo.store, { ...MEMBER, role: "member", passwordHash });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    // A failed sign-in whose typed address looks deliverable is recorded.
    await signIn(page, TYPED, "not the password at all");
    await page.locator('[role="alert"]').first().waitFor();
    await signIn(page, ADMIN.email, PASSWORD);
    await page.locator('[data-gh-screen="account"]').waitFor();
    const invited = await page.evaluate(async (body) => {
      const res = await fetch("/api/users/invite", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return res.status;
    }, INVITED);
    assert.equal(invited, 200);

    // The account panel: the admin's own name, sessions and activity.
    await page.reload();
    await hydrated(page);
    const account = page.locator('[data-gh-screen="account"]');
    await account.getByText(ADMIN.name, { exact: false }).first().waitFor();
    await assertInert(page, "account");

    // The users table and the pending invitations.
    await page.goto(`${demo.origin}/users`);
    await hydrated(page);
    const users = page.locator('[data-gh-screen="users"]');
    await users.getByText(MEMBER.name).first().waitFor();
    await users.getByText(MEMBER.email).first().waitFor();
    await users.getByText(INVITED.name).first().waitFor();
    await assertInert(page, "users");

    // The audit log: the invitation's address and the typed address.
    await page.goto(`${demo.origin}/users/audit`);
    await hydrated(page);
    const audit = page.locator('[data-gh-screen="audit"]');
    await audit.getByText(INVITED.email).first().waitFor();
    await audit.getByText(TYPED).first().waitFor();
    await assertInert(page, "audit");

    // Filtered by a hostile address through the query string.
    await page.goto(
      `${demo.origin}/users/audit?email=${encodeURIComponent(MEMBER.email)}`,
    );
    await hydrated(page);
    assert.equal(
      await audit.locator('input[name="email"]').inputValue(),
      MEMBER.email,
    );
    await assertInert(page, "audit filtered");

    // The pages as the server renders them, without JavaScript.
    const cookies = await context.cookies();
    const plain = await browser.newContext({ javaScriptEnabled: false });
    await plain.addCookies(cookies);
    const still = await plain.newPage();
    await still.goto(`${demo.origin}/`);
    assert.ok(
      (await still.locator("body").innerText()).includes(ADMIN.name),
      "the account panel names the signed-in account",
    );
    await assertInert(still, "/ without JavaScript");
    await still.goto(
      `${demo.origin}/users?q=${encodeURIComponent(MEMBER.name)}`,
    );
    assert.equal(
      await still.locator('input[type="search"], input[name="q"]').first()
        .inputValue(),
      MEMBER.name,
    );
    await assertInert(still, "/users?q= without JavaScript");
    await still.goto(
      `${demo.origin}/users/audit?email=${encodeURIComponent(MEMBER.email)}`,
    );
    assert.equal(
      await still.locator('input[name="email"]').inputValue(),
      MEMBER.email,
    );
    await assertInert(still, "/users/audit?email= without JavaScript");
    await plain.close();
    await context.close();
  },
);
