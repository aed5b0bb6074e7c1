// "Forgot password?" in real Chromium: the request answers the same neutral
// sentence for a known and an unknown address; the reset link the server
// logged (the demo has no mailer) sets a new password; the old one then
// fails and the new one signs in.

import assert from "node:assert/strict";
import { hydrated, openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, loggedResetLink, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const NEUTRAL =
  "If an account exists for that address, we have sent it a link to reset the password. Check your inbox.";
const NEW_PASSWORD = "a brand new passphrase";

e2eTest(
  "a reset request shows the neutral sentence, the logged link sets a new password, and the old one stops working",
  async ({ browser, demo }) => {
    await addUser(demo.store, { email: "grace@example.com", name: "Grace" });
    const context = await newContext(browser);

    // From the login screen's "Forgot password?".
    const page = await openPage(context, `${demo.origin}/`);
    await screen(page, "login").getByRole("link", {
      name: "Forgot password?",
    })
      .click();
    await page.waitForURL(`${demo.origin}/forgot`);
    await hydrated(page);

    const request = async (email: string): Promise<string> => {
      const form = screen(page, "request-reset");
      await form.locator('input[name="email"]').fill(email);
      await form.locator('button[type="submit"]').click();
      await page.locator(
        '[data-gh-screen="request-reset"][data-gh-state="sent"]',
      )
        .waitFor();
      return (await form.locator('[role="status"]').textContent())!.trim();
    };
    assert.equal(await request("nobody@example.com"), NEUTRAL);
    await page.reload();
    await hydrated(page);
    assert.equal(await request("grace@example.com"), NEUTRAL);

    const link = await loggedResetLink(demo, "grace@example.com");
    // Mail goes out after the answer; by the time the second request's
    // mail is logged, the first request's would have been too.
    assert.equal(
      demo.logger.lines.some((line) =>
        line.message.startsWith("development mailer") &&
        line.fields?.to === "nobody@example.com"
      ),
      false,
      "no link for an unknown address",
    );
    assert.match(link, new RegExp(`^${demo.origin}/reset#token=[\\w-]{43}$`));

    const reset = await openPage(context, link);
    const form = screen(reset, "reset-password");
    await form.locator('input[name="password"]').fill(NEW_PASSWORD);
    await form.locator('input[name="confirm"]').fill(NEW_PASSWORD);
    await form.locator('button[type="submit"]').click();
    await reset.locator(
      '[data-gh-screen="reset-password"][data-gh-state="done"]',
    )
      .waitFor();
    assert.equal(new URL(reset.url()).hash, "", "the spent token left the URL");

    // Back to sign in: the old password fails, the new one works.
    await reset.getByRole("link", { name: "Back to sign in" }).click();
    await reset.waitForURL(`${demo.origin}/`);
    await hydrated(reset);
    await signIn(reset, "grace@example.com", PASSWORD);
    const alert = screen(reset, "login").locator('[role="alert"] p');
    await alert.waitFor();
    assert.match((await alert.textContent())!, /email or password/i);
    assert.equal(await screen(reset, "account").count(), 0);

    await signIn(reset, "grace@example.com", NEW_PASSWORD);
    await screen(reset, "account").waitFor();
    await context.close();
  },
);
