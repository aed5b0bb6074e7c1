// /dev/mail in a real browser (headless Chromium): the demo on a loopback
// address without SMTP keeps the reset mail it sent and shows it, its HTML
// part rendered in a sandboxed frame (an opaque origin) with the mail's
// own inline styles applied under the page's policy.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { browserTest, closeContexts } from "../fixtures/browser.ts";
import { createDemoApp } from "../../demo/app.ts";
import { demoMailFromEnv } from "../../demo/mail.ts";
import { ISLANDS } from "../fixtures/demo_in_process.ts";
import { addUser, hasher, memoryLogger, memoryStore } from "../fixtures/kv.ts";
import type { Handler } from "../../mod.ts";

browserTest(
  "/dev/mail renders each message's HTML part in a sandboxed frame",
  async (browser) => {
    const { store, close } = await memoryStore();
    const logger = memoryLogger();
    let handler: Handler | undefined;
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (req, info) =>
        handler?.(req, undefined, info) ?? new Response(null, { status: 503 }),
    );
    const origin = `http://localhost:${server.addr.port}`;
    try {
      handler = (await createDemoApp({
        store,
        islands: ISLANDS,
        publicUrl: origin,
        logger,
        hasher,
        mail: demoMailFromEnv({}, {
          listening: server.addr.hostname,
          logger,
          publicUrl: origin,
        }),
      })).handler;
      await addUser(store, { email: "ada@example.com", name: "Ada" });
      const res = await fetch(`${origin}/api/auth/password-reset`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ada@example.com" }),
      });
      assertEquals(res.status, 202);
      const deadline = Date.now() + 5_000;
      while (
        !logger.lines.some((l) => l.message.startsWith("development mailer"))
      ) {
        assert(Date.now() < deadline, "the reset mail went out");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) {
          violations.push(message.text());
        }
      });
      await page.goto(`${origin}/dev/mail`);
      assertEquals(
        await page.locator("h2").first().textContent(),
        "Reset your Gatehouse password",
      );
      const frame = page.frameLocator("iframe[sandbox='']").first();
      await frame.locator("h1").waitFor();
      assertEquals(
        await frame.locator("h1").textContent(),
        "Reset your password",
      );
      // The mail's inline styles apply: the button is blue.
      const button = frame.getByRole("link", { name: "Choose a new password" });
      assertEquals(
        await button.evaluate((a) =>
          getComputedStyle(a.parentElement!).backgroundColor
        ),
        "rgb(29, 78, 216)",
      );
      // An opaque origin: the frame reaches nothing of the page.
      assertEquals(await button.evaluate(() => self.origin), "null");
      assertEquals(violations, []);
    } finally {
      await closeContexts(browser);
      await server.shutdown();
      await close();
    }
  },
);
