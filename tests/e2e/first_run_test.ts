// `deno task demo` on an empty store, in real Chromium: the printed
// first-run link sets the first administrator's password and signs them
// in; a reload keeps them signed in; signing out brings the login screen.
// The demo runs as the task runs it (same flags, from deno.json), on a
// temporary KV file and a free port.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  browserTest,
  closeContexts,
  hydrated,
  openPage,
  screen,
} from "../fixtures/browser.ts";
import { newContext } from "../fixtures/demo.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PASSWORD = "first administrator's password";

/** `deno task demo`'s command line, with this Deno. */
async function demoArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [deno, ...args] = String(config.tasks.demo).split(/\s+/);
  assert.equal(deno, "deno");
  return args;
}

/** Starts the demo as a process; resolves with its URL and first-run link. */
async function startDemoProcess(kvPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: await demoArgs(),
    cwd: ROOT,
    env: { PORT: "0", GATEHOUSE_KV_PATH: kvPath, DATABASE_URL: "" },
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream());
  let printed = "";
  let url: string | undefined;
  let link: string | undefined;
  const reader = lines.getReader();
  while (link === undefined) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error(`The demo stopped early; it printed:\n${printed}`);
    }
    printed += value;
    url ??= printed.match(/Gatehouse demo on (http:\/\/localhost:\d+)/)?.[1];
    link = printed.match(/^ +(http:\/\/\S+\/invite#token=\S+)$/m)?.[1];
  }
  // Keep draining stdout so the demo never blocks on a full pipe.
  const drained = (async () => {
    while (!(await reader.read()).done) { /* discard */ }
  })();
  return {
    url: url!,
    link,
    printed,
    async stop() {
      child.kill("SIGTERM");
      await drained;
      return await child.status;
    },
  };
}

browserTest(
  "the first-run link printed by `deno task demo` signs the first administrator in; reload keeps the session, sign-out ends it",
  async (browser) => {
    const dir = await Deno.makeTempDir({ prefix: "gatehouse_first_run_" });
    const demo = await startDemoProcess(`${dir}/demo.kv`);
    try {
      assert.match(demo.printed, /No accounts yet/);
      assert.match(demo.printed, /admin@example\.com/);
      assert.ok(demo.link.startsWith(`${demo.url}/invite#token=`), demo.link);

      const context = await newContext(browser);
      const page = await openPage(context, demo.link);
      const setPassword = screen(page, "set-password");
      await setPassword.locator('input[name="password"]').fill(PASSWORD);
      await setPassword.locator('input[name="confirm"]').fill(PASSWORD);
      await setPassword.locator('button[type="submit"]').click();

      // Signed in: the account page, as the first administrator.
      await page.waitForURL(`${demo.url}/`);
      const account = screen(page, "account");
      await account.waitFor();
      assert.equal(
        await account.locator(".gh-account-email").textContent(),
        "admin@example.com",
      );
      assert.equal(
        await account.locator(".gh-account-role").textContent(),
        "Administrator",
      );

      // A reload asks the server again: still signed in.
      await page.reload();
      await hydrated(page);
      await screen(page, "account").waitFor();
      assert.equal(await screen(page, "login").count(), 0);

      // Sign out: the login screen, and the server forgot the session.
      await account.getByRole("button", { name: "Sign out" }).click();
      await screen(page, "login").waitFor();
      const session = await page.evaluate(async () =>
        (await fetch("/api/auth/session")).status
      );
      assert.equal(session, 401);

      // The link was spent: opening it again says so at once, before any
      // password is typed.
      const again = await openPage(context, demo.link);
      await again.locator(
        '[data-gh-screen="set-password"][data-gh-state="invalid-link"]',
      ).waitFor();
      assert.equal(await again.locator('input[name="password"]').count(), 0);
      await context.close();
    } finally {
      await closeContexts(browser);
      const status = await demo.stop();
      await Deno.remove(dir, { recursive: true });
      assert.equal(status.code, 0, "the demo stops cleanly on SIGTERM");
    }
  },
);
