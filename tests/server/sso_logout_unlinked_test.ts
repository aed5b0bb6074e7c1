// A back-channel logout after the identity was unlinked (DESIGN.md §13):
// "every session that sign-in with that provider's `sid` … created ends".
// Unlinking an identity ends none of the sessions it made, so the
// provider's logout token — which, from npm:oidc-provider as from most
// providers, names both `sub` and `sid` — must still end them. Before, a
// token whose `sub` was no longer linked ended nothing: the session made
// through the provider outlived the provider's own logout.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { ssoWorld, TestBrowser } from "../fixtures/sso.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a logout token naming sub and sid ends the session its sign-in made, after the identity was unlinked (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
        },
      });
      try {
        // Ada has a password: her identity is not her last way in.
        await addUser(store, { email: "ada@acme.example" });
        const browser = new TestBrowser();
        // The provider's `sid`, read from its ID token on the way.
        let sid: unknown = null;
        const { answer } = await world.signIn(browser, "ada", {
          rewrite: (payload, token) => {
            sid = payload.sid;
            return Promise.resolve(token);
          },
        });
        assertEquals(answer.status, 303);
        assert(await world.identity(browser) !== null);
        assert(typeof sid === "string" && sid !== "", "the ID token has a sid");

        // Unlinked from the session it made (fresh: the sign-in proved it).
        const list = await world.call(
          browser,
          "GET",
          "/api/auth/sso/identities",
        );
        const [identity] = (await list.json()).identities;
        const unlink = await world.call(
          browser,
          "DELETE",
          `/api/auth/sso/identities/${identity.id}`,
        );
        await unlink.body?.cancel();
        assertEquals(unlink.status, 204);
        assert(await world.identity(browser) !== null);

        const res = await world.logout({ sub: "ada", sid });
        assertEquals(res.status, 200);
        assertEquals(
          await world.identity(browser),
          null,
          "the session the provider's sign-in made ended",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

// The same identity unlinked from Ada and linked since to Bob (the
// provider now gives Bob's address for it): the token names the `sid` of
// the sign-in that made Ada's session, which recorded the identity. Before,
// the identity's current owner, Bob, was the only account whose sessions
// the token could end: Ada's session outlived the provider's logout.
for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a logout token naming sub and sid ends the session its sign-in made, after the identity was linked to another account (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const accounts: Record<string, Record<string, unknown>> = {
        ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
      };
      const world = await ssoWorld(store, { accounts });
      try {
        await addUser(store, { email: "ada@acme.example" });
        await addUser(store, { email: "bob@acme.example" });
        const adaBrowser = new TestBrowser();
        let sid: unknown = null;
        const { answer } = await world.signIn(adaBrowser, "ada", {
          rewrite: (payload, token) => {
            sid = payload.sid;
            return Promise.resolve(token);
          },
        });
        assertEquals(answer.status, 303);
        assert(typeof sid === "string" && sid !== "", "the ID token has a sid");
        const list = await world.call(
          adaBrowser,
          "GET",
          "/api/auth/sso/identities",
        );
        const [identity] = (await list.json()).identities;
        const unlink = await world.call(
          adaBrowser,
          "DELETE",
          `/api/auth/sso/identities/${identity.id}`,
        );
        await unlink.body?.cancel();
        assertEquals(unlink.status, 204);

        // The provider now gives Bob's address: the identity links to Bob.
        accounts.ada!.email = "bob@acme.example";
        const bobBrowser = new TestBrowser();
        const bob = await world.signIn(bobBrowser, "ada");
        assertEquals(bob.answer.status, 303);
        assertEquals(
          (await world.identity(bobBrowser))?.email,
          "bob@acme.example",
        );
        assertEquals(
          (await world.identity(adaBrowser))?.email,
          "ada@acme.example",
        );

        const res = await world.logout({ sub: "ada", sid });
        assertEquals(res.status, 200);
        assertEquals(
          await world.identity(adaBrowser),
          null,
          "the session Ada's sign-in made ended",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
