// Every refusal of a single sign-on callback (DESIGN.md §13), each with its
// `sso_error` code, against a real provider through the HTTP API on Deno
// KV, Postgres and SQLite: a missing, mismatched or replayed state, an ID
// token signed by another key or with a wrong nonce or audience, the
// provider's own refusal, an address the provider does not vouch for or
// outside its domains, an unknown or disabled account, an open redirect in
// `return_to`; and the last administrator kept through a role sync. No
// refusal makes a session; each is a `login.failed` when a flow was spent.

import { generateKeyPair, SignJWT } from "jose";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  landing,
  type Rewrite,
  type SsoWorld,
  ssoWorld,
  TestBrowser,
} from "../fixtures/sso.ts";
import type { AuditEvent } from "../../server/core/store.ts";

const ACCOUNTS = () => ({
  ada: {
    email: "ada@acme.example",
    email_verified: true,
    name: "Ada",
    groups: ["staff"],
  },
  unverified: { email: "ana@acme.example", email_verified: false },
  silent: { email: "sam@acme.example" },
  stringly: { email: "sue@acme.example", email_verified: "true" },
  outsider: { email: "eve@elsewhere.example", email_verified: true },
  stranger: { email: "dan@acme.example", email_verified: true },
  dis: { email: "dis@acme.example", email_verified: true },
  boss: {
    email: "boss@acme.example",
    email_verified: true,
    groups: ["staff"],
  },
});

async function failures(world: SsoWorld): Promise<AuditEvent[]> {
  await world.gatehouse.settled();
  return (await world.store.listAuditEvents({
    limit: 100,
    type: "login.failed",
  }))
    .events;
}

function refusedWith(answer: Response, code: string): void {
  assertEquals(landing(answer), `/?sso_error=${code}`);
  const cookies = answer.headers.getSetCookie();
  assert(!cookies.some((c) => c.startsWith("__Host-session=")), code);
  assert(cookies.some((c) => /^__Host-gatehouse-sso=; Max-Age=0/.test(c)));
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `single sign-on refuses each failure with its code, and makes no session (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: ACCOUNTS(),
        provider: { syncRole: true },
      });
      const idp = world.idp!;
      try {
        const ada = await addUser(store, {
          email: "ada@acme.example",
          role: "member",
        });
        const boss = await addUser(store, {
          email: "boss@acme.example",
          role: "admin",
        });
        const dis = await addUser(store, { email: "dis@acme.example" });
        await store.updateUser(dis.id, { disabled: true });

        const refused = async (
          name: string,
          account: string,
          code: string,
          how: Parameters<SsoWorld["signIn"]>[2] = {},
        ) => {
          await t.step(`${name}: ${code}`, async () => {
            const before = (await failures(world)).length;
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, account, how);
            refusedWith(answer, code);
            assertEquals(await world.identity(browser), null);
            const recorded = await failures(world);
            assertEquals(recorded.length, before + 1, name);
            assertEquals(recorded[0]!.detail, {
              method: "sso",
              provider: "acme",
              reason: code,
            });
          });
        };

        await t.step(
          "the control: a good sign-in links and signs in",
          async () => {
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, "ada");
            assertEquals(landing(answer), "/");
            assertEquals((await world.identity(browser))?.id, ada.id);
          },
        );

        await refused("a missing state", "ada", "sso_state_invalid", {
          editCallback: (p) => p.delete("state"),
        });
        await refused("a mismatched state", "ada", "sso_state_invalid", {
          editCallback: (p) => p.set("state", "A".repeat(43)),
        });

        await t.step("a replayed callback: sso_state_invalid", async () => {
          const browser = new TestBrowser();
          const { callback, answer } = await world.signIn(browser, "ada");
          assertEquals(landing(answer), "/");
          const before = idp.tokenRequests();
          const again = await browser.request(callback);
          await again.body?.cancel();
          refusedWith(again, "sso_state_invalid");
          assertEquals(idp.tokenRequests(), before);
        });

        await t.step(
          "a callback without the SSO cookie: sso_state_invalid, and nothing recorded",
          async () => {
            const browser = new TestBrowser();
            const { callback } = await world.signIn(browser, "ada");
            const before = (await failures(world)).length;
            const stranger = new TestBrowser();
            const res = await stranger.request(callback);
            await res.body?.cancel();
            refusedWith(res, "sso_state_invalid");
            // No flow was spent: nothing grows the trail.
            assertEquals((await failures(world)).length, before);
          },
        );

        const { privateKey: otherKey } = await generateKeyPair("RS256");
        const resigned = (
          change: (p: Record<string, unknown>) => Record<string, unknown>,
        ): Rewrite =>
        (payload) => idp.sign(change(payload));
        await refused(
          "an ID token signed by another key",
          "ada",
          "sso_token_invalid",
          {
            rewrite: (payload) =>
              new SignJWT(payload).setProtectedHeader({
                alg: "RS256",
                kid: idp.kid,
              }).sign(otherKey),
          },
        );
        await refused("a wrong nonce", "ada", "sso_token_invalid", {
          rewrite: resigned((p) => ({ ...p, nonce: "another-nonce" })),
        });
        await refused("a wrong audience", "ada", "sso_token_invalid", {
          rewrite: resigned((p) => ({ ...p, aud: "another-client" })),
        });
        await refused("a wrong issuer parameter", "ada", "sso_token_invalid", {
          editCallback: (p) => p.set("iss", "http://127.0.0.1:1"),
        });

        await t.step("the provider's refusal: sso_denied", async () => {
          const browser = new TestBrowser();
          const start = await browser.request(
            `${world.origin}/api/auth/sso/acme/start`,
          );
          await start.body?.cancel();
          // prompt=none with no session at the provider: login_required.
          const callback = await browser.authorize(
            `${start.headers.get("location")}&prompt=none`,
            "ada",
            world.callbackUrl,
          );
          assertEquals(callback.searchParams.get("error"), "login_required");
          const res = await browser.request(callback);
          await res.body?.cancel();
          refusedWith(res, "sso_denied");
        });

        await refused(
          "email_verified false",
          "unverified",
          "sso_email_unverified",
        );
        await refused(
          "email_verified absent",
          "silent",
          "sso_email_unverified",
        );
        await refused(
          'email_verified "true" (a string)',
          "stringly",
          "sso_email_unverified",
        );
        await refused(
          "an address outside the provider's domains",
          "outsider",
          "sso_domain_refused",
        );
        await refused(
          "no account and no creation",
          "stranger",
          "sso_account_unknown",
        );
        await refused(
          "the account of the address is disabled",
          "dis",
          "sso_account_disabled",
        );

        await t.step(
          "nothing was linked or created by a refusal",
          async () => {
            assertEquals(await store.listIdentities(dis.id), []);
            assertEquals(
              await store.credentialsByEmail("dan@acme.example"),
              null,
            );
            assertEquals(
              await store.credentialsByEmail("ana@acme.example"),
              null,
            );
          },
        );

        await t.step(
          "a linked account disabled since: sso_account_disabled",
          async () => {
            await store.updateUser(ada.id, { disabled: true });
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, "ada");
            refusedWith(answer, "sso_account_disabled");
            await store.updateUser(ada.id, { disabled: false });
          },
        );

        await t.step(
          "an open redirect in return_to lands on /",
          async () => {
            for (
              const bad of [
                "//evil.example/x",
                "https://evil.example/",
                "/\\evil.example",
                "/\r\nSet-Cookie: x=y",
                "/ok\nX: y",
                "javascript:alert(1)",
              ]
            ) {
              const browser = new TestBrowser();
              const { answer } = await world.signIn(browser, "ada", {
                returnTo: bad,
              });
              assertEquals(landing(answer), "/", JSON.stringify(bad));
              assert(await world.identity(browser) !== null);
            }
          },
        );

        await t.step(
          "the last administrator keeps the role through a role sync",
          async () => {
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, "boss");
            assertEquals(landing(answer), "/");
            const me = await world.identity(browser);
            assertEquals(me?.id, boss.id);
            assertEquals(me?.role, "admin");
            await world.gatehouse.settled();
            const [skipped] = (await store.listAuditEvents({
              limit: 1,
              type: "user.role_sync_skipped",
            })).events;
            assertEquals(skipped?.targetId, boss.id);
            assertEquals(skipped?.actorId, null);
            assertEquals(skipped?.detail.wanted_role, "member");
            assert(
              world.logger.lines.some((line) =>
                line.message.startsWith("SSO role sync skipped")
              ),
            );
            // With another administrator, the same sync lands.
            await addUser(store, { email: "root@example.org", role: "admin" });
            await world.signIn(new TestBrowser(), "boss");
            assertEquals((await store.userById(boss.id))?.role, "member");
          },
        );

        await t.step(
          "the password of a linked account still works",
          async () => {
            const res = await fetch(`${world.origin}/api/auth/login`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                email: "ada@acme.example",
                password: PASSWORD,
              }),
            });
            await res.body?.cancel();
            assertEquals(res.status, 200);
          },
        );

        await t.step("the client secret is in no log line", () => {
          assert(
            !JSON.stringify(world.logger.lines).includes(
              "sso-test-client-secret",
            ),
          );
        });
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
