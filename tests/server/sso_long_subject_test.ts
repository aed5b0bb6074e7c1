// An ID token's `sub` longer than any logout token may name (DESIGN.md §13:
// a bad answer of the provider is the documented redirect with
// `sso_error`, never a 5xx): a logout token's `sub` is read up to 1024
// characters, so an identity is kept under one no longer; a longer one is
// `sso_token_invalid`, and nothing is linked or made. Before, a `sub` of
// 70 000 characters answered the callback 500 on Deno KV (past what a
// value holds), and one of 1025 made an identity no logout could name.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an ID token whose sub is past 1024 characters is sso_token_invalid (${backend.name})`,
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
        for (const length of [70_000, 1025]) {
          const browser = new TestBrowser();
          const { answer } = await world.signIn(browser, "ada", {
            rewrite: (payload) =>
              world.idp!.sign({ ...payload, sub: "u".repeat(length) }),
          });
          assertEquals(
            landing(answer),
            "/?sso_error=sso_token_invalid",
            `sub of ${length}`,
          );
          assertEquals(await world.identity(browser), null);
        }
        assertEquals(await store.hasUsers(), false, "no account was made");
        // At the limit, it signs in.
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "ada", {
          returnTo: "/home",
          rewrite: (payload) =>
            world.idp!.sign({ ...payload, sub: "u".repeat(1024) }),
        });
        assertEquals(landing(answer), "/home");
        assert(await world.identity(browser) !== null);
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
