// The `sso_linked` notice (DESIGN.md §14): linking a provider's identity to
// an account mails its owner once, after the link commits; signing in
// through the linked identity again mails nothing more, and a refused
// callback links nothing and mails nothing. Against the real provider, on
// every store.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import type { MailMessage } from "../../server/mail.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name: `linking an identity mails one sso_linked notice (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const sent: MailMessage[] = [];
      const world = await ssoWorld(store, {
        accounts: {
          ada: {
            email: "ada@acme.example",
            email_verified: true,
            name: "Ada Lovelace",
          },
          eve: {
            email: "eve@acme.example",
            email_verified: false,
            name: "Eve",
          },
        },
        gatehouse: {
          mailer: {
            send(message) {
              sent.push(message);
              return Promise.resolve();
            },
          },
        },
      });
      try {
        // An existing password account, found by its verified address.
        await addUser(store, { email: "ada@acme.example", name: "Ada" });
        const browser = new TestBrowser();
        const first = await world.signIn(browser, "ada");
        assertEquals(first.answer.status, 303);
        await world.gatehouse.settled();
        const linked = sent.filter((m) => m.kind === "sso_linked");
        assertEquals(linked.length, 1);
        assertEquals(linked[0]!.to, "ada@acme.example");
        assertEquals(linked[0]!.text.includes("single sign-on"), true);
        // Already linked: no second notice.
        await world.signIn(new TestBrowser(), "ada");
        await world.gatehouse.settled();
        assertEquals(sent.filter((m) => m.kind === "sso_linked").length, 1);
        // Refused (address not verified): nothing linked, nothing mailed.
        const refused = await world.signIn(new TestBrowser(), "eve");
        assertEquals(refused.answer.status, 303);
        await world.gatehouse.settled();
        assertEquals(
          sent.filter((m) =>
            m.kind === "sso_linked" && m.to !== "ada@acme.example"
          ),
          [],
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
