// The browser tests of a file share one Chromium (browserTest), so what one
// test leaves in the browser must not reach the next: cookies are kept per
// host, not per port, so a session cookie of one test's demo on localhost
// would be sent to the next test's demo on another port of localhost. Here
// the first test leaves a cookie and local storage behind in a context it
// does not close itself; the second, on the same origin, finds no context
// open and a fresh one holding neither.

import assert from "node:assert/strict";
import { browserTest } from "../fixtures/browser.ts";
import { newContext } from "../fixtures/demo.ts";

// One origin for both tests: a page that sets a cookie and reports the
// cookies it was sent.
const sent: string[] = [];
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  (req) => {
    // The page itself, not the favicon Chromium asks for after it.
    if (new URL(req.url).pathname === "/") {
      sent.push(req.headers.get("cookie") ?? "");
    }
    return new Response("<!doctype html><title>probe</title>", {
      headers: {
        "content-type": "text/html",
        "set-cookie": "left-behind=1; Path=/; HttpOnly",
        // No idle connection outlives a request.
        "connection": "close",
      },
    });
  },
);
const origin = `http://localhost:${server.addr.port}`;

browserTest(
  "a test leaves a cookie and local storage in a context it keeps open",
  async (browser) => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.evaluate(() => localStorage.setItem("left-behind", "1"));
    assert.deepEqual((await context.cookies()).map((c) => c.name), [
      "left-behind",
    ]);
    // Left open on purpose: the fixture closes it.
  },
);

browserTest(
  "the next test of the file finds no context open and a fresh one holding nothing of it",
  async (browser) => {
    try {
      assert.deepEqual(browser.contexts(), [], "no context left open");
      const context = await newContext(browser);
      assert.deepEqual(await context.cookies(), []);
      const page = await context.newPage();
      const before = sent.length;
      await page.goto(`${origin}/`);
      assert.deepEqual(sent.slice(before), [""], "no cookie sent");
      assert.equal(
        await page.evaluate(() => localStorage.getItem("left-behind")),
        null,
      );
    } finally {
      // The fixture closes them too; here first, so that the server's
      // shutdown waits on no connection of theirs, even one left open.
      await Promise.all(browser.contexts().map((context) => context.close()));
      await server.shutdown();
    }
  },
);
