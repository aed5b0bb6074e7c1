// The name of an account single sign-on makes when the provider gives none
// (DESIGN.md §13: "name from `name`"; the address's local part otherwise)
// follows the name rules every other name follows (§5: valid UTF-16, no
// lone surrogates, at most `maxNameLength` characters). Before, the local
// part was cut at `maxNameLength` UTF-16 units: an address whose local
// part had an emoji across that point made an account whose name ended in
// half of it, a lone surrogate: kept as such on Deno KV and SQLite, and a
// 500 at the callback on Postgres.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

const LOCAL = `${"a".repeat(99)}😀b`;

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an account made for an address whose local part is long is named in whole characters (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          // No name: the account is named after the address.
          zed: { email: `${LOCAL}@acme.example`, email_verified: true },
        },
        provider: { createAccounts: true },
      });
      try {
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "zed", {
          returnTo: "/home",
        });
        assertEquals(landing(answer), "/home");
        const identity = await world.identity(browser);
        assert(identity !== null);
        const name = identity.name as string;
        assert(name.isWellFormed(), `the name is well-formed: ${name.length}`);
        assertEquals(name, `${"a".repeat(99)}😀`);
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
