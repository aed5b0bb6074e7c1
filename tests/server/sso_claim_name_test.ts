// The name a provider's ID token gives (DESIGN.md §13) is the person's own
// text at many providers, and it is kept twice: as the name of an account
// made for it, and as the linked identity's name (`GET
// /api/auth/sso/identities`). Both follow the name rules of every other
// name (DESIGN.md §5: well-formed UTF-16, no control character or line
// separator, NFC, at most 100 characters); a name that breaks them is not
// kept, and never turns the callback into a 5xx. Over real HTTP with a
// real provider, on every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import { settled } from "../../server/http/_background.ts";

// Each claim, and the identity's name the rules make of it ("" for none).
const NAMES: ReadonlyArray<readonly [string, string]> = [
  // Postgres refuses `\ud800` in JSON: the commit failed, 500.
  ["Ada\ud800 Lovelace", ""],
  ["Ada\u2028Lovelace", ""],
  ["x".repeat(101), ""],
  ["Cafe\u0301 Owner", "Caf\u00e9 Owner"],
  ["<b>Ada</b>", "<b>Ada</b>"],
];

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a provider's name claim is kept only by the name rules, and never answers 5xx (${backend.name})`,
    ignore: backend.ignore,
    // The provider (npm:oidc-provider) keeps timers of its own.
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const { store, close } = await backend.open();
      const accounts: Record<string, Record<string, unknown>> = {};
      NAMES.forEach(([name], i) => {
        accounts[`p${i}`] = {
          email: `p${i}@acme.example`,
          email_verified: true,
          name,
        };
      });
      const world = await ssoWorld(store, {
        accounts,
        provider: { createAccounts: true, defaultRole: "member" },
      });
      try {
        for (const [i, [claim, kept]] of NAMES.entries()) {
          const what = JSON.stringify(claim);
          const browser = new TestBrowser();
          const { answer } = await world.signIn(browser, `p${i}`);
          assertEquals(answer.status, 303, what);
          assertEquals(landing(answer), "/", what);
          const res = await world.call(
            browser,
            "GET",
            "/api/auth/sso/identities",
          );
          assertEquals(res.status, 200, what);
          const { identities } = await res.json() as {
            identities: { name: string }[];
          };
          assertEquals(identities.map((each) => each.name), [kept], what);
          const account = await world.identity(browser);
          assertEquals(account?.name, kept === "" ? `p${i}` : kept, what);
        }
        assert(
          !world.logger.lines.some((line) => line.level === "error"),
          JSON.stringify(world.logger.lines),
        );
      } finally {
        await world.close();
        await settled(store);
        await close();
      }
    },
  });
}
