// Passkeys in real Chromium (issue 16), through the DevTools Protocol's
// virtual authenticator (CTAP2, internal transport, resident keys, user
// verification): a passkey added from the account panel signs in with no
// password, and serves as the second step after a password; an
// authenticator that refuses user verification gets a clear error on
// screen. The demo is reached as http://localhost:PORT, so the RP ID is
// localhost.

import assert from "node:assert/strict";
import type {
  Browser,
  BrowserContext,
  CDPSession,
  Page,
} from "playwright-core";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const MEL = { email: "mel@example.com", name: "Mel Mendoza" };

interface Authenticator {
  cdp: CDPSession;
  id: string;
}

/** A virtual platform authenticator for `page`, which verifies its user. */
async function virtualAuthenticator(
  context: BrowserContext,
  page: Page,
): Promise<Authenticator> {
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send(
    "WebAuthn.addVirtualAuthenticator",
    {
      options: {
        protocol: "ctap2",
        transport: "internal",
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    },
  );
  return { cdp, id: authenticatorId };
}

/**
 * A browser context whose pages offer no passkey autofill ("conditional
 * UI"): the virtual authenticator simulates presence at once, so it would
 * answer the login screen's background autofill request as soon as the
 * screen shows (the last test here shows that path); without it, only the
 * buttons start a ceremony.
 */
async function withoutAutofill(browser: Browser): Promise<BrowserContext> {
  const context = await newContext(browser);
  await context.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = () =>
      Promise.resolve(false);
  });
  return context;
}

/** Signs Mel in with her password and adds a passkey named `name`. */
async function addPasskey(page: Page, name: string): Promise<void> {
  await signIn(page, MEL.email, PASSWORD);
  const section = screen(page, "account").locator(".gh-passkeys");
  await section.locator('input[name="name"]').fill(name);
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await section.getByText(`The passkey ${name} is added.`).waitFor();
  await section.locator(".gh-passkey-list li").first().waitFor();
}

/** Signs out from the account panel and waits for the login screen. */
async function signOut(page: Page): Promise<void> {
  await screen(page, "account").getByRole("button", { name: "Sign out" })
    .click();
  await screen(page, "login").waitFor();
}

e2eTest(
  "a passkey added from the account panel signs in without a password, and is the second step after a password",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...MEL, role: "member" });
    const context = await withoutAutofill(browser);
    const page = await openPage(context, `${demo.origin}/`);
    const authenticator = await virtualAuthenticator(context, page);
    await addPasskey(page, "Laptop");
    const { credentials } = await authenticator.cdp.send(
      "WebAuthn.getCredentials",
      { authenticatorId: authenticator.id },
    );
    assert.equal(credentials.length, 1);
    assert.equal(credentials[0]!.rpId, "localhost");
    assert.equal(credentials[0]!.isResidentCredential, true);
    await signOut(page);

    // No email, no password: the passkey alone.
    const login = screen(page, "login");
    assert.equal(
      await login.locator('input[name="password"]').inputValue(),
      "",
    );
    await login.getByRole("button", { name: "Sign in with a passkey" }).click();
    const account = screen(page, "account");
    await account.waitFor();
    assert.equal(
      await account.locator(".gh-account-email").textContent(),
      MEL.email,
    );
    await signOut(page);

    // The password now asks for the passkey as its second step.
    await signIn(page, MEL.email, PASSWORD);
    const step = login.getByRole("button", { name: "Use a passkey" });
    await step.waitFor();
    assert.equal(await login.locator('input[name="code"]').count(), 0);
    await step.click();
    await account.waitFor();
    const { credentials: used } = await authenticator.cdp.send(
      "WebAuthn.getCredentials",
      { authenticatorId: authenticator.id },
    );
    assert.ok(used[0]!.signCount >= 2, `sign count ${used[0]!.signCount}`);
    await context.close();
  },
);

e2eTest(
  "a passkey whose user verification is refused gets a clear error, and no session",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...MEL, role: "member" });
    const context = await withoutAutofill(browser);
    const page = await openPage(context, `${demo.origin}/`);
    const authenticator = await virtualAuthenticator(context, page);
    await addPasskey(page, "Phone");
    await signOut(page);

    await authenticator.cdp.send("WebAuthn.setUserVerified", {
      authenticatorId: authenticator.id,
      isUserVerified: false,
    });
    const login = screen(page, "login");
    await login.getByRole("button", { name: "Sign in with a passkey" }).click();
    const alert = login.locator('[role="alert"] p');
    await alert.waitFor();
    assert.equal(
      await alert.textContent(),
      "The passkey was not used: the request was cancelled or timed out, or your device could not confirm it is you. Try again.",
    );
    assert.equal(await screen(page, "account").count(), 0);
    assert.equal(
      (await context.cookies()).some((c) => c.name === "__Host-session"),
      false,
    );
    await context.close();
  },
);

e2eTest(
  "with passkey autofill, the login screen signs in with the passkey the person picks, without a password",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...MEL, role: "member" });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    await virtualAuthenticator(context, page);
    await addPasskey(page, "Tablet");
    // The login screen's background request meets the authenticator, which
    // "picks" at once: the person is signed in without typing anything.
    const passkeyLogin = page.waitForResponse((res) =>
      new URL(res.url()).pathname === "/api/auth/passkeys/login"
    );
    await screen(page, "account").getByRole("button", { name: "Sign out" })
      .click();
    assert.equal((await passkeyLogin).status(), 200);
    const account = screen(page, "account");
    await account.waitFor();
    assert.equal(
      await account.locator(".gh-account-email").textContent(),
      MEL.email,
    );
    await context.close();
  },
);

e2eTest(
  "adding a second passkey from the same authenticator says the device already holds one, and adds nothing",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...MEL, role: "member" });
    const context = await withoutAutofill(browser);
    const page = await openPage(context, `${demo.origin}/`);
    const authenticator = await virtualAuthenticator(context, page);
    await addPasskey(page, "Laptop");
    // The creation options exclude Mel's passkeys; this authenticator holds
    // one, so the browser refuses (InvalidStateError).
    const section = screen(page, "account").locator(".gh-passkeys");
    await section.locator('input[name="name"]').fill("Laptop again");
    await section.getByRole("button", { name: "Add a passkey" }).click();
    const alert = section.locator('form [role="alert"] p');
    await alert.waitFor();
    assert.equal(
      await alert.textContent(),
      "This device already holds a passkey for your account. Use it to sign in, or add a passkey from another device.",
    );
    assert.equal(await section.locator(".gh-passkey-list li").count(), 1);
    const { credentials } = await authenticator.cdp.send(
      "WebAuthn.getCredentials",
      { authenticatorId: authenticator.id },
    );
    assert.equal(credentials.length, 1);
    await context.close();
  },
);
