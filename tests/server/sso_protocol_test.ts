// The single sign-on protocol layer (server/core/sso/, DESIGN.md §13)
// against a real provider: npm:oidc-provider in-process on 127.0.0.1, its
// login and consent pages driven with fetch, so each sign-in is a whole
// authorization code + PKCE + nonce round trip. Tokens the provider could
// have made but with one claim wrong are signed with the provider's own key
// (the test holds it) and slipped into the token endpoint's answer, so each
// refusal is shown to come from that one claim.

import {
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  SignJWT,
} from "jose";
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertThrows,
} from "../fixtures/assert.ts";
import {
  startTestProvider,
  TestBrowser,
  type TestProvider,
} from "../fixtures/oidc_provider.ts";
import { finishSsoFlow } from "../../server/core/sso/callback.ts";
import { identityFromClaims } from "../../server/core/sso/claims.ts";
import { ssoConnection } from "../../server/core/sso/connection.ts";
import {
  discoverSsoProvider,
  type SsoClient,
  SsoDiscoveryError,
} from "../../server/core/sso/discovery.ts";
import {
  SSO_FLOW_TTL,
  type SsoFlow,
  type SsoFlowStore,
} from "../../server/core/sso/flow.ts";
import { firstLinkRefusal } from "../../server/core/sso/linking.ts";
import {
  BACKCHANNEL_LOGOUT_EVENT,
  verifyLogoutToken,
} from "../../server/core/sso/logout_token.ts";
import type { SsoFetch } from "../../server/core/sso/no_redirect_fetch.ts";
import {
  resolveSsoProviders,
  type SsoProvider,
  type SsoProviderOptions,
  ssoRedirectUri,
} from "../../server/core/sso/provider_config.ts";
import {
  mappedRole,
  roleForNewAccount,
  roleForSync,
} from "../../server/core/sso/role_map.ts";
import { safeReturnPath } from "../../server/core/sso/return_to.ts";
import { startSsoFlow } from "../../server/core/sso/start.ts";
import { hashToken } from "../../server/core/_crypto.ts";
import { redact, safeMessage } from "../../server/core/sso/_redact.ts";

const SECRET = "client-secret-that-must-never-leak-7f3a9c";
const REDIRECT = ssoRedirectUri("http://127.0.0.1:8000", "acme");

const ACCOUNTS = {
  ada: {
    email: "ada@acme.example",
    email_verified: true,
    name: "Ada Lovelace",
    groups: ["staff", "admins"],
  },
  bob: { email: "bob@acme.example", email_verified: false, name: "Bob" },
  cid: { email: "cid@acme.example", name: "Cid" },
  ent: { email: "ent@acme.example", xms_edov: true, groups: "staff" },
  eve: { email: "eve@elsewhere.example", email_verified: false },
};

/** An in-memory flow keeper, as the store will be: spend reads and deletes. */
function memoryFlows(): SsoFlowStore & { saved: Map<string, SsoFlow> } {
  const saved = new Map<string, SsoFlow>();
  return {
    saved,
    save(flow) {
      saved.set(flow.tokenHash, structuredClone(flow));
      return Promise.resolve();
    },
    spend(tokenHash) {
      const flow = saved.get(tokenHash) ?? null;
      saved.delete(tokenHash);
      return Promise.resolve(flow);
    },
  };
}

function acmeOptions(
  issuer: string,
  more: Partial<SsoProviderOptions> = {},
): SsoProviderOptions {
  return {
    id: "acme",
    name: "Acme",
    issuer,
    clientId: "gatehouse",
    clientSecret: SECRET,
    domains: ["acme.example"],
    roleMap: [["admins", "admin"], ["staff", "member"]],
    ...more,
  };
}

const providerOf = (options: SsoProviderOptions): SsoProvider =>
  resolveSsoProviders({ providers: [options] })[0]!;

type Rewrite = (
  payload: Record<string, unknown>,
  token: string,
) => Promise<string>;

/** The test's world: a provider, a discovered client, a token rewriter. */
interface World {
  idp: TestProvider;
  client: SsoClient;
  /** Set to change the ID token the token endpoint answers, once. */
  rewrite: Rewrite | null;
  /** Logout tokens the provider posted to the back-channel URI. */
  logoutTokens: string[];
}

/** A sign-in from start to callback, the browser signing in as `account`. */
async function signIn(
  world: World,
  account: string,
  options: {
    browser?: TestBrowser;
    purpose?: "sign_in" | "reauthenticate";
    userId?: string;
    sessionId?: string;
    rewrite?: Rewrite;
    editCallback?: (params: URLSearchParams) => void;
    client?: SsoClient;
  } = {},
) {
  const client = options.client ?? world.client;
  const flows = memoryFlows();
  const start = await startSsoFlow(client, flows, {
    now: Date.now(),
    returnTo: "/after?x=1",
    purpose: options.purpose,
    userId: options.userId,
    sessionId: options.sessionId,
  });
  const browser = options.browser ?? new TestBrowser();
  const callback = await browser.authorize(start.location, account, REDIRECT);
  const params = new URLSearchParams(callback.search);
  options.editCallback?.(params);
  world.rewrite = options.rewrite ?? null;
  try {
    const result = await finishSsoFlow(client, flows, {
      now: Date.now(),
      cookieToken: start.cookieToken,
      params,
    });
    return { result, start, flows, params, browser };
  } finally {
    world.rewrite = null;
  }
}

async function setUp(): Promise<World & { close(): Promise<void> }> {
  const logoutTokens: string[] = [];
  const backchannel = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      const token = (await request.formData()).get("logout_token");
      if (typeof token === "string") logoutTokens.push(token);
      return new Response(null, { status: 200 });
    },
  );
  const idp = await startTestProvider({
    clients: [{
      client_id: "gatehouse",
      client_secret: SECRET,
      redirect_uris: [REDIRECT],
      backchannel_logout_uri:
        `http://127.0.0.1:${backchannel.addr.port}/backchannel`,
      backchannel_logout_session_required: true,
    }],
    accounts: ACCOUNTS,
    backchannelLogout: true,
  });
  const world = { idp, rewrite: null, logoutTokens } as unknown as World;
  // The token endpoint's answer, with the ID token rewritten when a test
  // asks: every other request passes untouched.
  const rewriting: SsoFetch = async (url, init) => {
    const response = await fetch(url, init);
    const rewrite = world.rewrite;
    if (rewrite === null || !url.endsWith("/token") || !response.ok) {
      return response;
    }
    const body = await response.json();
    body.id_token = await rewrite(decodeJwt(body.id_token), body.id_token);
    return Response.json(body);
  };
  world.client = await discoverSsoProvider(
    providerOf(acmeOptions(idp.issuer)),
    {
      redirectUri: REDIRECT,
      fetch: rewriting,
    },
  );
  return Object.assign(world, {
    async close() {
      await idp.close();
      await backchannel.shutdown();
    },
  });
}

/** A small server of our own on 127.0.0.1 (redirects, proxies, outages). */
function serve(
  handler: (request: Request, origin: string) => Response | Promise<Response>,
) {
  const server: Deno.HttpServer<Deno.NetAddr> = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    (request): Response | Promise<Response> =>
      handler(request, `http://127.0.0.1:${server.addr.port}`),
  );
  return { origin: `http://127.0.0.1:${server.addr.port}`, server };
}

const unsigned = (payload: Record<string, unknown>) =>
  `${btoa(JSON.stringify({ alg: "none" })).replace(/=+$/, "")}.${
    btoa(JSON.stringify(payload)).replace(/=+$/, "").replace(/\+/g, "-")
      .replace(/\//g, "_")
  }.`;

Deno.test("SSO protocol layer against an in-process oidc-provider", async (t) => {
  const world = await setUp();
  const { idp } = world;
  try {
    await t.step("a sign-in round trip answers the identity", async () => {
      const { result, start, flows } = await signIn(world, "ada");
      const url = new URL(start.location);
      assertEquals(url.origin, idp.issuer);
      assertEquals(url.searchParams.get("response_type"), "code");
      assertEquals(url.searchParams.get("code_challenge_method"), "S256");
      assertEquals(url.searchParams.get("state"), start.flow.state);
      assertEquals(url.searchParams.get("nonce"), start.flow.nonce);
      assertEquals(url.searchParams.get("redirect_uri"), REDIRECT);
      assertEquals(url.searchParams.get("prompt"), null);
      assert(!start.location.includes(start.flow.codeVerifier));
      assert(!start.location.includes(start.cookieToken));
      // The store keeps the cookie token's hash only; spent at the callback.
      assertEquals(start.flow.tokenHash, hashToken(start.cookieToken));
      assertEquals(flows.saved.size, 0);
      assert(result.ok, result.ok ? "" : result.reason);
      assertEquals(result.flow.returnTo, "/after?x=1");
      assertEquals(result.flow.purpose, "sign_in");
      const { identity } = result;
      assertEquals(identity.issuer, idp.issuer);
      assertEquals(identity.subject, "ada");
      assertEquals(identity.email, "ada@acme.example");
      assertEquals(identity.emailVerified, true);
      assertEquals(identity.name, "Ada Lovelace");
      assertEquals(identity.roleValues, ["staff", "admins"]);
      assert(identity.sid !== null && identity.sid.length > 10);
      assertEquals(firstLinkRefusal(world.client.provider, identity), null);
      assertEquals(
        mappedRole(world.client.provider, identity.roleValues),
        "admin",
      );
    });

    await t.step(
      "a replayed callback is refused without a second code exchange",
      async () => {
        const { result, start, flows, params } = await signIn(world, "ada");
        assert(result.ok);
        const before = idp.tokenRequests();
        const again = await finishSsoFlow(world.client, flows, {
          now: Date.now(),
          cookieToken: start.cookieToken,
          params,
        });
        assert(!again.ok);
        assertEquals(again.code, "sso_state_invalid");
        assertEquals(again.flow, null);
        assertEquals(idp.tokenRequests(), before);
      },
    );

    await t.step(
      "a missing or mismatched state, cookie or provider is sso_state_invalid",
      async () => {
        const cases: [string, (params: URLSearchParams) => void][] = [
          ["no state", (p) => p.delete("state")],
          ["another state", (p) => p.set("state", "A".repeat(43))],
          ["two states", (p) => p.append("state", p.get("state")!)],
        ];
        for (const [name, edit] of cases) {
          const before = idp.tokenRequests();
          const { result } = await signIn(world, "ada", { editCallback: edit });
          assert(!result.ok, name);
          assertEquals(result.code, "sso_state_invalid", name);
          assert(result.flow !== null, name); // found, and spent all the same
          assertEquals(idp.tokenRequests(), before, name);
        }
        // No cookie; another browser's cookie; an expired flow.
        const flows = memoryFlows();
        const mine = await startSsoFlow(world.client, flows, {
          now: Date.now(),
        });
        const theirs = await startSsoFlow(world.client, flows, {
          now: Date.now(),
        });
        const callback = await new TestBrowser().authorize(
          mine.location,
          "ada",
          REDIRECT,
        );
        const finish = (cookieToken: string | null, now = Date.now()) =>
          finishSsoFlow(world.client, flows, {
            now,
            cookieToken,
            params: callback.searchParams,
          });
        const missing = await finish(null);
        assert(!missing.ok && missing.code === "sso_state_invalid");
        const crossed = await finish(theirs.cookieToken);
        assert(!crossed.ok && crossed.code === "sso_state_invalid");
        const late = await finish(mine.cookieToken, mine.flow.expiresAt);
        assert(!late.ok && late.code === "sso_state_invalid");
        assertMatch(late.reason, /expired/);
        // A flow started with another provider.
        const other = memoryFlows();
        const foreign = await startSsoFlow(world.client, other, {
          now: Date.now(),
        });
        other.saved.get(foreign.flow.tokenHash)!.providerId = "other";
        const wrongProvider = await finishSsoFlow(world.client, other, {
          now: Date.now(),
          cookieToken: foreign.cookieToken,
          params: new URLSearchParams({ state: foreign.flow.state, code: "x" }),
        });
        assert(!wrongProvider.ok && wrongProvider.code === "sso_state_invalid");
      },
    );

    await t.step(
      "RFC 9207: a missing or wrong iss parameter is sso_token_invalid",
      async () => {
        assert(world.client.issParameter);
        for (
          const edit of [
            (p: URLSearchParams) => p.delete("iss"),
            (p: URLSearchParams) => p.set("iss", "http://127.0.0.1:1"),
          ]
        ) {
          const before = idp.tokenRequests();
          const { result } = await signIn(world, "ada", { editCallback: edit });
          assert(!result.ok);
          assertEquals(result.code, "sso_token_invalid");
          assertMatch(result.reason, /iss/);
          assertEquals(idp.tokenRequests(), before);
        }
      },
    );

    await t.step("a provider's error answer is sso_denied", async () => {
      // prompt=none without a session at the provider: it answers
      // login_required to the redirect URI, with state and iss.
      const flows = memoryFlows();
      const start = await startSsoFlow(world.client, flows, {
        now: Date.now(),
      });
      const callback = await new TestBrowser().authorize(
        `${start.location}&prompt=none`,
        "ada",
        REDIRECT,
      );
      assertEquals(callback.searchParams.get("error"), "login_required");
      const result = await finishSsoFlow(world.client, flows, {
        now: Date.now(),
        cookieToken: start.cookieToken,
        params: callback.searchParams,
      });
      assert(!result.ok);
      assertEquals(result.code, "sso_denied");
      assertMatch(result.reason, /login_required/);
    });

    await t.step(
      "the rewriting path accepts an unchanged token (control)",
      async () => {
        const { result } = await signIn(world, "ada", {
          rewrite: (payload) => idp.sign(payload),
        });
        assert(result.ok, result.ok ? "" : result.reason);
      },
    );

    await t.step(
      "an ID token not signed by the provider is sso_token_invalid",
      async () => {
        const { privateKey: otherKey } = await generateKeyPair("RS256");
        const forgeries: [string, Rewrite][] = [
          [
            "another key, same kid",
            (payload) =>
              new SignJWT(payload)
                .setProtectedHeader({ alg: "RS256", kid: idp.kid })
                .sign(otherKey),
          ],
          [
            "another key, unknown kid",
            (payload) =>
              new SignJWT(payload)
                .setProtectedHeader({ alg: "RS256", kid: "elsewhere" })
                .sign(otherKey),
          ],
          [
            "payload changed under the provider's signature",
            (payload, token) => {
              const [header, , signature] = token.split(".");
              const body = btoa(
                JSON.stringify({ ...payload, email: "boss@acme.example" }),
              ).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
              return Promise.resolve(`${header}.${body}.${signature}`);
            },
          ],
          ["alg none", (payload) => Promise.resolve(unsigned(payload))],
          [
            "HS256 keyed with the client secret",
            (payload) =>
              new SignJWT(payload).setProtectedHeader({ alg: "HS256" })
                .sign(new TextEncoder().encode(SECRET)),
          ],
        ];
        for (const [name, rewrite] of forgeries) {
          const { result } = await signIn(world, "ada", { rewrite });
          assert(!result.ok, name);
          assertEquals(result.code, "sso_token_invalid", name);
        }
      },
    );

    await t.step(
      "each wrong claim in a provider-signed ID token is sso_token_invalid",
      async () => {
        const now = Math.floor(Date.now() / 1000);
        const wrongs: [
          string,
          (p: Record<string, unknown>) => Record<string, unknown>,
        ][] = [
          ["nonce", (p) => ({ ...p, nonce: "another-nonce" })],
          ["no nonce", ({ nonce: _, ...p }) => p],
          ["aud", (p) => ({ ...p, aud: "another-client" })],
          [
            "aud with an untrusted extra",
            (p) => ({ ...p, aud: ["gatehouse", "x"] }),
          ],
          ["iss", (p) => ({ ...p, iss: "http://127.0.0.1:1" })],
          ["exp", (p) => ({ ...p, exp: now - 600, iat: now - 1200 })],
          ["no sub", ({ sub: _, ...p }) => p],
        ];
        for (const [name, change] of wrongs) {
          const { result } = await signIn(world, "ada", {
            rewrite: (payload) => idp.sign(change(payload)),
          });
          assert(!result.ok, name);
          assertEquals(result.code, "sso_token_invalid", name);
        }
      },
    );

    await t.step(
      "email trust: email_verified must be exactly true, or Entra's xms_edov",
      async () => {
        const provider = world.client.provider;
        const bob = await signIn(world, "bob");
        assert(bob.result.ok);
        assertEquals(bob.result.identity.emailVerified, false);
        assertEquals(
          firstLinkRefusal(provider, bob.result.identity)?.code,
          "sso_email_unverified",
        );
        const cid = await signIn(world, "cid");
        assert(cid.result.ok);
        assertEquals(cid.result.identity.emailVerified, false);
        assertEquals(
          firstLinkRefusal(provider, cid.result.identity)?.code,
          "sso_email_unverified",
        );
        const stringy = await signIn(world, "ada", {
          rewrite: (p) => idp.sign({ ...p, email_verified: "true" }),
        });
        assert(stringy.result.ok);
        assertEquals(stringy.result.identity.emailVerified, false);
        const ent = await signIn(world, "ent");
        assert(ent.result.ok);
        assertEquals(ent.result.identity.emailVerified, true);
        assertEquals(ent.result.identity.roleValues, ["staff"]);
        assertEquals(firstLinkRefusal(provider, ent.result.identity), null);
      },
    );

    await t.step(
      "an address outside the provider's domains is sso_domain_refused first",
      async () => {
        const eve = await signIn(world, "eve");
        assert(eve.result.ok);
        // eve is also unverified: the domain check comes first.
        assertEquals(
          firstLinkRefusal(world.client.provider, eve.result.identity)?.code,
          "sso_domain_refused",
        );
        const noDomains = providerOf(acmeOptions(idp.issuer, { domains: [] }));
        assertEquals(
          firstLinkRefusal(noDomains, eve.result.identity)?.code,
          "sso_email_unverified",
        );
      },
    );

    await t.step(
      "re-authentication asks prompt=login and max_age=0 and checks auth_time",
      async () => {
        const browser = new TestBrowser();
        const first = await signIn(world, "ada", { browser });
        assert(first.result.ok);
        const again = await signIn(world, "ada", {
          browser,
          purpose: "reauthenticate",
          userId: "account-1",
          sessionId: "session-1",
        });
        const url = new URL(again.start.location);
        assertEquals(url.searchParams.get("prompt"), "login");
        assertEquals(url.searchParams.get("max_age"), "0");
        assert(again.result.ok, again.result.ok ? "" : again.result.reason);
        assertEquals(again.result.flow.purpose, "reauthenticate");
        assertEquals(again.result.flow.userId, "account-1");
        assertEquals(again.result.flow.sessionId, "session-1");
        assert(
          again.result.identity.authTime! >=
            again.start.flow.createdAt - 60_000,
        );
        // A provider that answers with an old authentication is refused.
        const stale = await signIn(world, "ada", {
          browser,
          purpose: "reauthenticate",
          userId: "account-1",
          sessionId: "session-1",
          rewrite: (p) =>
            idp.sign({ ...p, auth_time: Math.floor(Date.now() / 1000) - 3600 }),
        });
        assert(!stale.result.ok);
        assertEquals(stale.result.code, "sso_token_invalid");
        await assertRejects(
          () =>
            startSsoFlow(world.client, memoryFlows(), {
              now: Date.now(),
              purpose: "reauthenticate",
            }),
          TypeError,
        );
        // Nor without the session that asks: the callback renews it alone.
        await assertRejects(
          () =>
            startSsoFlow(world.client, memoryFlows(), {
              now: Date.now(),
              purpose: "reauthenticate",
              userId: "account-1",
            }),
          TypeError,
        );
      },
    );

    await t.step("return_to is checked before it is stored", async () => {
      for (
        const bad of ["//evil.example/x", "https://evil.example/", "/\r\nX: y"]
      ) {
        const start = await startSsoFlow(world.client, memoryFlows(), {
          now: Date.now(),
          returnTo: bad,
        });
        assertEquals(start.flow.returnTo, "/");
      }
    });

    const claimsFor = (extra: Record<string, unknown> = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return {
        iss: idp.issuer,
        aud: "gatehouse",
        iat: now,
        jti: crypto.randomUUID(),
        sub: "ada",
        sid: "session-1",
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
        ...extra,
      };
    };
    const verify = (token: string, now = Date.now()) =>
      verifyLogoutToken(world.client, token, { now });

    await t.step(
      "a valid logout token answers the sessions to end",
      async () => {
        const token = await idp.sign(claimsFor(), { typ: "logout+jwt" });
        const result = await verify(token);
        assert(result.ok, result.ok ? "" : result.reason);
        assertEquals(result.logout.issuer, idp.issuer);
        assertEquals(result.logout.subject, "ada");
        assertEquals(result.logout.sid, "session-1");
        assert(result.logout.replayUntil > Date.now());
        for (const typ of [undefined, "JWT", "application/logout+jwt"]) {
          const typed = await idp.sign(claimsFor(), typ ? { typ } : {});
          assert((await verify(typed)).ok, String(typ));
        }
        const { sub: _, ...sidOnly } = claimsFor();
        const bySid = await verify(await idp.sign(sidOnly));
        assert(bySid.ok && bySid.logout.subject === null);
        const { sid: __, ...subOnly } = claimsFor();
        const bySub = await verify(await idp.sign(subOnly));
        assert(bySub.ok && bySub.logout.sid === null);
      },
    );

    await t.step(
      "a logout token that fails any rule is logout_token_invalid",
      async () => {
        const { privateKey: otherKey } = await generateKeyPair("RS256");
        const now = Math.floor(Date.now() / 1000);
        const base = claimsFor();
        const { events: _e, ...noEvents } = base;
        const { jti: _j, ...noJti } = base;
        const { sub: _s, sid: _d, ...nobody } = base;
        const { iat: _i, ...noIat } = base;
        const bad: [string, string][] = [
          [
            "forged",
            await new SignJWT(base)
              .setProtectedHeader({ alg: "RS256", kid: idp.kid })
              .sign(otherKey),
          ],
          ["alg none", unsigned(base)],
          ["missing events", await idp.sign(noEvents)],
          ["other event", await idp.sign({ ...base, events: { "urn:x": {} } })],
          [
            "event not an object",
            await idp.sign({
              ...base,
              events: { [BACKCHANNEL_LOGOUT_EVENT]: "x" },
            }),
          ],
          ["with nonce", await idp.sign({ ...base, nonce: "n" })],
          ["stale", await idp.sign({ ...base, iat: now - 600 })],
          ["from the future", await idp.sign({ ...base, iat: now + 600 })],
          ["no iat", await idp.sign(noIat)],
          ["expired", await idp.sign({ ...base, exp: now - 300 })],
          ["wrong aud", await idp.sign({ ...base, aud: "another-client" })],
          ["wrong iss", await idp.sign({ ...base, iss: "http://127.0.0.1:1" })],
          ["neither sub nor sid", await idp.sign(nobody)],
          ["sid not a string", await idp.sign({ ...base, sid: 42 })],
          ["no jti", await idp.sign(noJti)],
          ["wrong typ", await idp.sign(base, { typ: "at+jwt" })],
          ["not a JWT", "not-a-jwt"],
          ["empty", ""],
        ];
        for (const [name, token] of bad) {
          const result = await verify(token);
          assert(!result.ok, name);
          assertEquals(result.code, "logout_token_invalid", name);
        }
        // An ID token from a real sign-in is no logout token.
        let idToken = "";
        const { result } = await signIn(world, "ada", {
          rewrite: (_payload, token) => {
            idToken = token;
            return Promise.resolve(token);
          },
        });
        assert(result.ok && idToken !== "");
        const replayed = await verify(idToken);
        assert(!replayed.ok);
      },
    );

    await t.step(
      "the provider's own back-channel logout token passes",
      async () => {
        const browser = new TestBrowser();
        const { result } = await signIn(world, "ada", { browser });
        assert(result.ok);
        world.logoutTokens.length = 0;
        await browser.signOut(idp.issuer, "gatehouse");
        for (let i = 0; i < 50 && world.logoutTokens.length === 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assertEquals(world.logoutTokens.length, 1);
        const token = world.logoutTokens[0]!;
        assertEquals(decodeProtectedHeader(token).typ, "logout+jwt");
        const logout = await verify(token);
        assert(logout.ok, logout.ok ? "" : logout.reason);
        assertEquals(logout.logout.subject, "ada");
        assertEquals(logout.logout.sid, result.identity.sid);
      },
    );

    await t.step(
      "discovery refuses a redirect and an issuer that is not exactly the configured one",
      async () => {
        const redirecting = serve(() =>
          Response.redirect(
            `${idp.issuer}/.well-known/openid-configuration`,
            302,
          )
        );
        try {
          const error = await assertRejects(
            () =>
              discoverSsoProvider(providerOf(acmeOptions(redirecting.origin)), {
                redirectUri: REDIRECT,
              }),
            SsoDiscoveryError,
          );
          assertMatch(error.message, /redirect/);
          assert(!error.message.includes(SECRET));
        } finally {
          await redirecting.server.shutdown();
        }
        const slash = await assertRejects(
          () =>
            discoverSsoProvider(providerOf(acmeOptions(`${idp.issuer}/`)), {
              redirectUri: REDIRECT,
            }),
          SsoDiscoveryError,
        );
        assertMatch(slash.message, /declares issuer/);
      },
    );

    await t.step(
      "token and JWKS requests never follow a redirect",
      async () => {
        // A front whose metadata points the token endpoint and the JWKS at
        // addresses of its own that redirect to the provider's (or, as a
        // control, pass the requests on).
        let redirectJwks = true;
        let redirectToken = true;
        const real = await (await fetch(
          `${idp.issuer}/.well-known/openid-configuration`,
        )).json();
        const front = serve((request, origin) => {
          const path = new URL(request.url).pathname;
          if (path === "/.well-known/openid-configuration") {
            return Response.json({
              ...real,
              issuer: origin,
              token_endpoint: `${origin}/token`,
              jwks_uri: `${origin}/jwks`,
            });
          }
          if (path === "/token" && redirectToken) {
            return new Response(null, {
              status: 307,
              headers: { location: real.token_endpoint },
            });
          }
          if (path === "/token") {
            // Passed on to the provider; its ID token re-signed (with its
            // own key) to name the front as issuer, so only the JWKS's
            // redirect can fail it.
            return (async () => {
              const answer = await fetch(real.token_endpoint, {
                method: "POST",
                headers: request.headers,
                body: await request.text(),
              });
              const body = await answer.json();
              if (body.id_token !== undefined) {
                body.id_token = await idp.sign({
                  ...decodeJwt(body.id_token),
                  iss: origin,
                });
              }
              return Response.json(body, { status: answer.status });
            })();
          }
          if (path === "/jwks") {
            return redirectJwks
              ? Response.redirect(real.jwks_uri, 302)
              : fetch(real.jwks_uri);
          }
          return new Response(null, { status: 404 });
        });
        try {
          const provider = providerOf(acmeOptions(front.origin));
          const redirected = await discoverSsoProvider(provider, {
            redirectUri: REDIRECT,
          });
          const before = idp.tokenRequests();
          const { result } = await signIn(world, "ada", {
            client: redirected,
            // The real provider names itself in `iss`; the front claims to be
            // the issuer, so the callback is told the front's name.
            editCallback: (p) => p.set("iss", front.origin),
          });
          assert(!result.ok);
          assertEquals(result.code, "sso_token_invalid");
          assertMatch(result.reason, /redirect/);
          assertEquals(idp.tokenRequests(), before);

          // The token endpoint answers, but the keys for the ID token's
          // signature sit behind a redirect.
          redirectToken = false;
          const keysMoved = await signIn(world, "ada", {
            client: redirected,
            editCallback: (p) => p.set("iss", front.origin),
          });
          assert(!keysMoved.result.ok);
          assertEquals(keysMoved.result.code, "sso_token_invalid");
          assertMatch(keysMoved.result.reason, /redirect/);
          assertEquals(idp.tokenRequests(), before + 1);

          const token = await idp.sign(claimsFor({ iss: front.origin }));
          const refused = await verifyLogoutToken(redirected, token, {
            now: Date.now(),
          });
          assert(!refused.ok);
          // Control: the same token passes once the JWKS answers directly.
          redirectJwks = false;
          const direct = await discoverSsoProvider(provider, {
            redirectUri: REDIRECT,
          });
          const accepted = await verifyLogoutToken(direct, token, {
            now: Date.now(),
          });
          assert(accepted.ok, accepted.ok ? "" : accepted.reason);
          const signedIn = await signIn(world, "ada", {
            client: direct,
            editCallback: (p) => p.set("iss", front.origin),
          });
          assert(
            signedIn.result.ok,
            signedIn.result.ok ? "" : signedIn.result.reason,
          );
        } finally {
          await front.server.shutdown();
        }
      },
    );

    await t.step(
      "the client secret appears in no error, reason, log or printout",
      async () => {
        // A wrong secret: the provider refuses the client at the token endpoint.
        const wrongSecret = "wrong-secret-also-never-printed-19bd";
        const wrong = await discoverSsoProvider(
          providerOf(acmeOptions(idp.issuer, { clientSecret: wrongSecret })),
          { redirectUri: REDIRECT },
        );
        const { result } = await signIn(world, "ada", { client: wrong });
        assert(!result.ok);
        assertEquals(result.code, "sso_token_invalid");
        assert(!result.reason.includes(wrongSecret));
        // A token endpoint that echoes the request (header and body) back.
        const echoing = await discoverSsoProvider(
          providerOf(acmeOptions(idp.issuer)),
          {
            redirectUri: REDIRECT,
            fetch: (url, init) => {
              if (!url.endsWith("/token")) return fetch(url, init);
              const headers = new Headers(init.headers);
              const echo = `${headers.get("authorization")} ${
                String(init.body)
              }`;
              return Promise.reject(
                new Error(`Token request failed: ${echo}`),
              );
            },
          },
        );
        const echoed = await signIn(world, "ada", { client: echoing });
        assert(!echoed.result.ok);
        assertMatch(
          echoed.result.reason,
          /Token request failed: Basic \[redacted\]/,
        );
        assert(!echoed.result.reason.includes(SECRET));
        for (
          const printed of [
            Deno.inspect(world.client, { depth: 10 }),
            Deno.inspect(world.client.provider),
            JSON.stringify(world.client.provider),
          ]
        ) {
          assert(!printed.includes(SECRET), printed);
        }
        assertEquals(world.client.provider.clientSecret, SECRET);
      },
    );
  } finally {
    await world.close();
  }
});

Deno.test("userinfo fills what the ID token lacks", async () => {
  // conformIdTokenClaims: the provider keeps email, name and groups for
  // userinfo, out of the ID token.
  const idp = await startTestProvider({
    clients: [{
      client_id: "gatehouse",
      client_secret: SECRET,
      redirect_uris: [REDIRECT],
    }],
    accounts: ACCOUNTS,
    conformIdTokenClaims: true,
  });
  try {
    let idToken: Record<string, unknown> = {};
    const client = await discoverSsoProvider(
      providerOf(acmeOptions(idp.issuer)),
      {
        redirectUri: REDIRECT,
        fetch: async (url, init) => {
          const response = await fetch(url, init);
          if (!url.endsWith("/token")) return response;
          const body = await response.json();
          idToken = decodeJwt(body.id_token);
          return Response.json(body);
        },
      },
    );
    const world = { idp, client, rewrite: null, logoutTokens: [] } as World;
    const { result } = await signIn(world, "ada");
    assert(result.ok, result.ok ? "" : result.reason);
    assertEquals(idToken.email, undefined);
    assertEquals(result.identity.email, "ada@acme.example");
    assertEquals(result.identity.emailVerified, true);
    assertEquals(result.identity.name, "Ada Lovelace");
    assertEquals(result.identity.roleValues, ["staff", "admins"]);
  } finally {
    await idp.close();
  }
});

Deno.test("ssoConnection answers null while the provider is down, logs once, retries later", async () => {
  const idp = await startTestProvider({ clients: [], accounts: {} });
  let down = true;
  let requests = 0;
  const front = serve(async (request, origin) => {
    requests++;
    if (down) return new Response("down", { status: 503 });
    const real = await (await fetch(
      `${idp.issuer}${new URL(request.url).pathname}`,
    )).json();
    return Response.json({ ...real, issuer: origin });
  });
  try {
    const lines: string[] = [];
    let clock = 1_000_000;
    const connection = ssoConnection(providerOf(acmeOptions(front.origin)), {
      redirectUri: REDIRECT,
      logger: {
        info: () => {},
        warn: (m, f) => lines.push(`${m} ${JSON.stringify(f)}`),
        error: (m, f) => lines.push(`${m} ${JSON.stringify(f)}`),
      },
      now: () => clock,
      retryAfter: 30_000,
    });
    const [a, b] = await Promise.all([
      connection.client(),
      connection.client(),
    ]);
    assertEquals([a, b], [null, null]);
    assertEquals(requests, 1); // one attempt shared
    assertEquals(lines.length, 1);
    assertMatch(lines[0]!, /SSO provider unavailable/);
    assert(!lines[0]!.includes(SECRET));
    clock += 10_000;
    assertEquals(await connection.client(), null);
    assertEquals(requests, 1); // too soon to try again
    down = false;
    clock += 30_000;
    const client = await connection.client();
    assert(client !== null);
    assertEquals(requests, 2);
    assertEquals(await connection.client(), client);
    assertEquals(requests, 2);
  } finally {
    await front.server.shutdown();
    await idp.close();
  }
});

Deno.test("resolveSsoProviders refuses a bad configuration with a clear error", () => {
  const ok = acmeOptions("https://idp.acme.example");
  const cases: [string, Partial<SsoProviderOptions>, RegExp][] = [
    ["id", { id: "Acme!" }, /id must match/],
    ["name", { name: " " }, /"acme": name must be/],
    ["issuer http", { issuer: "http://idp.acme.example" }, /https/],
    ["issuer query", { issuer: "https://idp.acme.example?x=1" }, /query/],
    ["issuer not a URL", { issuer: "idp" }, /issuer must be a URL/],
    ["client id", { clientId: "" }, /clientId/],
    ["secret", { clientSecret: "" }, /clientSecret/],
    ["scopes", { scopes: "email profile" }, /openid/],
    ["domain", { domains: ["not a domain"] }, /not a domain name/],
    ["enforce", { enforce: true, domains: [] }, /enforce needs domains/],
    ["flag", { syncRole: "yes" as unknown as boolean }, /syncRole/],
    ["role", { roleMap: { admins: "root" } }, /unknown role "root"/],
    ["default role", { defaultRole: "root" }, /unknown role "root"/],
    ["index keys", { roleMap: { "42": "admin", staff: "member" } }, /list of/],
  ];
  for (const [name, change, message] of cases) {
    assertThrows(
      () =>
        resolveSsoProviders(
          { providers: [{ ...ok, ...change }] },
          { knownRoles: ["admin", "member"] },
        ),
      TypeError,
      name,
    );
    try {
      resolveSsoProviders(
        { providers: [{ ...ok, ...change }] },
        { knownRoles: ["admin", "member"] },
      );
    } catch (error) {
      assertMatch((error as Error).message, message, name);
      assert(!(error as Error).message.includes(SECRET), name);
    }
  }
  assertThrows(() => resolveSsoProviders({ providers: [ok, ok] }), TypeError);
  assertThrows(
    () =>
      resolveSsoProviders({
        providers: [
          { ...ok, enforce: true },
          { ...ok, id: "beta", enforce: true },
        ],
      }),
    TypeError,
  );
  const [resolved] = resolveSsoProviders({
    providers: [{
      ...ok,
      issuer: "http://127.0.0.1:4000",
      scopes: "openid email",
      domains: ["ACME.example", "acme.example"],
    }],
  });
  assertEquals(resolved!.scopes, ["openid", "email"]);
  assertEquals(resolved!.domains, ["acme.example"]);
  assertEquals(resolved!.roleClaim, "groups");
  assertEquals(resolved!.createAccounts, false);
  assertEquals(resolved!.defaultRole, null);
  assertEquals(Object.keys(resolved!).includes("clientSecret"), false);
});

Deno.test("safeReturnPath keeps same-origin paths and answers / for the rest", () => {
  const kept = ["/", "/account", "/a/b?c=d&e=%2F%2Fx#frag", "/%5Cevil"];
  for (const path of kept) assertEquals(safeReturnPath(path), path, path);
  const refused = [
    null,
    undefined,
    "",
    "account",
    "//evil.example",
    "///evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/ok\r\nSet-Cookie: x=y",
    "/ok\nx",
    "/ok\rx",
    "/a b",
    "/caf\u00e9",
    "/\t/evil.example",
    "/.//evil.example",
    `/${"a".repeat(1100)}`,
  ];
  for (const path of refused) {
    assertEquals(safeReturnPath(path), "/", JSON.stringify(path));
  }
});

Deno.test("roles from the provider: first match in map order, fail-closed sync", () => {
  const provider = providerOf({
    ...acmeOptions("https://idp.acme.example"),
    defaultRole: "member",
  });
  assertEquals(mappedRole(provider, ["staff", "admins"]), "admin");
  assertEquals(mappedRole(provider, ["staff"]), "member");
  assertEquals(roleForNewAccount(provider, ["guests"]), "member");
  assertEquals(roleForNewAccount(provider, null), "member");
  assertEquals(roleForSync(provider, ["guests"]), "member");
  assertEquals(roleForSync(provider, null), null);
  const identity = identityFromClaims(provider, {
    iss: "https://idp.acme.example",
    sub: "1",
    groups: ["admins", 7, null],
  });
  assertEquals(identity.roleValues, ["admins"]);
});

Deno.test("redact removes a secret in plain, URL-encoded and Basic forms", () => {
  const secret = "s3cret/with+odd chars-and_dots.~";
  const basic = btoa(`client:${secret}`);
  const strictBasic = btoa(
    `client:${
      encodeURIComponent(secret).replace(
        /[-_.!~*'()]/g,
        (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      ).replace(/%20/g, "+")
    }`,
  );
  const text = `a ${secret} b ${
    encodeURIComponent(secret)
  } c ${new URLSearchParams({
    s: secret,
  })} d Basic ${basic} e Basic ${strictBasic} f client_secret=${
    encodeURIComponent(secret).replace(/-/g, "%2D")
  }&x=1`;
  const out = redact(text, secret);
  assert(!out.includes(secret) && !out.includes(basic), out);
  assert(!out.includes(strictBasic) && !out.includes("s3cret"), out);
  assertMatch(out, /&x=1$/);
  assert(!out.includes(encodeURIComponent(secret)), out);
  assertEquals(
    safeMessage(new Error(`bad ${secret}`), secret),
    "Error: bad [redacted]",
  );
  assertEquals(SSO_FLOW_TTL, 600_000);
});
