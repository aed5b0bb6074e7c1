// A back-channel logout naming only a person (`sub`, no `sid`; DESIGN.md
// §13) after the identity was unlinked, or linked since to another
// account: every session that identity's sign-ins made here ends, whichever
// account it belongs to, and no other (not the accounts' password
// sessions, not another identity's). Each session a single sign-on makes
// records its identity (`ssoSubjectKey`), and sessions are listed by it.
// Before, such a token found the sessions of the account the identity is
// linked to now only: after an unlink it ended nothing, and after a relink
// only the new account's.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { type SsoWorld, ssoWorld, TestBrowser } from "../fixtures/sso.ts";

// A password sign-in of `email` in a browser of its own.
async function passwordSession(
  world: SsoWorld,
  email: string,
): Promise<TestBrowser> {
  const browser = new TestBrowser();
  const login = await browser.request(`${world.origin}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  await login.body?.cancel();
  assertEquals(login.status, 200);
  return browser;
}

// Unlinks the one identity of the browser's account (fresh: the sign-in
// that made the session proved it).
async function unlinkOnly(
  world: SsoWorld,
  browser: TestBrowser,
): Promise<void> {
  const list = await world.call(browser, "GET", "/api/auth/sso/identities");
  const { identities } = await list.json();
  assertEquals(identities.length, 1);
  const unlink = await world.call(
    browser,
    "DELETE",
    `/api/auth/sso/identities/${identities[0].id}`,
  );
  await unlink.body?.cancel();
  assertEquals(unlink.status, 204);
}

// A logout token naming only `sub`, posted once: its answer's status.
async function logoutBySub(world: SsoWorld, sub: string): Promise<number> {
  return (await world.logout({ sub })).status;
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a logout token naming only sub ends the sessions its identity made, after the identity was unlinked (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      // Two people at the provider with Ada's address: both link to Ada.
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
          "ada-2": {
            email: "ada@acme.example",
            email_verified: true,
            name: "Ada",
          },
        },
      });
      try {
        // Ada has a password: her identity is not her last way in.
        const ada = await addUser(store, { email: "ada@acme.example" });
        const [one, two] = [new TestBrowser(), new TestBrowser()];
        assertEquals((await world.signIn(one, "ada")).answer.status, 303);
        assertEquals((await world.signIn(two, "ada")).answer.status, 303);
        await unlinkOnly(world, one);
        assertEquals((await store.listIdentities(ada.id)).length, 0);
        // Since the unlink: another identity of Ada's, and her password.
        const other = new TestBrowser();
        assertEquals((await world.signIn(other, "ada-2")).answer.status, 303);
        const password = await passwordSession(world, ada.email);

        assertEquals(await logoutBySub(world, "ada"), 200);
        assertEquals(await world.identity(one), null, "ada's first ended");
        assertEquals(await world.identity(two), null, "ada's second ended");
        assert(
          await world.identity(other) !== null,
          "the session ada-2's sign-in made stays",
        );
        assert(
          await world.identity(password) !== null,
          "the password sign-in's session stays",
        );
        await world.gatehouse.settled();
        const logouts = (await store.listAuditEvents({ limit: 100 })).events
          .filter((e) => e.type === "logout");
        assertEquals(
          logouts.map((e) => [e.actorId, e.detail.method, e.detail.sessions]),
          [[ada.id, "backchannel", "2"]],
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

// The identity unlinked from Ada and linked since to Bob (the provider now
// gives Bob's address for it): the token ends the sessions it made for Ada
// before and for Bob since, and neither account's others.
for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a logout token naming only sub ends the sessions its identity made, after the identity was linked to another account (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const accounts: Record<string, Record<string, unknown>> = {
        ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
        "ada-2": {
          email: "ada@acme.example",
          email_verified: true,
          name: "Ada",
        },
        bob: { email: "bob@acme.example", email_verified: true, name: "Bob" },
      };
      const world = await ssoWorld(store, { accounts });
      try {
        const ada = await addUser(store, { email: "ada@acme.example" });
        const bob = await addUser(store, { email: "bob@acme.example" });
        const adaSso = new TestBrowser();
        assertEquals((await world.signIn(adaSso, "ada")).answer.status, 303);
        await unlinkOnly(world, adaSso);

        // The provider now gives Bob's address for `ada`: it links to Bob.
        accounts.ada!.email = "bob@acme.example";
        const bobSso = new TestBrowser();
        assertEquals((await world.signIn(bobSso, "ada")).answer.status, 303);
        assertEquals((await world.identity(bobSso))?.id, bob.id);
        assertEquals((await world.identity(adaSso))?.id, ada.id);
        // The others: each account's password session, Ada's other
        // identity's, Bob's own identity's.
        const adaOther = new TestBrowser();
        assertEquals(
          (await world.signIn(adaOther, "ada-2")).answer.status,
          303,
        );
        assertEquals((await world.identity(adaOther))?.id, ada.id);
        const bobOwn = new TestBrowser();
        assertEquals((await world.signIn(bobOwn, "bob")).answer.status, 303);
        assertEquals((await world.identity(bobOwn))?.id, bob.id);
        const adaPassword = await passwordSession(world, ada.email);
        const bobPassword = await passwordSession(world, bob.email);

        assertEquals(await logoutBySub(world, "ada"), 200);
        assertEquals(
          await world.identity(adaSso),
          null,
          "the session the identity made for Ada ended",
        );
        assertEquals(
          await world.identity(bobSso),
          null,
          "the session the identity made for Bob ended",
        );
        for (
          const [browser, what] of [
            [adaOther, "Ada's other identity's"],
            [bobOwn, "Bob's own identity's"],
            [adaPassword, "Ada's password"],
            [bobPassword, "Bob's password"],
          ] as const
        ) {
          assert(await world.identity(browser) !== null, `${what} stays`);
        }
        await world.gatehouse.settled();
        const logouts = (await store.listAuditEvents({ limit: 100 })).events
          .filter((e) => e.type === "logout")
          .map((e) => [e.actorId, e.detail.method, e.detail.sessions])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
        assertEquals(
          logouts,
          [[ada.id, "backchannel", "1"], [bob.id, "backchannel", "1"]]
            .sort((a, b) => a[0]!.localeCompare(b[0]!)),
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
