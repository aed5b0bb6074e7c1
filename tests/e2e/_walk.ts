// Every page and state of the demo, one after the other, for the checks
// that must hold on each (axe, the Spanish words): signed out (the login,
// with its single sign-on states, reset and invitation pages, with their
// errors and dead links, the 404),
// signed in as an administrator of 60 accounts (the account page, the
// users table, its menu, dialogs, second page and empty search, the new
// user and invitation forms with errors and confirmations, the pending
// invitations and their revoke dialog, a linked identity and its
// dialogs) and as a member.

import type { Browser, BrowserContext, Page } from "playwright-core";
import { hydrated, screen, signIn } from "../fixtures/browser.ts";
import type { Demo } from "../fixtures/demo.ts";
import { addUser, hashOf, PASSWORD } from "../fixtures/kv.ts";

/** Who signs in for a part of the walk. */
export const ADMIN = { email: "ada@example.com", name: "Ada Lovelace" };
export const MEMBER = { email: "mel@example.com", name: "Mel Mendoza" };

/** Adds the administrator, a member and 58 more accounts (60 in all). */
export async function seedAccounts(demo: Demo): Promise<void> {
  const passwordHash = await hashOf(PASSWORD);
  await addUser(demo.store, { ...ADMIN, role: "admin", passwordHash });
  await addUser(demo.store, { ...MEMBER, role: "member", passwordHash });
  for (let i = 1; i <= 58; i++) {
    await addUser(demo.store, {
      email: `person${String(i).padStart(2, "0")}@example.com`,
      name: `Person ${String(i).padStart(2, "0")}`,
      role: i % 3 === 0 ? "admin" : i % 3 === 1 ? "member" : "",
      passwordHash,
    });
  }
}

/** Options of a walk. */
export interface WalkOptions {
  locale: string;
  viewport: { width: number; height: number };
  /** The colour scheme the browser asks for; light by default. */
  colorScheme?: "light" | "dark";
  /** Called on each state, with its name. */
  visit: (state: string, page: Page) => Promise<void>;
}

async function open(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await hydrated(page);
  return page;
}

// The walk's links are made up, and the pages check a link as they open
// (`POST /api/auth/links/check`): this page is told its link is in the
// `state` given, so that the form and its errors can be walked; spending
// the link then finds it dead, as before.
async function openLink(
  context: BrowserContext,
  url: string,
  state: "ready" | "account_exists",
): Promise<Page> {
  const page = await context.newPage();
  await page.route("**/api/auth/links/check", (route) =>
    route.fulfill({
      status: 200,
      contentType: "application/json",
      headers: { "cache-control": "no-store" },
      body: JSON.stringify({ status: state }),
    }));
  await page.goto(url);
  await hydrated(page);
  return page;
}

// The walk's single sign-on is made up too: the page is told the server
// has two providers (Acme, which its domain must use, and Okta) and that
// the account has an identity at Acme, so that the login screen's and the
// account panel's single sign-on states can be walked without a provider
// (tests/e2e/sso_test.ts runs a real one). `unlink` answers the unlink.
const SSO_PROVIDERS = {
  providers: [
    { id: "acme", name: "Acme SSO", domains: ["acme.example"], enforce: true },
    { id: "okta", name: "Okta", domains: [], enforce: false },
  ],
};
const SSO_IDENTITIES = {
  identities: [{
    id: "0190f0a0-0000-7000-8000-0000000000e1",
    provider: "acme",
    name: "Ada Lovelace",
    email: "ada@acme.example",
    linked_at: "2026-03-01T10:00:00.000Z",
  }],
};
type SsoAnswer = { status: number; body?: unknown };

async function withSso(
  page: Page,
  unlink: () => SsoAnswer = () => ({ status: 204 }),
): Promise<void> {
  const json = (answer: SsoAnswer) => ({
    status: answer.status,
    headers: { "cache-control": "no-store" },
    ...(answer.body === undefined ? {} : {
      contentType: "application/json",
      body: JSON.stringify(answer.body),
    }),
  });
  await page.route(
    "**/api/auth/sso",
    (route) => route.fulfill(json({ status: 200, body: SSO_PROVIDERS })),
  );
  await page.route(
    "**/api/auth/sso/identities",
    (route) => route.fulfill(json({ status: 200, body: SSO_IDENTITIES })),
  );
  await page.route(
    "**/api/auth/sso/identities/*",
    (route) => route.fulfill(json(unlink())),
  );
}

/** Waits until the text `text` is on `page`. */
const shown = (page: Page, selector: string) =>
  page.locator(selector).first().waitFor();

/** Walks every page and state in one locale and viewport. */
export async function walk(
  browser: Browser,
  demo: Demo,
  options: WalkOptions,
): Promise<void> {
  const { visit } = options;
  const settings = {
    locale: options.locale,
    viewport: options.viewport,
    colorScheme: options.colorScheme ?? "light",
    bypassCSP: true,
  };
  const origin = demo.origin;

  // Signed out.
  const visitor = await browser.newContext(settings);
  visitor.setDefaultTimeout(10_000);
  try {
    const login = await open(visitor, `${origin}/`);
    await visit("login", login);
    await screen(login, "login").locator('button[type="submit"]').click();
    await shown(login, '[aria-invalid="true"]');
    await visit("login with empty fields", login);
    await signIn(login, ADMIN.email, "not the password at all");
    await shown(login, '[data-gh-screen="login"] [role="alert"] p');
    await visit("login refused", login);

    const sso = await visitor.newPage();
    await withSso(sso);
    await sso.goto(`${origin}/?sso_error=sso_account_unknown`);
    await hydrated(sso);
    await shown(sso, ".gh-sso-sign-in button");
    await shown(sso, '[data-gh-screen="login"] [role="alert"] p');
    await visit("login back from a failed single sign-on", sso);
    await sso.locator('input[name="email"]').fill("ada@acme.example");
    await shown(sso, ".gh-sso-sign-in .gh-hint");
    await visit("login for a domain that must use single sign-on", sso);

    const forgot = await open(visitor, `${origin}/forgot`);
    await visit("forgot", forgot);
    await forgot.locator('input[name="email"]').fill("not an address");
    await forgot.locator('button[type="submit"]').click();
    await shown(forgot, '[aria-invalid="true"]');
    await visit("forgot with an invalid address", forgot);
    await forgot.locator('input[name="email"]').fill("nobody@example.com");
    await forgot.locator('button[type="submit"]').click();
    await shown(forgot, '[data-gh-state="sent"]');
    await visit("forgot sent", forgot);

    const deadOnOpen = await open(
      visitor,
      `${origin}/reset#token=${"A".repeat(43)}`,
    );
    await shown(deadOnOpen, '[data-gh-state="invalid-link"]');
    await visit("reset link dead when opened", deadOnOpen);
    const reset = await openLink(
      visitor,
      `${origin}/reset#token=${"A".repeat(43)}`,
      "ready",
    );
    await shown(reset, '[data-gh-screen="reset-password"]');
    await reset.locator('input[name="password"]').fill("short");
    await reset.locator('input[name="confirm"]').fill("different");
    await reset.locator('button[type="submit"]').click();
    await shown(reset, '[aria-invalid="true"]');
    await visit("reset with errors", reset);
    await reset.locator('input[name="password"]').fill(PASSWORD);
    await reset.locator('input[name="confirm"]').fill(PASSWORD);
    await reset.locator('button[type="submit"]').click();
    await shown(reset, '[data-gh-state="invalid-link"]');
    await visit("reset with a dead link", reset);

    const taken = await openLink(
      visitor,
      `${origin}/invite#token=${"B".repeat(43)}`,
      "account_exists",
    );
    await shown(taken, '[data-gh-state="account-exists"]');
    await visit("invitation for an address that has an account", taken);
    const invite = await openLink(
      visitor,
      `${origin}/invite#token=${"B".repeat(43)}`,
      "ready",
    );
    await shown(invite, '[data-gh-screen="set-password"]');
    await visit("invitation", invite);
    await invite.locator('button[type="submit"]').click();
    await shown(invite, '[aria-invalid="true"]');
    await visit("invitation with errors", invite);
    const bare = await open(visitor, `${origin}/invite`);
    await shown(bare, '[data-gh-state="invalid-link"]');
    await visit("invitation without a token", bare);

    const missing = await open(visitor, `${origin}/nowhere`);
    await visit("404", missing);
  } finally {
    await visitor.close();
  }

  // An administrator of 60 accounts.
  const admins = await browser.newContext(settings);
  admins.setDefaultTimeout(10_000);
  try {
    const page = await open(admins, `${origin}/`);
    await signIn(page, ADMIN.email, PASSWORD);
    await screen(page, "account").waitFor();
    await visit("account", page);

    let unlinkAnswer: SsoAnswer = {
      status: 409,
      body: {
        error: "This is the account's last way to sign in",
        code: "last_sign_in_method",
      },
    };
    const linked = await admins.newPage();
    await withSso(linked, () => unlinkAnswer);
    await linked.goto(`${origin}/`);
    await hydrated(linked);
    await shown(linked, ".gh-identity-list .gh-list-item");
    await visit("account with a linked identity", linked);
    await linked.locator(".gh-identity-list .gh-button-danger").click();
    const unlink = 'dialog[data-gh-dialog="unlink-identity"][open]';
    await shown(linked, unlink);
    await visit("account: the unlink dialog", linked);
    await linked.locator(`${unlink} .gh-button-danger-solid`).click();
    await shown(linked, `${unlink} [role="alert"] p`);
    await visit("account: the last way to sign in kept", linked);
    await linked.keyboard.press("Escape");
    unlinkAnswer = {
      status: 403,
      body: {
        error: "Confirm it is you",
        code: "reauthentication_required",
      },
    };
    await linked.locator(".gh-identity-list .gh-button-danger").click();
    await linked.locator(`${unlink} .gh-button-danger-solid`).click();
    await shown(
      linked,
      'dialog[data-gh-dialog="reauthenticate"][open] .gh-sso-sign-in button',
    );
    await visit("account: confirm it is you at the provider", linked);
    await linked.close();

    await page.goto(`${origin}/users`);
    await hydrated(page);
    await shown(page, ".gh-row");
    await visit("users", page);
    const second = page.locator(".gh-row").nth(1);
    await second.locator('button[aria-haspopup="menu"]').click();
    await shown(page, '[role="menu"]');
    await visit("users with a row's menu open", page);
    await page.locator('[role="menuitem"][data-gh-action="disable"]').click();
    await shown(page, 'dialog[data-gh-dialog="disable"][open]');
    await visit("users: the disable dialog", page);
    await page.keyboard.press("Escape");
    await second.locator('button[aria-haspopup="menu"]').click();
    await page.locator('[role="menuitem"][data-gh-action="role"]').click();
    await shown(page, 'dialog[data-gh-dialog="role"][open]');
    await visit("users: the role dialog", page);
    await page.keyboard.press("Escape");
    await page.locator(".gh-pager button").last().click();
    await shown(page, '.gh-row:has-text("Person 19")');
    await visit("users, page 2", page);
    await page.locator('input[name="q"]').fill("nobody at all");
    await page.locator('input[name="q"]').press("Enter");
    await shown(page, "[data-gh-summary]:not(:empty)");
    await page.locator(".gh-row").first().waitFor({ state: "detached" });
    await visit("users: nothing found", page);

    await page.goto(`${origin}/users/new`);
    await hydrated(page);
    await page.locator('input[name="email"]').fill("not an address");
    await page.locator('button[type="submit"]').click();
    await shown(page, '[aria-invalid="true"]');
    await visit("new user with errors", page);
    await page.locator('input[name="name"]').fill("Nora New");
    await page.locator('input[name="email"]').fill(
      `nora.${options.locale}.${options.viewport.width}@example.com`,
    );
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('button[type="submit"]').click();
    await shown(page, '[data-gh-state="created"]');
    await visit("new user created", page);

    await page.goto(`${origin}/users/invite`);
    await hydrated(page);
    await visit("invite", page);
    await page.locator('button[type="submit"]').click();
    await shown(page, '[aria-invalid="true"]');
    await visit("invite with errors", page);
    await page.locator('input[name="name"]').fill("Ivy Ibarra");
    await page.locator('input[name="email"]').fill(
      `ivy.${options.locale}.${options.viewport.width}@example.com`,
    );
    await page.locator('button[type="submit"]').click();
    await shown(page, 'input[name="activation_link"]');
    await visit("invite: the link to pass on", page);

    await page.goto(`${origin}/users`);
    await hydrated(page);
    await shown(page, ".gh-invitation");
    await visit("users with a pending invitation", page);
    await page.locator(".gh-invitation button").first().click();
    await shown(page, 'dialog[data-gh-dialog="revoke"][open]');
    await visit("users: the revoke dialog", page);
    await page.keyboard.press("Escape");
  } finally {
    await admins.close();
  }

  // A member.
  const members = await browser.newContext(settings);
  members.setDefaultTimeout(10_000);
  try {
    const page = await open(members, `${origin}/users`);
    await signIn(page, MEMBER.email, PASSWORD);
    await shown(page, '[data-gh-screen="users"][data-gh-state="not-allowed"]');
    await visit("users for a member", page);
  } finally {
    await members.close();
  }
}
