// A provider's `sid` past what a store can index (DESIGN.md §13: a bad
// input is a clear answer, never a 5xx): an ID token's is as good as none,
// so the person signs in (and a logout by `sub` still ends the session); a
// logout token's is refused 400 `logout_token_invalid`. Before, on Deno KV
// (whose keys hold 2048 bytes), an ID token whose `sid` was 4000
// characters, or 1024 non-ASCII ones, answered the callback 500, and a
// logout token naming such a `sid` answered 500.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an ID token's sid too long for a logout token signs in as if it had none (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
        },
      });
      try {
        await addUser(store, { email: "ada@acme.example" });
        const browsers: TestBrowser[] = [];
        for (
          const sid of ["s".repeat(1025), "s".repeat(4000), "€".repeat(1024)]
        ) {
          const browser = new TestBrowser();
          browsers.push(browser);
          const { answer } = await world.signIn(browser, "ada", {
            returnTo: "/home",
            rewrite: (payload) => world.idp!.sign({ ...payload, sid }),
          });
          assertEquals(answer.status, 303, `sid of ${sid.length}`);
          assertEquals(landing(answer), "/home", `sid of ${sid.length}`);
          assert(
            await world.identity(browser) !== null,
            `sid of ${sid.length}`,
          );
        }
        const logout = world.logout;
        for (const sid of ["€".repeat(1000), "s".repeat(1025)]) {
          const refused = await logout({ sub: "ada", sid });
          assertEquals(refused.status, 400, `sid of ${sid.length}`);
          assertEquals(refused.body?.code, "logout_token_invalid");
        }
        assertEquals((await logout({ sub: "ada" })).status, 200);
        for (const browser of browsers) {
          assertEquals(await world.identity(browser), null);
        }
        assertEquals(
          world.logger.lines.filter((l) => l.level === "error").length,
          0,
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
