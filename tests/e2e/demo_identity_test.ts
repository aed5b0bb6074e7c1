// Right after a page load the account panel has its security sections
// (issue 26, item 5): the identity the demo embeds in the page is read by
// the client's own reader, so `secondFactor` is there from the first paint,
// not only after the session re-check. With GATEHOUSE_REQUIRE_SECOND_FACTOR
// =admin, an administrator without a second factor is sent to the account
// page and can set one up there, then manage users.

import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const ADA = { email: "ada@example.com", name: "Ada Admin" };
// Long enough that no session re-check can supply what the page lacked.
const NO_RECHECK = 3_600_000;

function codeFor(key: string): string {
  return new TOTP({
    secret: Secret.fromBase32(key.replace(/\s+/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  }).generate();
}

/** Opens `path` afresh, counting the identity requests the page makes. */
async function load(
  page: Page,
  url: string,
): Promise<{ sessionRequests: () => number }> {
  let count = 0;
  const listener = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === "/api/auth/session") count += 1;
  };
  page.on("request", listener);
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor();
  return { sessionRequests: () => count };
}

e2eTest(
  "right after a page load the account panel shows two-step verification and passkeys",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...ADA, role: "member" });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    await signIn(page, ADA.email, PASSWORD);
    await screen(page, "account").waitFor();

    const loaded = await load(page, `${demo.origin}/`);
    const account = screen(page, "account");
    await account.locator(".gh-totp").waitFor({ timeout: 2_000 });
    await account.locator(".gh-passkeys").waitFor({ timeout: 2_000 });
    await account.getByRole("heading", { name: "Two-step verification" })
      .waitFor();
    await account.getByRole("heading", { name: "Passkeys" }).waitFor();
    await account.getByRole("button", { name: "Set up an authenticator app" })
      .waitFor();
    // From the page itself: the browser did not ask for the identity again.
    assert.equal(loaded.sessionRequests(), 0);
    await context.close();
  },
  { sessionCheckInterval: NO_RECHECK },
);

e2eTest(
  "an administrator required to have a second factor sets it up from the account page, then manages users",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...ADA, role: "admin" });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    await signIn(page, ADA.email, PASSWORD);
    await screen(page, "account").waitFor();

    // The users page sends them to their account first.
    await load(page, `${demo.origin}/users`);
    await page.getByText(
      "Your role needs two-step verification. Set it up in your account first.",
    ).first().waitFor();

    // A fresh load of the account page offers the place to do it.
    await load(page, `${demo.origin}/`);
    const totp = screen(page, "account").locator(".gh-totp");
    await totp.getByRole("button", { name: "Set up an authenticator app" })
      .click({ timeout: 2_000 });
    const key = (await totp.locator(".gh-secret").textContent())!;
    await totp.locator('input[name="code"]').fill(codeFor(key));
    await totp.getByRole("button", { name: "Turn on" }).click();
    await totp.locator(".gh-codes code").nth(9).waitFor();
    await totp.getByRole("button", { name: "I saved them" }).click();
    await totp.getByText(/^On: signing in asks for a code/).waitFor();

    // Now the users page lists the accounts, from a fresh load too.
    await load(page, `${demo.origin}/users`);
    await screen(page, "users").locator("table").getByText(ADA.email)
      .waitFor();
    assert.equal(
      await page.getByText("Set it up in your account first", { exact: false })
        .count(),
      0,
    );
    await context.close();
  },
  { sessionCheckInterval: NO_RECHECK, requireSecondFactor: ["admin"] },
);
