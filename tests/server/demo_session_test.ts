// The identity a demo page embeds for the browser (issue 26, item 5) is the
// one the screens read: read from the Identity JSON by the client's own
// reader (`secondFactor`, `secondFactorRequired`, `hasPassword`), exactly
// what the browser's session query answers later, never the server's wire
// shape (`second_factor`), which the screens do not read.

import assert from "node:assert/strict";
import { restTransport, type SessionUser } from "@gatehouse/client";
import type { Handler } from "../../mod.ts";
import { INFO, ORIGIN, withSignedInDemo } from "../fixtures/demo_in_process.ts";

/** The `data-session` the page hands to the browser, as the browser parses it. */
async function embeddedSession(
  app: Handler,
  path: string,
  cookie: string,
): Promise<unknown> {
  const res = await app(
    new Request(`${ORIGIN}${path}`, { headers: { cookie } }),
    undefined,
    INFO,
  );
  const html = await res.text();
  const attribute = /<body[^>]* data-session="([^"]*)"/.exec(html)?.[1];
  assert.ok(attribute !== undefined, `${path} embeds a session`);
  return JSON.parse(
    attribute.replaceAll("&quot;", '"').replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">").replaceAll("&#39;", "'")
      .replaceAll("&amp;", "&"),
  );
}

/** What the browser's session query reads from the API (the 60-s refresh). */
function refreshed(app: Handler, cookie: string): Promise<SessionUser | null> {
  return restTransport({
    baseUrl: ORIGIN,
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set("cookie", cookie);
      return await app(
        new Request(input, { ...init, headers }),
        undefined,
        INFO,
      );
    },
  }).fetchSession();
}

for (
  const [label, options, required] of [
    ["", {}, false],
    [
      " (second factor required of admins)",
      { requireSecondFactor: ["admin"] },
      true,
    ],
  ] as const
) {
  Deno.test(`demo: every page embeds the identity as the screens read it${label}`, async () => {
    await withSignedInDemo(options, async (app, cookie) => {
      const fresh = await refreshed(app, cookie);
      assert.ok(fresh !== null);
      for (const path of ["/", "/users", "/users/audit", "/nope"]) {
        const session = await embeddedSession(app, path, cookie);
        // The same object the session refresh gives, field for field.
        assert.deepEqual(session, JSON.parse(JSON.stringify(fresh)), path);
        const user = session as SessionUser & Record<string, unknown>;
        assert.deepEqual(user.secondFactor, { totp: false, passkeys: 0 }, path);
        assert.equal(user.secondFactorRequired === true, required, path);
        assert.equal(user.hasPassword, true, path);
        assert.equal(user.second_factor, undefined, path);
        assert.equal(user.second_factor_required, undefined, path);
        assert.equal(user.has_password, undefined, path);
      }
    });
  });
}

Deno.test("demo: a page without a session embeds null", async () => {
  await withSignedInDemo({}, async (app) => {
    assert.equal(await embeddedSession(app, "/", ""), null);
    assert.equal(
      await embeddedSession(app, "/", "__Host-gatehouse=forged"),
      null,
    );
  });
});
