// Whether the account has a password (`has_password`), in every answer
// that carries the signed-in account's own Identity: login, the session
// check, the second step, passkey sign-in, an accepted invitation and
// PATCH account. True for an account with a password, false for one made
// by single sign-on (its stored hash is ""), until a reset link gives it
// one; on Deno KV, Postgres and SQLite, through the real routes, every
// answer checked against the contract. The first test signs in at a real
// provider (npm:oidc-provider in process); the second makes the single
// sign-on account through the store, so that the routes the provider's
// world cannot serve (passkeys need an https or localhost site) are
// covered too.

import { totpCode } from "../../server/core/totp.ts";
import { uuidv7 } from "../../server/core/_crypto.ts";
import type { Store } from "../../mod.ts";
import type { MailMessage } from "../../server/mail.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { tokenOf } from "../fixtures/api.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS, testEachStore } from "../fixtures/stores.ts";
import { type SsoWorld, ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import { people, securityApi } from "../fixtures/security.ts";
import {
  type Api,
  enrolTotp,
  passwordStep,
  secondStep,
} from "../fixtures/second_factor.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import { assertion, registerPasskey } from "../fixtures/passkey_ceremonies.ts";

const NEW_PASSWORD = "a password of her own at last";

/** The JSON of a 200 answer that carries an Identity. */
async function identityOf(res: Response): Promise<Record<string, unknown>> {
  assertEquals(res.status, 200, `${res.url}: ${res.status}`);
  return await res.json();
}

function post(world: SsoWorld, path: string, body: unknown) {
  return fetch(`${world.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `has_password: false for an account single sign-on made, true with a password and once a reset link gives it one (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const mail: MailMessage[] = [];
      const world = await ssoWorld(store, {
        accounts: {
          ada: {
            email: "ada@acme.example",
            email_verified: true,
            name: "Ada Lovelace",
          },
        },
        provider: { createAccounts: true },
        gatehouse: {
          mailer: {
            kinds: ["password_reset"],
            send: (message) => Promise.resolve(void mail.push(message)),
          },
        },
      });
      try {
        const ada = new TestBrowser();
        await t.step("an account single sign-on made has none", async () => {
          await world.signIn(ada, "ada");
          const me = await world.identity(ada);
          assertEquals(me?.email, "ada@acme.example");
          assertEquals(me?.has_password, false);
          const renamed = await identityOf(
            await world.call(ada, "PATCH", "/api/auth/account", {
              name: "Ada L.",
            }),
          );
          assertEquals(renamed.name, "Ada L.");
          assertEquals(renamed.has_password, false);
        });

        await t.step("an account with a password has one", async () => {
          await addUser(store, { email: "grace@example.org" });
          const login = await identityOf(
            await post(world, "/api/auth/login", {
              email: "grace@example.org",
              password: PASSWORD,
            }),
          );
          assertEquals(login.has_password, true);
        });

        await t.step(
          "a reset link gives the single sign-on account a password",
          async () => {
            const asked = await post(world, "/api/auth/password-reset", {
              email: "ada@acme.example",
            });
            await asked.body?.cancel();
            assertEquals(asked.status, 202);
            await world.gatehouse.settled(); // the mail goes after the answer
            const link = mail.findLast((m) => m.to === "ada@acme.example")
              ?.link;
            assert(link !== undefined, "a reset link was mailed");
            const reset = await post(
              world,
              "/api/auth/password-reset/confirm",
              {
                token: tokenOf(link),
                password: NEW_PASSWORD,
              },
            );
            await reset.body?.cancel();
            assertEquals(reset.status, 204);
            const login = await identityOf(
              await post(world, "/api/auth/login", {
                email: "ada@acme.example",
                password: NEW_PASSWORD,
              }),
            );
            assertEquals(login.has_password, true);
            // A later single sign-on finds the password too.
            const again = new TestBrowser();
            await world.signIn(again, "ada");
            assertEquals((await world.identity(again))?.has_password, true);
          },
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

/** An account made by a first single sign-on, as the callback makes it. */
async function ssoAccount(store: Store, email: string): Promise<string> {
  const now = Date.now();
  const outcome = await store.resolveSsoAccount({
    providerId: "acme",
    issuer: "https://login.acme.example",
    subject: `sub-${email}`,
    email,
    emailKey: email,
    name: "Sam",
    firstLinkRefusal: null,
    create: { name: "Sam", role: "member" },
    identityId: uuidv7(now),
    userId: uuidv7(now),
    now,
    granters: () => Promise.resolve(undefined),
  });
  assert(outcome.ok && outcome.how === "created");
  return outcome.account.id;
}

/** A passkey sign-in with `key`: its answer. */
async function passkeyLogin(
  api: Api,
  key: Awaited<ReturnType<typeof createAuthenticator>>,
): Promise<Response> {
  const { response, challenge } = await assertion(api, key);
  return await api.call("POST", "/api/auth/passkeys/login", { response }, {
    cookie: challenge,
  });
}

testEachStore(
  "has_password in every answer of one's own Identity: login, session, second step, passkey, invitation, PATCH account",
  async (store) => {
    const { root, member } = await people(store);
    const api = securityApi(store);
    const session = async (cookie: string) =>
      await identityOf(
        await api.call("GET", "/api/auth/session", undefined, { cookie }),
      );
    const patch = async (cookie: string) =>
      await identityOf(
        await api.call("PATCH", "/api/auth/account", { locale: "es" }, {
          cookie,
        }),
      );

    // A password account, in each answer.
    const login = await api.call("POST", "/api/auth/login", {
      email: member.email,
      password: PASSWORD,
    });
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    assertEquals((await identityOf(login)).has_password, true);
    assertEquals((await session(cookie)).has_password, true);
    assertEquals((await patch(cookie)).has_password, true);
    const { secret } = await enrolTotp(api, cookie);
    api.advance(30_000);
    const pending = await passwordStep(api, member.email);
    const second = await identityOf(
      await secondStep(api, pending, { code: totpCode(secret, api.clock()) }),
    );
    assertEquals(second.has_password, true);
    const memberKey = await createAuthenticator();
    await registerPasskey(api, cookie, memberKey);
    const byPasskey = await identityOf(await passkeyLogin(api, memberKey));
    assertEquals(byPasskey.id, member.id);
    assertEquals(byPasskey.has_password, true);

    // An invitation accepted with a password.
    const admin = await api.login(root.email);
    const invited = await api.call("POST", "/api/users/invite", {
      email: "dee@example.com",
      name: "Dee",
      role: "member",
    }, { cookie: admin });
    assertEquals(invited.status, 200);
    const accepted = await identityOf(
      await api.call("POST", "/api/auth/invite/accept", {
        token: tokenOf((await invited.json()).activation_link),
        password: NEW_PASSWORD,
      }),
    );
    assertEquals(accepted.email, "dee@example.com");
    assertEquals(accepted.has_password, true);

    // An account single sign-on made: none, in each answer it can have.
    const sam = await ssoAccount(store, "sam@acme.example");
    assertEquals((await store.accountFactors(sam))?.hasPassword, false);
    const samCookie = (await api.gatehouse.auth.startSession(sam))
      .split(";")[0]!;
    assertEquals((await session(samCookie)).has_password, false);
    assertEquals((await patch(samCookie)).has_password, false);
    const samKey = await createAuthenticator();
    await registerPasskey(api, samCookie, samKey);
    const samByPasskey = await identityOf(await passkeyLogin(api, samKey));
    assertEquals(samByPasskey.id, sam);
    assertEquals(samByPasskey.has_password, false);
  },
);
