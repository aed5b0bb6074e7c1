// An administrator invites someone; the demo mails no invitations, so the
// screen shows the activation link. The invited person opens it in a browser
// of their own, chooses a password and is signed in. The administrator then
// disables the account, and the person's open page falls back to the login
// screen on its next request (the session check), without a reload. A
// pending invitation shows on the users page, where revoking it kills its
// link: the page the link opens says so before any password is typed. An
// invitation for an address that has an account leads to signing in.

import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { type Demo, e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const KATHERINE = {
  email: "katherine@example.com",
  name: "Katherine Johnson",
  password: "orbital mechanics 1962",
};

/**
 * Ada, an administrator, signs in on the invite page and invites Katherine
 * as a member; returns her browser context, her page and the shown link.
 */
async function adaInvitesKatherine(browser: Browser, demo: Demo) {
  await addUser(demo.store, {
    email: "ada@example.com",
    name: "Ada",
    role: "admin",
  });
  const admins = await newContext(browser);
  const admin = await openPage(admins, `${demo.origin}/users/invite`);
  await signIn(admin, "ada@example.com", PASSWORD);
  const invite = screen(admin, "invite");
  await invite.locator('input[name="email"]').fill(KATHERINE.email);
  await invite.locator('input[name="name"]').fill(KATHERINE.name);
  await invite.locator('select[name="role"]').selectOption("member");
  await invite.locator('button[type="submit"]').click();
  const shown = invite.locator('input[name="activation_link"]');
  await shown.waitFor();
  assert.equal(await shown.getAttribute("readonly"), "");
  const link = await shown.inputValue();
  assert.match(link, new RegExp(`^${demo.origin}/invite#token=[\\w-]{43}$`));
  return { admins, admin, link };
}

/** Katherine opens `link` in a browser context of her own and sets her password. */
async function katherineAccepts(browser: Browser, link: string) {
  const guests = await newContext(browser);
  const guest = await openPage(guests, link);
  const setPassword = screen(guest, "set-password");
  await setPassword.locator('input[name="password"]').fill(KATHERINE.password);
  await setPassword.locator('input[name="confirm"]').fill(KATHERINE.password);
  await setPassword.locator('button[type="submit"]').click();
  return { guests, guest };
}

e2eTest(
  "an invited person accepts the shown link in a second browser; disabling them sends their open page back to the login screen without a reload",
  async ({ browser, demo }) => {
    // The administrator invites Katherine as a member.
    const { admins, admin, link } = await adaInvitesKatherine(browser, demo);

    // Katherine, in a browser context of her own, sets her password.
    const { guests, guest } = await katherineAccepts(browser, link);
    await guest.waitForURL(`${demo.origin}/`);
    const account = screen(guest, "account");
    await account.waitFor();
    assert.equal(
      await account.locator(".gh-account-name").textContent(),
      KATHERINE.name,
    );
    assert.equal(
      await account.locator(".gh-account-role").textContent(),
      "Member",
    );
    assert.equal((await guests.cookies())[0]?.name, "__Host-session");

    // Marks this very document: a reload or navigation would lose it.
    await guest.evaluate(() => {
      (globalThis as { sameDocument?: boolean }).sameDocument = true;
    });
    const sessionChecks: number[] = [];
    guest.on("response", (res) => {
      if (res.url() === `${demo.origin}/api/auth/session`) {
        sessionChecks.push(res.status());
      }
    });

    // The administrator disables her from the users list.
    await admin.goto(`${demo.origin}/users`);
    await admin.getByRole("button", { name: `Actions for ${KATHERINE.name}` })
      .click();
    await admin.getByRole("menuitem", { name: "Disable…" }).click();
    await admin.locator('dialog[data-gh-dialog="disable"]')
      .getByRole("button", { name: "Disable account" }).click();
    await admin.getByText(
      `${KATHERINE.name} is disabled and signed out everywhere.`,
    ).waitFor();
    const stored = await demo.store.credentialsByEmail(KATHERINE.email);
    assert.equal(stored?.user.disabled, true);

    // Her page asks about its session again and shows the login screen.
    await screen(guest, "login").waitFor();
    assert.equal(await screen(guest, "account").count(), 0);
    // Playwright may report the 401 a moment after the page has acted on it.
    for (let i = 0; i < 50 && sessionChecks.at(-1) !== 401; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.deepEqual(sessionChecks.slice(-1), [401]);
    assert.equal(guest.url(), `${demo.origin}/`);
    assert.equal(
      await guest.evaluate(() =>
        (globalThis as { sameDocument?: boolean }).sameDocument
      ),
      true,
      "the login screen came without a reload",
    );

    // And her password no longer opens a session.
    await signIn(guest, KATHERINE.email, KATHERINE.password);
    await screen(guest, "login").locator('[role="alert"] p').waitFor();
    assert.equal(await screen(guest, "account").count(), 0);
    await admins.close();
    await guests.close();
  },
  { sessionCheckInterval: 500 },
);

e2eTest(
  "the users page lists a pending invitation with its inviter; revoking it kills the link",
  async ({ browser, demo }) => {
    const { admins, admin, link } = await adaInvitesKatherine(browser, demo);

    // The server's GET /api/users/invitations feeds the panel.
    await admin.goto(`${demo.origin}/users`);
    const panel = admin.locator('[data-gh-part="invitations"]');
    const item = panel.locator(".gh-invitation");
    await item.waitFor();
    assert.equal(await item.count(), 1);
    assert.equal(
      await item.locator(".gh-invitation-email").textContent(),
      KATHERINE.email,
    );
    assert.match(
      await item.locator(".gh-invitation-facts").textContent() ?? "",
      /Invited by Ada/,
    );

    // Revoking asks first, then DELETE /api/users/invitations/{id}.
    await item.getByRole("button", {
      name: `Revoke the invitation for ${KATHERINE.email}`,
    }).click();
    await admin.locator('dialog[data-gh-dialog="revoke"]')
      .getByRole("button", { name: "Revoke invitation" }).click();
    await panel.getByText("No pending invitations.").waitFor();
    assert.equal(await item.count(), 0);

    // The link is dead: the set-password screen says so as it opens,
    // before anyone types a password, and asks no password at all.
    const guests = await newContext(browser);
    const guest = await openPage(guests, link);
    await guest.locator('[data-gh-state="invalid-link"]').waitFor();
    assert.equal(await guest.locator('input[name="password"]').count(), 0);
    await guest.getByRole("heading", {
      name: "This invitation link is no longer valid",
    }).waitFor();
    assert.equal(await demo.store.credentialsByEmail(KATHERINE.email), null);
    await admins.close();
    await guests.close();
  },
);

e2eTest(
  "an invitation for an address that has an account looks sent, and its link leads to signing in or resetting the password",
  async ({ browser, demo }) => {
    await addUser(demo.store, {
      email: KATHERINE.email,
      name: KATHERINE.name,
      role: "member",
    });
    // The administrator sees the same answer as for anyone: a link.
    const { admins, admin, link } = await adaInvitesKatherine(browser, demo);
    // Not pending: the address has an account.
    await admin.goto(`${demo.origin}/users`);
    await admin.locator('[data-gh-part="invitations"]').getByText(
      "No pending invitations.",
    ).waitFor();
    assert.equal(await admin.locator(".gh-invitation").count(), 0);

    const guests = await newContext(browser);
    const guest = await openPage(guests, link);
    const setPassword = screen(guest, "set-password");
    await guest.locator('[data-gh-state="account-exists"]').waitFor();
    await setPassword.getByRole("heading", {
      name: "You already have an account",
    }).waitFor();
    assert.equal(
      await setPassword.locator('input[name="password"]').count(),
      0,
    );
    assert.equal(
      await setPassword.getByRole("link", { name: "Sign in" }).getAttribute(
        "href",
      ),
      "/",
    );
    await setPassword.getByRole("link", { name: "Reset your password" })
      .click();
    await guest.waitForURL(`${demo.origin}/forgot`);
    await admins.close();
    await guests.close();
  },
);
