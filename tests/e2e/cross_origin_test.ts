// A page on a second origin (another port on 127.0.0.1) tries to write to
// the demo's API while its administrator is signed in: a form POST (the
// classic text/plain JSON forgery) and a fetch POST. crossOriginGuard
// refuses both with 403 `request_cross_origin` (Chromium sends
// Sec-Fetch-Site: cross-site), and nothing changes.

import assert from "node:assert/strict";
import { openPage, screen, signIn } from "../fixtures/browser.ts";
import { e2eTest, newContext } from "../fixtures/demo.ts";
import { addUser, PASSWORD, serve } from "../fixtures/kv.ts";

/** The attacker's page: a self-posting form and a script that fetches. */
function attackerPage(target: string): string {
  // text/plain sends `name=value`: the pair spells a JSON body.
  const name =
    '{"email":"mallory@example.com","name":"Mallory","role":"admin","password":"';
  const value = 'forged password!"}';
  return `<!DOCTYPE html><html><body>
<form id="forge" method="POST" enctype="text/plain" action="${target}/api/users">
<input type="hidden" name='${name}' value='${value}'>
<button type="submit">Win a prize</button>
</form>
</body></html>`;
}

e2eTest(
  "a form POST and a fetch POST from another origin are refused with 403 request_cross_origin and change nothing",
  async ({ browser, demo }) => {
    const admin = await addUser(demo.store, {
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
    });
    const attacker = serve(() =>
      new Response(attackerPage(demo.origin), {
        headers: { "content-type": "text/html; charset=utf-8" },
      })
    );
    try {
      const context = await newContext(browser);
      const page = await openPage(context, `${demo.origin}/`);
      await signIn(page, "ada@example.com", PASSWORD);
      await screen(page, "account").waitFor();

      const evil = await context.newPage();

      await evil.goto(`${attacker.url}/`);
      assert.ok(attacker.url.startsWith("http://127.0.0.1:"));

      // The form: a top-level navigation to the API.
      const [formAnswer] = await Promise.all([
        evil.waitForResponse(`${demo.origin}/api/users`),
        evil.click("#forge button"),
      ]);
      assert.equal(formAnswer.status(), 403);
      assert.equal((await formAnswer.json()).code, "request_cross_origin");

      // fetch: a "simple" request (no preflight), sent with credentials, in
      // no-cors mode so that it is sent and answered. The attacker's script
      // gets an opaque answer; the network shows what the server said.
      await evil.goto(`${attacker.url}/`);
      const [fetchAnswer, seenByScript] = await Promise.all([
        evil.waitForResponse(`${demo.origin}/api/users`),
        evil.evaluate(async (target) => {
          const res = await fetch(`${target}/api/users`, {
            method: "POST",
            mode: "no-cors",
            credentials: "include",
            headers: { "content-type": "text/plain" },
            body: JSON.stringify({
              email: "mallory@example.com",
              name: "Mallory",
              role: "admin",
              password: "forged password!",
            }),
          });
          return `${res.type} ${res.status}`;
        }, demo.origin),
      ]);
      // (Chromium keeps no body of an opaque answer: its code is the guard's,
      // whose refusals are counted below.)
      assert.equal(fetchAnswer.status(), 403);
      assert.equal(seenByScript, "opaque 0");

      // Both were refused by the guard, from Chromium's Sec-Fetch-Site, and
      // no write reached a handler.
      const refusals = demo.logger.lines.filter((line) =>
        line.message === "write refused"
      );
      assert.equal(refusals.length, 2, JSON.stringify(demo.logger.lines));
      for (const line of refusals) {
        assert.equal(line.fields?.reason, "fetch-site");
      }

      // Nothing changed: one account, the administrator's, still signed in.
      const { users } = await demo.store.listUsers({ limit: 10 });
      assert.deepEqual(users.map((user) => user.email), ["ada@example.com"]);
      assert.equal(users[0]!.id, admin.id);
      assert.equal(users[0]!.role, "admin");
      assert.equal(users[0]!.disabled, false);
      await page.reload();
      await screen(page, "account").waitFor();
      await context.close();
    } finally {
      await attacker.close();
    }
  },
);
