// An ID token's `sub` or `sid` holding NUL (`\u0000` in the token's JSON)
// is not text every store keeps: Postgres refuses it in text and jsonb
// alike (DESIGN.md §5: no NUL; §13: a bad answer of the provider is the
// documented redirect with `sso_error`, never a 5xx). Before, the callback
// answered 500 on Postgres for either, and a logout token naming such a
// `sid` answered 500 there too; Deno KV and SQLite kept them. Now such a
// `sub` is `sso_token_invalid` and such a `sid` is as good as none (a
// logout token naming one is 400 `logout_token_invalid`), on every store,
// as for an unpaired surrogate (sso_unpaired_surrogate_test.ts).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an ID token's sub with NUL is sso_token_invalid, and a sid with NUL is as good as none (${backend.name})`,
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
        for (const sub of ["ada\u0000", "\u0000"]) {
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
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "ada", {
          returnTo: "/home",
          rewrite: (payload) => world.idp!.sign({ ...payload, sid: "s\u0000" }),
        });
        assertEquals(landing(answer), "/home");
        assert(await world.identity(browser) !== null);
        const refused = await world.logout({ sub: "ada", sid: "s\u0000" });
        assertEquals(refused.status, 400);
        assertEquals(refused.body?.code, "logout_token_invalid");
        const bySub = await world.logout({ sub: "ada\u0000" });
        assertEquals(bySub.status, 400);
        assertEquals(bySub.body?.code, "logout_token_invalid");
        assert(await world.identity(browser) !== null, "still signed in");
        assertEquals((await world.logout({ sub: "ada" })).status, 200);
        assertEquals(await world.identity(browser), null);
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
