// `deno task screenshots`: pictures of every screen of the demo, in English
// and Spanish, for the README. Starts the demo on a temporary KV store,
// drives Debian's Chromium (or CHROMIUM_PATH) through each screen and writes
// docs/screenshots/<screen>-<locale>.png (1024 px wide; the phone shots 390).
// `deno task screenshots dev-mail` (any shots named) writes only those, still
// walking every screen (later shots need what earlier ones did).
//
// The demo keeps its mail as on a loopback address (/dev/mail, the
// `dev-mail` shot: the reset mail just sent, in the shot's language), but
// mails no invitation, so the invite screen shows its link.

import {
  firstRunInvitation,
  type Handler,
  type Logger,
} from "@gatehouse/server";
import {
  developmentMailer,
  type MailKind,
  NOTICE_KINDS,
} from "@gatehouse/server/mail";
import { openStoreFromEnv } from "@gatehouse/server/open";
import { type Browser, type BrowserContext, chromium } from "playwright-core";
import { createDemoApp } from "../demo/app.ts";
import { buildIslands } from "../demo/bundle.ts";
import { type DemoMail, memoryMailbox } from "../demo/mail.ts";

const OUT = new URL("../docs/screenshots/", import.meta.url);
const CHROMIUM = Deno.env.get("CHROMIUM_PATH")?.trim() || "/usr/bin/chromium";
const VIEWPORT = { width: 1024, height: 640 };
const PHONE = { width: 390, height: 844 };
const ADMIN = {
  email: "ada@example.com",
  name: "Ada Lovelace",
  password: "analytical engine 1843",
};
const LOCALES = [["en", "en-US"], ["es", "es-ES"]] as const;

/** The screens, in the README's order. */
export const SCREENS = [
  "login",
  "account",
  "users",
  "users-confirm",
  "users-phone",
  "new-user",
  "invite",
  "set-password",
  "request-reset",
  "reset-password",
  "dev-mail",
] as const;

// The shots to write: those named on the command line, else every one.
const ONLY: ReadonlySet<string> = new Set(Deno.args);
const wanted = (shot: string) => ONLY.size === 0 || ONLY.has(shot);

if (import.meta.main) await main();

async function main(): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_screenshots_" });
  const resetLinks: string[] = [];
  const logger: Logger = {
    info: (message, fields) => {
      // The demo's development mailer prints the reset links.
      if (
        message.startsWith("development mailer") &&
        fields?.kind === "password_reset"
      ) {
        resetLinks.push(String(fields?.link));
      }
    },
    warn: () => {},
    error: (message, fields) => console.error(message, fields),
  };
  const opened = await openStoreFromEnv({
    GATEHOUSE_KV_PATH: `${dir}/demo.kv`,
  });
  let app: Handler | undefined;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => app!(req, undefined, info),
  );
  const origin = `http://localhost:${server.addr.port}`;
  let browser: Browser | undefined;
  try {
    app = (await createDemoApp({
      store: opened.store,
      islands: await buildIslands({ output: `${dir}/islands.js` }),
      publicUrl: origin,
      logger,
      mail: keptMail(logger, origin),
    })).handler;
    await seed(opened.store, origin);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    await Deno.mkdir(OUT, { recursive: true });
    for (const [name, locale] of LOCALES) {
      await shoot(browser, origin, name, locale, resetLinks);
    }
    const written = SCREENS.filter(wanted).length * LOCALES.length;
    console.log(`Wrote ${written} screenshots to ${OUT.pathname}`);
  } finally {
    await browser?.close();
    await server.shutdown();
    await opened.close();
    await Deno.remove(dir, { recursive: true });
  }
}

// The demo's development mailer, its mail also kept for /dev/mail (as on a
// loopback address), invitations left on the screen.
function keptMail(logger: Logger, origin: string): DemoMail {
  const kinds: MailKind[] = ["password_reset", ...NOTICE_KINDS];
  const printing = developmentMailer({ logger, kinds });
  const mailbox = memoryMailbox();
  return {
    mailer: {
      kinds,
      async send(message) {
        mailbox.keep(message);
        await printing.send(message);
      },
    },
    mailbox,
    summary: `Mail: kept at ${origin}/dev/mail`,
  };
}

// The first administrator (through the first-run link), a few accounts for
// the list and a pending invitation, all through the HTTP API.
async function seed(
  store: Parameters<typeof firstRunInvitation>[0]["store"],
  origin: string,
): Promise<void> {
  const link = await firstRunInvitation({
    store,
    email: ADMIN.email,
    name: ADMIN.name,
    role: "admin",
    publicUrl: origin,
  });
  const token = new URL(link!).hash.replace("#token=", "");
  const accepted = await api(origin, "POST", "/api/auth/invite/accept", {
    token,
    password: ADMIN.password,
  });
  const cookie = accepted.headers.get("set-cookie")!.split(";")[0]!;
  const people = [
    { email: "grace@example.com", name: "Grace Hopper", role: "admin" },
    { email: "alan@example.com", name: "Alan Turing", role: "member" },
    { email: "edsger@example.com", name: "Edsger Dijkstra", role: "" },
    { email: "barbara@example.com", name: "Barbara Liskov", role: "member" },
    { email: "donald@example.com", name: "Donald Knuth", role: "member" },
    { email: "frances@example.com", name: "Frances Allen", role: "admin" },
    { email: "john@example.com", name: "John Backus", role: "member" },
    { email: "margaret@example.com", name: "Margaret Hamilton", role: "" },
    { email: "radia@example.com", name: "Radia Perlman", role: "member" },
    { email: "tim@example.com", name: "Tim Berners-Lee", role: "member" },
    { email: "sophie@example.com", name: "Sophie Wilson", role: "member" },
    { email: "ken@example.com", name: "Ken Thompson", role: "" },
  ];
  for (const person of people) {
    const res = await api(origin, "POST", "/api/users", {
      ...person,
      password: "a password nobody uses",
    }, cookie);
    if (person.email === "edsger@example.com") {
      const { id } = await res.json();
      await api(
        origin,
        "PATCH",
        `/api/users/${id}`,
        { disabled: true },
        cookie,
      );
    } else {
      await res.body?.cancel();
    }
  }
  // One pending invitation, for the panel under the table.
  const invited = await api(origin, "POST", "/api/users/invite", {
    email: "hedy@example.com",
    name: "Hedy Lamarr",
    role: "member",
  }, cookie);
  await invited.body?.cancel();
}

async function api(
  origin: string,
  method: string,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<Response> {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: {
      "content-type": "application/json",
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  if (!res.ok) {
    throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  }
  return res;
}

async function shoot(
  browser: Browser,
  origin: string,
  name: string,
  locale: string,
  resetLinks: string[],
): Promise<void> {
  const open = (context: BrowserContext) => context.newPage();
  const options = { locale, viewport: VIEWPORT, deviceScaleFactor: 1 };
  const admin = await browser.newContext(options);
  const visitor = await browser.newContext(options);
  try {
    const page = await open(admin);
    const snap = async (
      shot: (typeof SCREENS)[number],
      target = page,
      screen = shot,
    ) => {
      // Waited for even when not written: the next step needs it there.
      await target.locator(`[data-gh-screen="${screen}"]`).waitFor();
      if (!wanted(shot)) return;
      await target.evaluate(() => document.fonts.ready);
      // A heading focused after an action draws its ring: not in a picture.
      await target.evaluate(() => {
        const active = document.activeElement;
        if (active instanceof HTMLHeadingElement) active.blur();
      });
      await target.screenshot({
        path: new URL(`${shot}-${name}.png`, OUT).pathname,
        fullPage: true,
        animations: "disabled",
        caret: "hide",
      });
    };
    const ready = async (target = page) =>
      await target.locator("html[data-hydrated]").waitFor();

    await page.goto(`${origin}/`);
    await ready();
    await snap("login");
    await page.fill('input[name="email"]', ADMIN.email);
    await page.fill('input[name="password"]', ADMIN.password);
    await page.press('input[name="password"]', "Enter");
    // The panel's sections read the sessions and the activity after it
    // shows: the picture waits for both lists, with nothing still loading.
    await page.locator(".gh-session-list").waitFor();
    await page.locator(".gh-activity-list").waitFor();
    await page.waitForFunction(() =>
      document.querySelector(".gh-loading") === null
    );
    await snap("account");

    await page.goto(`${origin}/users`);
    await ready();
    await page.locator(".gh-row").nth(3).waitFor();
    await page.locator(".gh-row").nth(2).locator("button[aria-haspopup]")
      .click();
    await page.locator('[role="menu"]').waitFor();
    await snap("users");
    await page.locator('[role="menuitem"][data-gh-action="disable"]').click();
    await page.locator("dialog[open]").waitFor();
    await snap("users-confirm", page, "users");
    await page.keyboard.press("Escape");
    await page.setViewportSize(PHONE);
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await snap("users-phone", page, "users");
    await page.setViewportSize(VIEWPORT);

    await page.goto(`${origin}/users/new`);
    await ready();
    await snap("new-user");

    await page.goto(`${origin}/users/invite`);
    await ready();
    await page.fill('input[name="email"]', `katherine.${name}@example.com`);
    await page.fill('input[name="name"]', "Katherine Johnson");
    await page.locator('select[name="role"]').selectOption("member");
    await page.press('input[name="name"]', "Enter");
    const linkField = page.locator('input[name="activation_link"]');
    await linkField.waitFor();
    const invitation = await linkField.inputValue();
    await page.locator("body").click({ position: { x: 1, y: 1 } });
    await snap("invite");

    const guest = await open(visitor);
    await guest.goto(invitation);
    await ready(guest);
    await snap("set-password", guest);

    await guest.goto(`${origin}/forgot`);
    await ready(guest);
    await snap("request-reset", guest);
    await guest.fill('input[name="email"]', ADMIN.email);
    const before = resetLinks.length;
    await guest.press('input[name="email"]', "Enter");
    await guest.locator('[data-gh-state="sent"]').waitFor();
    while (resetLinks.length === before) await delay(20);
    await guest.goto(resetLinks.at(-1)!);
    await ready(guest);
    await snap("reset-password", guest);

    // The reset mail just sent, newest first at /dev/mail: the page's top,
    // the mail's HTML part in its frame.
    if (wanted("dev-mail")) {
      await guest.setViewportSize({ width: VIEWPORT.width, height: 900 });
      await guest.goto(`${origin}/dev/mail`);
      await guest.frameLocator("iframe").first().locator("h1").waitFor();
      await guest.screenshot({
        path: new URL(`dev-mail-${name}.png`, OUT).pathname,
        animations: "disabled",
        caret: "hide",
      });
    }
  } finally {
    await admin.close();
    await visitor.close();
  }
}

// A declaration, hoisted: main() runs before the module's end is reached.
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
