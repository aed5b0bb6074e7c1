// An ID token's `sub` or `sid` holding an unpaired surrogate (`\ud800` in
// the token's JSON) is not text any store keeps and finds again alike
// (DESIGN.md §13: a bad answer of the provider is the documented redirect
// with `sso_error`, never a 5xx). Before, the callback answered 500 on
// Postgres (jsonb refuses it); SQLite kept it as bytes no lookup matches,
// so the identity made at the first sign-in was never found again (the
// next sign-in answered 500) and a logout token naming the `sid` ended
// nothing; Deno KV alone kept and found it. Now a `sub` like that is
// `sso_token_invalid` and a `sid` like that is as good as none (a logout
// token naming one is 400 `logout_token_invalid`), on every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an ID token's sub with an unpaired surrogate is sso_token_invalid, and a sid with one is as good as none (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
        },
        provider: { createAccounts: true },
      });
      try {
        // Twice: the second sign-in finds what the first one kept.
        for (const sub of ["ada\ud800", "\udc00ada", "ada\ud800"]) {
          const browser = new TestBrowser();
          const { answer } = await world.signIn(browser, "ada", {
            rewrite: (payload) => world.idp!.sign({ ...payload, sub }),
          });
          assertEquals(
            landing(answer),
            "/?sso_error=sso_token_invalid",
            JSON.stringify(sub),
          );
          assertEquals(await world.identity(browser), null);
        }
        assertEquals(await store.hasUsers(), false, "no account was made");

        await addUser(store, { email: "bea@acme.example" });
        const browsers: TestBrowser[] = [];
        for (let i = 0; i < 2; i++) {
          const browser = new TestBrowser();
          browsers.push(browser);
          const { answer } = await world.signIn(browser, "ada", {
            returnTo: "/home",
            rewrite: (payload) =>
              world.idp!.sign({ ...payload, sid: "s\ud800" }),
          });
          assertEquals(landing(answer), "/home", `sign-in ${i}`);
          assert(await world.identity(browser) !== null, `sign-in ${i}`);
        }
        const logout = world.logout;
        const refused = await logout({ sub: "ada", sid: "s\ud800" });
        assertEquals(refused.status, 400);
        assertEquals(refused.body?.code, "logout_token_invalid");
        for (const browser of browsers) {
          assert(await world.identity(browser) !== null, "still signed in");
        }
        assertEquals((await logout({ sub: "ada" })).status, 200);
        for (const browser of browsers) {
          assertEquals(await world.identity(browser), null);
        }
        assertEquals(
          world.logger.lines.filter((l) => l.level === "error").length,
          0,
          JSON.stringify(world.logger.lines),
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
