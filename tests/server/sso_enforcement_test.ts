// Enforced single sign-on (DESIGN.md §13) on Deno KV, Postgres and SQLite:
// for an address in an enforcing provider's domains every other way to
// start a session refuses — password login (403 `sso_required` after the
// same argon2 work, known address or not, right password or not), passkey
// sign-in, invitation acceptance, reset confirmation, the second step of a
// password sign-in begun before the enforcement — and a reset request
// sends nothing (still 202). Accounts outside those domains keep signing in
// with their password, also while the provider cannot be reached, whose
// routes then answer 503 `provider_unavailable` until it is back.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../fixtures/admin.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { securityClient } from "../fixtures/security.ts";
import { BACKENDS, testEachStore } from "../fixtures/stores.ts";
import { landing, ssoWorld, TestBrowser } from "../fixtures/sso.ts";
import { assertion, registerPasskey } from "../fixtures/passkey_ceremonies.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";
import {
  enrolTotp,
  passwordStep,
  secondStep,
  STEP,
} from "../fixtures/second_factor.ts";
import { totpCode } from "../../server/core/totp.ts";
import type { Handler, Store } from "../../mod.ts";
import type { GatehouseSsoOptions } from "../../server/sso.ts";
import { hashToken, randomToken, uuidv7 } from "../../server/core/_crypto.ts";

const ENFORCED = { enforce: true, createAccounts: false };

const ACCOUNTS = () => ({
  ada: { email: "ada@acme.example", email_verified: true, name: "Ada" },
  ivy: { email: "ivy@acme.example", email_verified: true, name: "Ivy" },
});

/** A link record of `kind` for `email`, stored directly: its token. */
async function storedLink(
  store: Store,
  kind: "invitation" | "reset",
  email: string,
  fields: { userId?: string; invitedBy?: string; generation?: number } = {},
): Promise<string> {
  const token = randomToken();
  const now = Date.now();
  await store.createLink({
    tokenHash: hashToken(token),
    id: uuidv7(),
    kind,
    email,
    emailKey: email,
    name: kind === "invitation" ? "Invited" : "",
    role: kind === "invitation" ? "member" : "",
    userId: fields.userId ?? "",
    invitedBy: fields.invitedBy ?? "",
    generation: fields.generation ?? 0,
    createdAt: now,
    expiresAt: now + 3_600_000,
  });
  return token;
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an enforcing provider's domain signs in only through it, with equal work for known and unknown addresses (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const mail: { to: string; link?: string }[] = [];
      const world = await ssoWorld(store, {
        accounts: ACCOUNTS(),
        provider: ENFORCED,
        gatehouse: {
          mailer: {
            kinds: ["password_reset"],
            send: (m) => Promise.resolve(void mail.push(m)),
          },
        },
      });
      const post = (path: string, body: unknown) =>
        fetch(`${world.origin}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      try {
        const ada = await addUser(store, {
          email: "ada@acme.example",
          role: "member",
        });
        const root = await addUser(store, {
          email: "root@example.org",
          role: "admin",
        });

        await t.step(
          "password login: 403 sso_required after one argon2 verify, whoever asks",
          async () => {
            const answers: unknown[] = [];
            for (
              const [email, password] of [
                ["ada@acme.example", PASSWORD],
                ["ada@acme.example", "a wrong password, long enough"],
                ["nobody@acme.example", PASSWORD],
                ["Ada@ACME.example", PASSWORD],
              ]
            ) {
              const before = world.hasherCalls.verify;
              const res = await post("/api/auth/login", { email, password });
              assertEquals(res.status, 403, email);
              assert(!res.headers.has("set-cookie"), email);
              answers.push(await res.json());
              assertEquals(world.hasherCalls.verify - before, 1, email);
            }
            for (const answer of answers) {
              assertEquals(answer, {
                error:
                  "This address signs in with its organisation's single sign-on",
                code: "sso_required",
                meta: { provider: "acme" },
              });
            }
          },
        );

        await t.step(
          "outside the domain, the password signs in",
          async () => {
            const res = await post("/api/auth/login", {
              email: "root@example.org",
              password: PASSWORD,
            });
            await res.body?.cancel();
            assertEquals(res.status, 200);
          },
        );

        await t.step(
          "a reset request for the domain sends nothing, and answers 202 alike",
          async () => {
            for (const email of ["ada@acme.example", "nobody@acme.example"]) {
              const res = await post("/api/auth/password-reset", { email });
              await res.body?.cancel();
              assertEquals(res.status, 202);
            }
            await world.gatehouse.settled();
            assertEquals(mail, []);
            // Outside the domain it is sent (the control).
            const res = await post("/api/auth/password-reset", {
              email: "root@example.org",
            });
            await res.body?.cancel();
            await world.gatehouse.settled();
            assertEquals(mail.map((m) => m.to), ["root@example.org"]);
          },
        );

        await t.step(
          "a reset link issued before the enforcement sets nothing: 403",
          async () => {
            const token = await storedLink(store, "reset", "ada@acme.example", {
              userId: ada.id,
            });
            const hashBefore = (await store.credentialsByEmail(
              "ada@acme.example",
            ))!.passwordHash;
            const res = await post("/api/auth/password-reset/confirm", {
              token,
              password: "a brand new password for ada",
            });
            assertEquals(res.status, 403);
            assertEquals((await res.json()).code, "sso_required");
            assertEquals(
              (await store.credentialsByEmail("ada@acme.example"))!
                .passwordHash,
              hashBefore,
            );
          },
        );

        await t.step(
          "an invitation is not accepted with a password (403); the invited person's sign-in spends it",
          async () => {
            const token = await storedLink(
              store,
              "invitation",
              "ivy@acme.example",
              {
                invitedBy: root.id,
              },
            );
            const res = await post("/api/auth/invite/accept", {
              token,
              password: "ivy's own password, long enough",
            });
            assertEquals(res.status, 403);
            assertEquals((await res.json()).meta, { provider: "acme" });
            assertEquals(
              await store.credentialsByEmail("ivy@acme.example"),
              null,
            );
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, "ivy");
            assertEquals(landing(answer), "/");
            const me = await world.identity(browser);
            assertEquals(me?.email, "ivy@acme.example");
            assertEquals(me?.name, "Invited");
            assertEquals(me?.role, "member");
            assertEquals(await store.listInvitations(Date.now()), []);
          },
        );

        await t.step(
          "the enforced account itself signs in through the provider",
          async () => {
            const browser = new TestBrowser();
            const { answer } = await world.signIn(browser, "ada");
            assertEquals(landing(answer), "/");
            assertEquals((await world.identity(browser))?.id, ada.id);
          },
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

testEachStore(
  "a passkey of an enforced address no longer signs in: 403 sso_required",
  async (store) => {
    const app = (sso?: GatehouseSsoOptions) => {
      const logger = memoryLogger();
      const { gatehouse, app } = gatehouseApp({
        store,
        logger,
        hasher,
        roles: ROLES,
        publicUrl: "https://app.example",
        rateLimit: { maxFailures: 1000 },
        ...(sso === undefined ? {} : { sso }),
      });
      return securityClient(store, gatehouse, app, {
        logger,
        mail: [],
        clock: Date.now,
        advance: () => {},
      });
    };
    await addUser(store, { email: "ada@acme.example", role: "member" });
    // Registered before the provider enforced the domain.
    const before = app();
    const key = await createAuthenticator();
    await registerPasskey(before, await before.login("ada@acme.example"), key);
    const signIn = async (api: ReturnType<typeof app>) => {
      const { response, challenge } = await assertion(api, key);
      return await api.call("POST", "/api/auth/passkeys/login", { response }, {
        cookie: challenge,
      });
    };
    const control = await signIn(before);
    await control.body?.cancel();
    assertEquals(control.status, 200);
    await before.gatehouse.settled();

    const enforced = app({
      providers: [{
        id: "acme",
        name: "Acme",
        issuer: "http://127.0.0.1:9",
        clientId: "gatehouse",
        clientSecret: "unused",
        domains: ["acme.example"],
        enforce: true,
      }],
      timeoutSeconds: 1,
    });
    const res = await signIn(enforced);
    assertEquals(res.status, 403);
    assert(
      !res.headers.getSetCookie().some((c) => c.startsWith("__Host-session=")),
    );
    assertEquals((await res.json()).meta, { provider: "acme" });
    const failed = (await enforced.events()).findLast((e) =>
      e.type === "login.failed"
    )!;
    assertEquals(failed.detail.reason, "sso_required");
    await enforced.gatehouse.settled();
  },
);

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a provider down at start-up: its routes answer 503, the way back in is a password outside its domains, and it is tried again (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: ACCOUNTS(),
        provider: ENFORCED,
        down: true,
      });
      try {
        await addUser(store, { email: "root@example.org", role: "admin" });
        await addUser(store, { email: "ada@acme.example", role: "member" });
        // Logged at start-up, without the secret.
        const logged = world.logger.lines.find((line) =>
          line.message === "SSO provider unavailable"
        );
        assert(logged !== undefined);
        assert(
          !JSON.stringify(world.logger.lines).includes(
            "sso-test-client-secret",
          ),
        );

        const listed = await fetch(`${world.origin}/api/auth/sso`);
        assertEquals((await listed.json()).providers[0].id, "acme");
        for (
          const [method, path] of [
            ["GET", "/api/auth/sso/acme/start"],
            ["GET", "/api/auth/sso/acme/callback?code=x&state=y"],
            ["POST", "/api/auth/sso/acme/backchannel-logout"],
          ]
        ) {
          const res = await fetch(`${world.origin}${path}`, {
            method,
            redirect: "manual",
            ...(method === "POST"
              ? {
                headers: {
                  "content-type": "application/x-www-form-urlencoded",
                },
                body: "logout_token=x",
              }
              : {}),
          });
          assertEquals(res.status, 503, path);
          assertEquals((await res.json()).code, "provider_unavailable", path);
        }
        const login = (email: string) =>
          fetch(`${world.origin}/api/auth/login`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email, password: PASSWORD }),
          });
        const root = await login("root@example.org");
        await root.body?.cancel();
        assertEquals(root.status, 200);
        const ada = await login("ada@acme.example");
        await ada.body?.cancel();
        assertEquals(ada.status, 403);

        // Back up: the next request discovers it, and sign-in works.
        world.down = false;
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "ada");
        assertEquals(landing(answer), "/");
        assertEquals(
          (await world.identity(browser))?.email,
          "ada@acme.example",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an address another provider enforces is not signed in by this one: sso_domain_refused (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: ACCOUNTS(),
        provider: { domains: [], createAccounts: true },
        others: [{
          id: "corp",
          name: "Corp",
          issuer: "http://127.0.0.1:9",
          clientId: "gatehouse",
          clientSecret: "unused",
          domains: ["acme.example"],
          enforce: true,
        }],
      });
      try {
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "ada");
        assertEquals(landing(answer), "/?sso_error=sso_domain_refused");
        assertEquals(await world.identity(browser), null);
        assertEquals(await store.credentialsByEmail("ada@acme.example"), null);
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `an international domain is one domain however it is typed: enforced and linked through its punycode (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const world = await ssoWorld(store, {
        accounts: {
          ada: {
            email: "ada@bücher.example",
            email_verified: true,
            name: "Ada",
          },
        },
        provider: { domains: ["xn--bcher-kva.example"], ...ENFORCED },
      });
      try {
        const ada = await addUser(store, { email: "ada@bücher.example" });
        // The Unicode spelling, a full-width one and the punycode itself:
        // each is in the enforced domain, known address or not.
        for (
          const email of [
            "ada@bücher.example",
            "nobody@ＢÜＣＨＥＲ.example",
            "nobody@xn--bcher-kva.example",
          ]
        ) {
          const res = await new TestBrowser().request(
            `${world.origin}/api/auth/login`,
            {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ email, password: PASSWORD }),
            },
          );
          const body = await res.json();
          assertEquals([res.status, body.code], [403, "sso_required"], email);
        }
        // The provider speaks for the Unicode spelling of its domain: the
        // account of that address is linked, not refused.
        const browser = new TestBrowser();
        const { answer } = await world.signIn(browser, "ada");
        assertEquals(landing(answer), "/");
        assertEquals((await world.identity(browser))?.id, ada.id);
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

testEachStore(
  "a password sign-in waiting for its second factor when the provider began to enforce the domain ends there: 410, no session, one event",
  async (store) => {
    let now = Date.now();
    const servers: { close(): Promise<void> }[] = [];
    // An instance of its own on a real server, every call over HTTP.
    const app = (sso?: GatehouseSsoOptions) => {
      const logger = memoryLogger();
      const { gatehouse, app } = gatehouseApp({
        store,
        logger,
        hasher,
        now: () => now,
        roles: ROLES,
        publicUrl: "https://app.example",
        rateLimit: { maxFailures: 1000 },
        ...(sso === undefined ? {} : { sso }),
      });
      const server = serveHandler(app);
      servers.push(server);
      const overHttp: Handler = async (req) =>
        await fetch(`${server.url}${new URL(req.url).pathname}`, {
          method: req.method,
          headers: req.headers,
          body: req.body === null ? null : await req.arrayBuffer(),
        });
      return securityClient(store, gatehouse, overHttp, {
        logger,
        mail: [],
        clock: () => now,
        advance: (ms) => void (now += ms),
      });
    };
    try {
      await addUser(store, { email: "ada@acme.example", role: "member" });
      // The password step on an instance from before the provider enforced
      // the domain (a rolling deploy: both share the store).
      const before = app();
      const { secret } = await enrolTotp(
        before,
        await before.login("ada@acme.example"),
      );
      before.advance(STEP);
      const pending = await passwordStep(before, "ada@acme.example");
      await before.gatehouse.settled();

      const enforced = app({
        providers: [{
          id: "acme",
          name: "Acme",
          issuer: "http://127.0.0.1:9",
          clientId: "gatehouse",
          clientSecret: "unused",
          domains: ["acme.example"],
          enforce: true,
        }],
        timeoutSeconds: 1,
      });
      const res = await secondStep(enforced, pending, {
        code: totpCode(secret, now),
      });
      assert(
        !res.headers.getSetCookie().some((c) =>
          c.startsWith("__Host-session=")
        ),
      );
      assertEquals([res.status, (await res.json()).code], [
        410,
        "token_invalid",
      ]);
      const failures = async () =>
        (await enforced.events()).filter((e) => e.type === "login.failed");
      const [failed] = await failures();
      assertEquals(failed?.detail.reason, "sso_required");
      // The refusal ended the pending sign-in, as its 410 says: a retry
      // finds it gone and records nothing more (before, each retry wrote
      // another login.failed and the sign-in stayed alive).
      for (let i = 0; i < 3; i++) {
        const retry = await secondStep(enforced, pending, {
          code: totpCode(secret, now),
        });
        assertEquals([retry.status, (await retry.json()).code], [
          410,
          "token_invalid",
        ]);
      }
      assertEquals((await failures()).length, 1);
      // The code was not spent by the refusal, nor counted; the sign-in is
      // gone even with enforcement off again (the deploy rolled back):
      // start again with the password, and the same code finishes it.
      const after = await secondStep(before, pending, {
        code: totpCode(secret, now),
      });
      assertEquals([after.status, (await after.json()).code], [
        410,
        "token_invalid",
      ]);
      const again = await passwordStep(before, "ada@acme.example");
      const done = await secondStep(before, again, {
        code: totpCode(secret, now),
      });
      await done.body?.cancel();
      assertEquals(done.status, 200);
      await enforced.gatehouse.settled();
      await before.gatehouse.settled();
    } finally {
      for (const server of servers) await server.close();
    }
  },
);
