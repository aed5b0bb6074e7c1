// Single sign-on in Chromium (DESIGN.md §13), against the demo configured
// from `GATEHOUSE_OIDC_*` for a real OpenID Connect provider
// (npm:oidc-provider in process, its development login and consent
// pages): the login screen's "Sign in with Acme SSO" (alone for the
// enforced domain, which a password cannot enter), the provider's login
// page, back signed in to an account made for the person; the account
// panel's linked identity, and for this account without a password no
// change-password form but how to get one; re-authentication through the
// provider (no password asked), after which unlinking the account's only
// way in is refused and explained; a cancelled sign-in and a forged
// callback, each said on the login screen; and the same journey in
// Spanish. axe checks each of these states.

import assert from "node:assert/strict";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { axeViolations, type Violation } from "../fixtures/axe.ts";
import {
  browserTest,
  closeContexts,
  hydrated,
  screen,
} from "../fixtures/browser.ts";
import { type SsoDemo, startSsoDemo } from "../fixtures/sso_demo.ts";

// The provider's account: staff of acme.example, made a member on arrival.
const ADA = {
  ada: {
    email: "ada@acme.example",
    email_verified: true,
    name: "Ada Lovelace",
    groups: ["staff"],
  },
};
const WINDOW = 30_000;

/** Runs `fn` with a fresh demo and its provider; everything closed after. */
function ssoJourney(
  name: string,
  fn: (browser: Browser, demo: SsoDemo) => Promise<void>,
): void {
  browserTest(name, async (browser) => {
    const demo = await startSsoDemo({
      accounts: structuredClone(ADA),
      env: {
        GATEHOUSE_OIDC_DOMAINS: "acme.example",
        GATEHOUSE_OIDC_CREATE: "1",
        GATEHOUSE_OIDC_ROLE_MAP: "staff=member",
        GATEHOUSE_OIDC_ENFORCE: "1",
      },
      reauthenticationWindow: WINDOW,
    });
    try {
      await fn(browser, demo);
    } finally {
      await closeContexts(browser);
      await demo.close();
    }
  });
}

/**
 * A context in `locale` that may run axe (`bypassCSP`), whose requests to
 * anywhere but the demo and the provider fail at once (the provider's
 * development pages ask for a web font).
 */
async function contextFor(
  browser: Browser,
  demo: SsoDemo,
  locale: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    locale,
    viewport: { width: 800, height: 600 },
    bypassCSP: true,
  });
  context.setDefaultTimeout(15_000);
  const ours = [new URL(demo.origin).host, new URL(demo.idp.issuer).host];
  await context.route(
    (url) => !ours.includes(url.host),
    (route) => route.abort(),
  );
  return context;
}

/** The authorization requests the page made to the provider. */
function authorizations(page: Page, demo: SsoDemo): URL[] {
  const seen: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === demo.idp.issuer && url.pathname === "/auth") {
      seen.push(url);
    }
  });
  return seen;
}

/**
 * On the provider's pages: signs in as `account` on its login page and
 * confirms its consent page, until the browser is back on the demo.
 */
async function signInAtProvider(
  page: Page,
  demo: SsoDemo,
  account: string,
): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(demo.idp.issuer), {
    waitUntil: "domcontentloaded",
  });
  for (let step = 0; step < 4; step++) {
    if (!page.url().startsWith(demo.idp.issuer)) break;
    const login = page.locator('input[name="login"]');
    if (await login.count() > 0) {
      await login.fill(account);
      await page.locator('input[name="password"]').fill("any password");
    }
    const before = page.url();
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.href !== before, {
      waitUntil: "domcontentloaded",
    });
  }
  assert.ok(page.url().startsWith(demo.origin), `back on ${page.url()}`);
  await hydrated(page);
}

/** axe's violations on the page, by state, gathered for one assertion. */
function axeLog() {
  const found: Array<[string, Violation[]]> = [];
  return {
    found,
    async check(state: string, page: Page) {
      const violations = await axeViolations(page);
      if (violations.length > 0) found.push([state, violations]);
    },
  };
}

const alert = (page: Page, name: string) =>
  screen(page, name).locator('[role="alert"] p').first();

ssoJourney(
  "Chromium: sign in with the provider, see the linked identity, re-authenticate there; axe finds nothing",
  async (browser, demo) => {
    const axe = axeLog();
    const context = await contextFor(browser, demo, "en-US");
    const page = await context.newPage();
    const asked = authorizations(page, demo);
    await page.goto(`${demo.origin}/`);
    await hydrated(page);
    const login = screen(page, "login");
    const button = login.getByRole("button", { name: "Sign in with Acme SSO" });
    await button.waitFor();
    await axe.check("login with a provider", page);

    // The enforced domain: the provider's button alone, and a password
    // cannot enter (the address has no account yet: the same answer).
    await login.locator('input[name="email"]').fill("ada@acme.example");
    await login.getByText("Addresses at acme.example sign in with Acme SSO.")
      .waitFor();
    await login.locator('input[name="password"]').fill("a password to try");
    await login.locator('button[type="submit"]').click();
    await alert(page, "login").filter({
      hasText: "This address must sign in with Acme SSO.",
    }).waitFor();
    assert.equal(
      await login.getByRole("button", { name: /^Sign in with / }).count(),
      2,
      "the passkey button and Acme's",
    );
    await axe.check("login: the address must use single sign-on", page);

    // A callback that no start of this browser made: refused, and said.
    await page.goto(
      `${demo.origin}/api/auth/sso/${demo.providerId}/callback?code=forged&state=forged`,
    );
    await hydrated(page);
    await alert(page, "login").filter({
      hasText:
        "Signing in with your organisation took too long or was interrupted. Try again.",
    }).waitFor();
    assert.equal(new URL(page.url()).search, "", "the code leaves the address");
    await axe.check("login back from a failed single sign-on", page);

    // Sign in at the provider: back on the account page, signed in.
    await login.getByRole("button", { name: "Sign in with Acme SSO" }).click();
    await page.locator('input[name="login"]').waitFor();
    const start = asked.at(-1)!;
    assert.equal(start.searchParams.get("response_type"), "code");
    assert.equal(start.searchParams.get("code_challenge_method"), "S256");
    assert.ok(start.searchParams.get("state"), "a state");
    assert.ok(start.searchParams.get("nonce"), "a nonce");
    assert.equal(
      start.searchParams.get("redirect_uri"),
      `${demo.origin}/api/auth/sso/${demo.providerId}/callback`,
    );
    await signInAtProvider(page, demo, "ada");
    const account = screen(page, "account");
    await account.waitFor();
    assert.equal(new URL(page.url()).pathname, "/");
    assert.equal(
      await account.locator(".gh-account-name").textContent(),
      "Ada Lovelace",
    );
    assert.equal(
      await account.locator(".gh-account-email").textContent(),
      "ada@acme.example",
    );
    const session = await page.evaluate(async () =>
      (await fetch("/api/auth/session")).json()
    );
    assert.equal(session.role, "member", "the provider's group mapped");
    const cookies = (await context.cookies(demo.origin)).map((c) => c.name);
    assert.ok(cookies.includes("__Host-session"), cookies.join());
    assert.ok(!cookies.includes("__Host-gatehouse-sso"), "the flow is spent");

    // The linked identity.
    const identities = account.locator(".gh-identity-list .gh-list-item");
    await identities.first().waitFor();
    assert.equal(await identities.count(), 1);
    assert.equal(
      await identities.locator(".gh-list-name").textContent(),
      "Acme SSO",
    );
    assert.match(
      (await identities.locator(".gh-list-facts").textContent())!,
      /^ada@acme\.example · Linked /,
    );
    // The account has no password: no form to change it, but how to get one.
    await account.locator(".gh-no-password").waitFor();
    assert.equal(await account.getByLabel("Current password").count(), 0);
    await axe.check("account with a linked identity", page);

    // Past the re-authentication window, unlinking asks to confirm: the
    // account has no password, so at the provider.
    demo.clock.offset += WINDOW + 1_000;
    await account.getByRole("button", { name: "Unlink Acme SSO" }).click();
    const unlink = page.locator('dialog[data-gh-dialog="unlink-identity"]');
    await unlink.getByRole("button", { name: "Unlink" }).click();
    const reauth = page.locator('dialog[data-gh-dialog="reauthenticate"]');
    const confirm = reauth.getByRole("button", {
      name: "Confirm with Acme SSO",
    });
    await confirm.waitFor();
    assert.equal(
      await reauth.locator('input[type="password"]').count(),
      0,
      "no password asked",
    );
    await axe.check("the re-authentication dialog with a provider", page);
    await confirm.click();
    await page.locator('input[name="login"]').waitFor();
    const again = asked.at(-1)!;
    assert.equal(again.searchParams.get("prompt"), "login");
    assert.equal(again.searchParams.get("max_age"), "0");
    await signInAtProvider(page, demo, "ada");
    await account.waitFor();
    assert.equal(new URL(page.url()).pathname, "/", "back where it was");

    // The proof is fresh: the unlink reaches the rule that keeps the
    // account's only way in, and the dialog says what to do first.
    await account.getByRole("button", { name: "Unlink Acme SSO" }).click();
    await unlink.getByRole("button", { name: "Unlink" }).click();
    await unlink.locator('[role="alert"] p').filter({
      hasText:
        "This is the only way left to sign in to your account, so it stays linked. Add a passkey or a password first.",
    }).waitFor();
    assert.equal(await reauth.count(), 0, "no second confirmation asked");
    await axe.check("unlink refused: the last way to sign in", page);
    await page.keyboard.press("Escape");
    assert.equal(await identities.count(), 1, "still linked");

    const activity = await page.evaluate(async () =>
      (await fetch("/api/auth/activity")).json()
    );
    const confirmed = activity.events.find((event: { type: string }) =>
      event.type === "reauthenticated"
    );
    assert.equal(confirmed?.detail?.method, "sso");
    assert.deepEqual(axe.found, [], JSON.stringify(axe.found, null, 2));
    await context.close();
  },
);

ssoJourney(
  "Chromium in Spanish: a cancelled sign-in is said, then sign in with the provider and see the identity; axe finds nothing",
  async (browser, demo) => {
    const axe = axeLog();
    const context = await contextFor(browser, demo, "es-ES");
    const page = await context.newPage();
    await page.goto(`${demo.origin}/`);
    await hydrated(page);
    const login = screen(page, "login");
    const button = login.getByRole("button", {
      name: "Iniciar sesión con Acme SSO",
    });
    await button.click();
    // "[ Cancel ]" on the provider's login page: it answers access_denied.
    await page.locator('input[name="login"]').waitFor();
    await page.locator('a[href*="/abort"]').click();
    await page.waitForURL((url) => url.href.startsWith(demo.origin));
    await hydrated(page);
    await alert(page, "login").filter({
      hasText:
        "El inicio de sesión de tu organización se canceló o se rechazó. Vuelve a intentarlo o consulta a tu administrador.",
    }).waitFor();
    assert.equal(new URL(page.url()).search, "", "the code leaves the address");
    await axe.check("login back from a cancelled sign-in (es)", page);

    await button.click();
    await signInAtProvider(page, demo, "ada");
    const account = screen(page, "account");
    await account.getByRole("heading", { name: "Tu cuenta" }).waitFor();
    const section = account.locator("section.gh-identities");
    await section.getByRole("heading", { name: "Inicio de sesión único" })
      .waitFor();
    await section.locator(".gh-list-item").first().waitFor();
    assert.match(
      (await section.locator(".gh-list-facts").textContent())!,
      /^ada@acme\.example · Vinculada el /,
    );
    assert.ok(
      await section.getByRole("button", { name: "Desvincular Acme SSO" })
        .isVisible(),
    );
    await axe.check("account with a linked identity (es)", page);
    assert.deepEqual(axe.found, [], JSON.stringify(axe.found, null, 2));
    await context.close();
  },
);
