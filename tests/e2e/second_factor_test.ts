// Two-step sign-in in real Chromium (issue 15): a person enrols an
// authenticator app from the account panel with a code the test computes
// (npm:otpauth) from the key shown for typing by hand, signs out, signs in
// with password and code, then with a recovery code, which works once, and
// later proves who they are with another in the re-authentication dialog.
// The demo's clock is moved (not slept) between steps, since a time step
// once used is refused.

import assert from "node:assert/strict";
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

const MEL = { email: "mel@example.com", name: "Mel Mendoza" };

/** The demo's clock, moved by the test. */
const clock = (() => {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms: number) {
      offset += ms;
    },
  };
})();

/** The code an authenticator app with `key` shows at the demo's time. */
function codeFor(key: string): string {
  const totp = new TOTP({
    secret: Secret.fromBase32(key.replace(/\s+/g, "")),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  });
  return totp.generate({ timestamp: clock.now() });
}

/** Signs out from the account panel and waits for the login screen. */
async function signOut(page: Page): Promise<void> {
  await screen(page, "account").getByRole("button", { name: "Sign out" })
    .click();
  await screen(page, "login").waitFor();
}

e2eTest(
  "enrol an authenticator app with a computed code, then sign in with password and code, and with a recovery code once",
  async ({ browser, demo }) => {
    await addUser(demo.store, { ...MEL, role: "member" });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    await signIn(page, MEL.email, PASSWORD);

    // Enrolment, with the key for typing by hand.
    const totp = screen(page, "account").locator(".gh-totp");
    await totp.getByRole("button", { name: "Set up an authenticator app" })
      .click();
    const key = (await totp.locator(".gh-secret").textContent())!;
    assert.match(key.replace(/\s+/g, ""), /^[A-Z2-7]{16,}$/);
    await totp.locator('input[name="code"]').fill(codeFor(key));
    await totp.getByRole("button", { name: "Turn on" }).click();
    const shown = totp.locator(".gh-codes code");
    await shown.nth(9).waitFor();
    const recovery = await shown.allTextContents();
    assert.equal(recovery.length, 10);
    await totp.getByRole("button", { name: "I saved them" }).click();
    await totp.getByText(/^On: signing in asks for a code/).waitFor();
    // The demo runs with GATEHOUSE_TOTP_KEYS: the store holds it sealed.
    const mel = await demo.store.credentialsByEmail(MEL.email);
    const stored = (await demo.store.totp(mel!.user.id))!.secret;
    assert.match(stored, /^sealed1\./);
    assert.ok(!stored.includes(key.replace(/\s+/g, "")));
    await signOut(page);

    // Password, then a wrong code (stays on the step), then the right one
    // of the next time step.
    clock.advance(30_000);
    await signIn(page, MEL.email, PASSWORD);
    const login = screen(page, "login");
    await login.getByRole("heading", {
      name: "Enter the code from your authenticator app",
    }).waitFor();
    const right = codeFor(key);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, "0");
    await login.locator('input[name="code"]').fill(wrong);
    await login.getByRole("button", { name: "Verify" }).click();
    await login.getByText("This code is not valid. Check it and try again.")
      .first().waitFor();
    await login.locator('input[name="code"]').fill(right);
    await login.getByRole("button", { name: "Verify" }).click();
    await screen(page, "account").waitFor();
    await signOut(page);

    // A recovery code instead of the app.
    const useRecovery = async (code: string) => {
      await signIn(page, MEL.email, PASSWORD);
      await login.getByRole("button", { name: "Use a recovery code instead" })
        .click();
      await login.getByRole("heading", { name: "Enter a recovery code" })
        .waitFor();
      await login.locator('input[name="code"]').fill(code);
      await login.getByRole("button", { name: "Verify" }).click();
    };
    await useRecovery(recovery[0]!);
    await screen(page, "account").waitFor();
    await signOut(page);

    // The same recovery code a second time is refused.
    await useRecovery(recovery[0]!);
    await login.getByText("This code is not valid. Check it and try again.")
      .first().waitFor();
    assert.equal(await screen(page, "account").count(), 0);

    // Past the re-authentication window, new recovery codes ask for proof:
    // a recovery code in the dialog gives it, and the codes are renewed.
    await login.getByRole("button", { name: "Back to sign in" }).click();
    await useRecovery(recovery[1]!);
    await screen(page, "account").waitFor();
    await totp.getByText("8 recovery codes left.").waitFor();
    clock.advance(31 * 60_000);
    await totp.getByRole("button", { name: "New recovery codes" }).click();
    const ask = page.locator('dialog[data-gh-dialog="reauthenticate"]');
    await ask.getByRole("button", { name: "Use a recovery code instead" })
      .click();
    await ask.getByLabel("Recovery code").fill(recovery[2]!);
    await ask.getByRole("button", { name: "Confirm" }).click();
    await shown.nth(9).waitFor();
    const renewed = await shown.allTextContents();
    assert.equal(renewed.length, 10);
    assert.equal(renewed.some((code) => recovery.includes(code)), false);
    await context.close();
  },
  {
    now: () => clock.now(),
    totpKeys: [crypto.getRandomValues(new Uint8Array(32)).toBase64()],
  },
);
