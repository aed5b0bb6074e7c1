// One back-channel logout token (DESIGN.md §13) delivered a hundred times
// at once, over a real `Deno.serve` on 127.0.0.1, on every store, as a
// provider that retries, or one token reaching two instances, delivers it:
// every delivery answers 200, the sessions the token names end, the others
// stay, and the trail records the logout once. Before, each delivery that
// read the token as not yet seen wrote its own `logout` event (40 to 77 of
// the hundred).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import { BACKCHANNEL_LOGOUT_EVENT } from "../../server/core/sso/logout_token.ts";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a hundred deliveries of one logout token at once end its sessions and record one logout (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
        },
      });
      try {
        const ada = await addUser(store, { email: "ada@acme.example" });
        const [one, two] = [new TestBrowser(), new TestBrowser()];
        await world.signIn(one, "ada");
        await world.signIn(two, "ada");
        const password = new TestBrowser();
        const login = await password.request(
          `${world.origin}/api/auth/login`,
          {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: ada.email, password: PASSWORD }),
          },
        );
        await login.body?.cancel();
        assertEquals(login.status, 200);

        const token = await world.idp!.sign({
          iss: world.idp!.issuer,
          aud: "gatehouse",
          iat: Math.floor(Date.now() / 1000),
          jti: crypto.randomUUID(),
          events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
          sub: "ada",
        }, { typ: "logout+jwt" });
        const statuses = await Promise.all(
          Array.from({ length: 100 }, async () => {
            const res = await fetch(
              `${world.origin}/api/auth/sso/acme/backchannel-logout`,
              {
                method: "POST",
                headers: {
                  "content-type": "application/x-www-form-urlencoded",
                },
                body: new URLSearchParams({ logout_token: token }),
              },
            );
            await res.body?.cancel();
            return res.status;
          }),
        );
        assertEquals(statuses.filter((s) => s !== 200), []);

        assertEquals(await world.identity(one), null);
        assertEquals(await world.identity(two), null);
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
        assertEquals(
          world.logger.lines.filter((l) => l.level === "error"),
          [],
          "nothing logged as an error",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
