// A single sign-on callback in flight when its account changes (DESIGN.md
// §13, §5), over a real `Deno.serve` on 127.0.0.1 against a real provider,
// on every store. The callback has resolved the account and is held at the
// session's commit while an administrator ends the account's sessions, or
// disables it; then it goes on. Either way no session is made (the sign-in
// was bound to the account's generation), and the answer says why: ended
// sessions are no fault of the account, so start again
// (`sso_state_invalid`); a disabled account is `sso_account_disabled`.
// Before, both answered `sso_account_disabled`.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { held } from "../fixtures/instrument.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  landing,
  signedInWithPassword,
  ssoWorld,
  TestBrowser,
} from "../fixtures/sso.ts";

const ACCOUNTS = () => ({
  ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
  bea: { email: "bea@acme.example", email_verified: true, name: "Bea" },
});

// What the administrator does while the callback waits, and its answer.
const CASES = [
  {
    name: "its sessions are ended",
    account: "ada",
    change: (id: string): [string, string, unknown?] => [
      "DELETE",
      `/api/users/${id}/sessions`,
    ],
    code: "sso_state_invalid",
  },
  {
    name: "it is disabled",
    account: "bea",
    change: (id: string): [string, string, unknown?] => [
      "PATCH",
      `/api/users/${id}`,
      { disabled: true },
    ],
    code: "sso_account_disabled",
  },
];

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a single sign-on in flight when its account changes makes no session and says why (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const commit = held(store, "createSession");
      const world = await ssoWorld(commit.store, { accounts: ACCOUNTS() });
      try {
        await addUser(store, { email: "root@example.org", role: "admin" });
        const admin = await signedInWithPassword(world, "root@example.org");
        for (const kase of CASES) {
          await t.step(`${kase.name}: ${kase.code}`, async () => {
            const email = `${kase.account}@acme.example`;
            const account = await addUser(store, { email });
            // A first sign-in links the identity and leaves a session.
            const before = new TestBrowser();
            assertEquals(
              landing((await world.signIn(before, kase.account)).answer),
              "/",
            );

            commit.arm();
            const browser = new TestBrowser();
            const signingIn = world.signIn(browser, kase.account);
            await commit.reached();
            const [method, path, body] = kase.change(account.id);
            const changed = await world.call(admin, method, path, body);
            await changed.body?.cancel();
            assert(changed.ok, `${method} ${path}: ${changed.status}`);
            commit.release();
            const { answer } = await signingIn;

            assertEquals(landing(answer), `/?sso_error=${kase.code}`);
            const cookies = answer.headers.getSetCookie();
            assert(!cookies.some((c) => c.startsWith("__Host-session=")));
            assertEquals(await world.identity(browser), null);
            assertEquals(await world.identity(before), null);
            assertEquals(await store.listSessions(account.id, Date.now()), []);

            await world.gatehouse.settled();
            const { events } = await store.listAuditEvents({ limit: 100 });
            const mine = events.filter((e) => e.actorId === account.id);
            assertEquals(mine[0]?.type, "login.failed");
            assertEquals(mine[0]?.detail, {
              method: "sso",
              provider: "acme",
              reason: kase.code,
            });
            assertEquals(
              mine.filter((e) => e.type === "login.succeeded").length,
              1,
              "only the first sign-in succeeded",
            );
          });
        }

        await t.step(
          "the account whose sessions ended starts again",
          async () => {
            const again = new TestBrowser();
            assertEquals(
              landing((await world.signIn(again, "ada")).answer),
              "/",
            );
            assert(await world.identity(again) !== null);
          },
        );
      } finally {
        commit.release();
        await world.close();
        await close();
      }
    },
  });
}
