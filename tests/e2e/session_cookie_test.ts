// The session cookie as Chromium stores it after signing in on the demo at
// http://localhost: the `__Host-` name, HttpOnly (page script cannot read
// it), Secure (kept on localhost, a secure context), SameSite=Lax, Path=/;
// found by name beside the trusted-device cookie that sign-in also sets.

import assert from "node:assert/strict";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";

e2eTest(
  "signing in stores a __Host-session cookie that is HttpOnly, Secure, SameSite=Lax with Path=/",
  async ({ browser, demo }) => {
    await addUser(demo.store, { email: "ada@example.com", name: "Ada" });
    const context = await newContext(browser);
    const page = await openPage(context, `${demo.origin}/`);
    // The login screen may already hold a passkey challenge (conditional
    // UI asks for one as it opens); it is HttpOnly too, and no session.
    const before = await context.cookies();
    assert.deepEqual(
      before.filter((c) => c.name !== "__Host-gatehouse-webauthn"),
      [],
      "no session cookie before sign-in",
    );
    assert.ok(before.every((c) => c.httpOnly && c.secure));

    await signIn(page, "ada@example.com", PASSWORD);
    await screen(page, "account").waitFor();

    // Two cookies now: the session's, and the trusted-device cookie a
    // completed sign-in leaves for the address (DESIGN.md §15), which
    // outlives the session. Both out of page script's reach.
    const cookies = (await context.cookies()).filter((c) =>
      c.name !== "__Host-gatehouse-webauthn"
    );
    assert.deepEqual(
      cookies.map((c) => c.name).sort(),
      ["__Host-gatehouse-device", "__Host-session"],
      JSON.stringify(cookies),
    );
    const device = cookies.find((c) => c.name === "__Host-gatehouse-device")!;
    assert.equal(device.domain, "localhost");
    assert.equal(device.path, "/");
    assert.ok(device.httpOnly && device.secure && device.sameSite === "Lax");
    const cookie = cookies.find((c) => c.name === "__Host-session")!;
    // The account's id, a dot, then 32 random bytes.
    assert.match(
      cookie.value,
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.[A-Za-z0-9_-]{43}$/,
    );
    assert.equal(cookie.domain, "localhost", "host-only, no Domain");
    assert.equal(cookie.path, "/");
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.secure, true);
    assert.equal(cookie.sameSite, "Lax");
    assert.ok(
      cookie.expires > Date.now() / 1000,
      "a persistent cookie (Max-Age)",
    );

    // Page script sees no trace of it, yet the browser sends it.
    assert.equal(await page.evaluate(() => document.cookie), "");
    const status = await page.evaluate(async () =>
      (await fetch("/api/auth/session")).status
    );
    assert.equal(status, 200);
    await context.close();
  },
);
