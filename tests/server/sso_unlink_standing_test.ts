// Unlinking one's own single sign-on identity in flight does not outlive
// the session that asked for it, as no other change to one's own ways in
// does (self_service_standing_test.ts): the unlink passes its guard and is
// held just before it reaches the store; meanwhile the account is disabled
// or signed out everywhere (an account being locked down). Before, the
// unlink's commit read the account again and went on: the identity was
// unlinked by a session that was no longer one. Now 401 `session_absent`,
// the identity still linked, no `sso.unlinked`. Every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser } from "../fixtures/kv.ts";
import { answerOf } from "../fixtures/security.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import type { Store } from "../../mod.ts";

const LOCKDOWNS: Array<[string, (store: Store, id: string) => Promise<void>]> =
  [
    ["disabled", async (store, id) => {
      await store.updateUser(id, { disabled: true });
    }],
    ["signed out everywhere", async (store, id) => {
      await store.revokeUserSessions(id, {});
    }],
  ];

for (const backend of BACKENDS) {
  for (const [what, lockDown] of LOCKDOWNS) {
    Deno.test({
      name:
        `an unlink of one's own identity held while the account is ${what} answers 401 and unlinks nothing (${backend.name})`,
      ignore: backend.ignore,
      async fn() {
        const { store, close } = await backend.open();
        const gate = held(store, "unlinkIdentity");
        const world = await ssoWorld(gate.store, {
          accounts: {
            ada: {
              email: "ada@acme.example",
              email_verified: true,
              name: "Ada",
            },
          },
        });
        try {
          // Ada has a password: her identity is not her last way in.
          const ada = await addUser(store, { email: "ada@acme.example" });
          const browser = new TestBrowser();
          const { answer } = await world.signIn(browser, "ada");
          assertEquals(answer.status, 303);
          const list = await world.call(
            browser,
            "GET",
            "/api/auth/sso/identities",
          );
          const [identity] = (await list.json()).identities;
          assert(identity !== undefined);

          gate.arm();
          const inFlight = world.call(
            browser,
            "DELETE",
            `/api/auth/sso/identities/${identity.id}`,
          );
          await gate.reached();
          await lockDown(store, ada.id);
          gate.release();
          assertEquals(await answerOf(await inFlight), "401 session_absent");
          await world.gatehouse.settled();
          assertEquals(
            (await store.listIdentities(ada.id)).map((i) => i.id),
            [identity.id],
            "the identity is still linked",
          );
          const { events } = await store.listAuditEvents({
            limit: 100,
            userId: ada.id,
          });
          assertEquals(
            events.filter((e) => e.type === "sso.unlinked").length,
            0,
          );
        } finally {
          gate.release();
          await world.close();
          await close();
        }
      },
    });
  }
}
