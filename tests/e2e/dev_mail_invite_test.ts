// The development mailbox as a newcomer uses it (DESIGN.md §14), in
// headless Chromium: the demo on a loopback address without SMTP keeps the
// invitation an administrator sends from the users screen; /dev/mail shows
// it (axe-core finds nothing to fix there), and the link it carries opens
// the set-password screen in the invited person's own browser and signs
// them in.

import assert from "node:assert/strict";
import { axeViolations } from "../fixtures/axe.ts";
import { hydrated, openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const KATHERINE = {
  email: "katherine@example.com",
  name: "Katherine Johnson",
  password: "orbital mechanics 1962",
};

e2eTest(
  "an invitation sent from the users screen appears at /dev/mail, which axe finds clean, and its link signs the person in",
  async ({ browser, demo }) => {
    await addUser(demo.store, {
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
    });
    const admins = await newContext(browser);
    const admin = await openPage(admins, `${demo.origin}/users`);
    await signIn(admin, "ada@example.com", PASSWORD);
    await screen(admin, "users").waitFor();
    await admin.getByRole("link", { name: "Invite someone" }).click();
    await hydrated(admin);
    const invite = screen(admin, "invite");
    await invite.locator('input[name="email"]').fill(KATHERINE.email);
    await invite.locator('input[name="name"]').fill(KATHERINE.name);
    await invite.locator('select[name="role"]').selectOption("member");
    await invite.locator('button[type="submit"]').click();
    // Mailed, not shown: the screen names no link.
    await invite.locator('[data-gh-delivered="true"]').waitFor();
    assert.equal(
      await invite.locator('input[name="activation_link"]').count(),
      0,
    );

    // The mailbox, in another tab of the administrator's browser.
    const mailbox = await admins.newPage();
    await mailbox.goto(`${demo.origin}/dev/mail`);
    const newest = mailbox.locator("article").first();
    assert.equal(
      await newest.locator("h2").textContent(),
      "You are invited to Gatehouse",
    );
    assert.match(
      await newest.locator("dd").first().textContent() ?? "",
      /^Katherine Johnson <katherine@example\.com>$/,
    );
    assert.deepEqual(await axeViolations(mailbox), []);
    const frame = mailbox.frameLocator("iframe[sandbox='']").first();
    const button = frame.getByRole("link", { name: "Choose your password" });
    await button.waitFor();
    const link = await button.getAttribute("href");
    assert.match(
      link ?? "",
      new RegExp(`^${demo.origin}/invite#token=[\\w-]{43}$`),
    );
    // The same link in the text part.
    assert.ok(
      (await newest.locator("pre").textContent() ?? "").includes(link!),
    );

    // Katherine follows it in a browser of her own.
    const guests = await newContext(browser);
    const guest = await openPage(guests, link!);
    const setPassword = screen(guest, "set-password");
    await setPassword.locator('input[name="password"]').fill(
      KATHERINE.password,
    );
    await setPassword.locator('input[name="confirm"]').fill(
      KATHERINE.password,
    );
    await setPassword.locator('button[type="submit"]').click();
    await guest.waitForURL(`${demo.origin}/`);
    const account = screen(guest, "account");
    await account.waitFor();
    assert.equal(
      await account.locator(".gh-account-name").textContent(),
      KATHERINE.name,
    );
    const stored = await demo.store.credentialsByEmail(KATHERINE.email);
    assert.equal(stored?.user.name, KATHERINE.name);
    // Her browser asked for English: her mail will be in English.
    assert.equal(stored?.user.locale, "en");
    await admins.close();
    await guests.close();
  },
  { mailbox: true },
);
