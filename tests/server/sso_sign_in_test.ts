// Single sign-on through the HTTP API (DESIGN.md §13), against a real
// provider (npm:oidc-provider in process) and createGatehouse's routes on
// Deno.serve, on Deno KV, Postgres and SQLite: the first sign-in creates or
// links an account, a later one finds the identity by (iss, sub) whatever
// address the provider sends, roles follow the provider's groups, an
// invitation is spent by the invited person's sign-in, the provider's
// back-channel logout ends exactly that sign-in's sessions, a
// re-authentication renews the proof, and 200 callbacks racing with one
// state make one session.

import { generateKeyPair, SignJWT } from "jose";
import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import {
  landing,
  type SsoWorld,
  ssoWorld,
  TestBrowser,
} from "../fixtures/sso.ts";
import { BACKCHANNEL_LOGOUT_EVENT } from "../../server/core/sso/logout_token.ts";
import type { Store } from "../../mod.ts";
import type { AuditEvent } from "../../server/core/store.ts";
import { hashToken, randomToken, uuidv7 } from "../../server/core/_crypto.ts";

const ACCOUNTS = () => ({
  ada: {
    email: "ada@acme.example",
    email_verified: true,
    name: "Ada Lovelace",
    groups: ["staff"],
  },
  bob: {
    email: "bob@acme.example",
    email_verified: true,
    name: "Bob at Acme",
    groups: ["admins"],
  },
  cid: { email: "cid@acme.example", email_verified: true, name: "Cid" },
});

async function events(world: SsoWorld): Promise<AuditEvent[]> {
  await world.gatehouse.settled();
  return (await world.store.listAuditEvents({ limit: 100 })).events.reverse();
}

async function sessionsOf(world: SsoWorld, browser: TestBrowser) {
  const res = await world.call(browser, "GET", "/api/auth/sessions");
  assertEquals(res.status, 200);
  return (await res.json()).sessions as {
    id: string;
    via?: string | null;
    current: boolean;
  }[];
}

async function identitiesOf(world: SsoWorld, browser: TestBrowser) {
  const res = await world.call(browser, "GET", "/api/auth/sso/identities");
  assertEquals(res.status, 200);
  return (await res.json()).identities as {
    id: string;
    provider: string;
    name: string;
    email: string;
    linked_at: string;
  }[];
}

const logoutClaims = (world: SsoWorld, extra: Record<string, unknown>) => ({
  iss: world.idp!.issuer,
  aud: "gatehouse",
  iat: Math.floor(Date.now() / 1000),
  jti: crypto.randomUUID(),
  events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  ...extra,
});

function postLogout(world: SsoWorld, token: string): Promise<Response> {
  return fetch(`${world.origin}/api/auth/sso/acme/backchannel-logout`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ logout_token: token }),
  });
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("gave up waiting");
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `single sign-on through the API with a real provider: create, link, roles, invitation, logout, re-authentication (${backend.name})`,
    ignore: backend.ignore,
    async fn(t) {
      const { store, close } = await backend.open();
      const accounts: Record<string, Record<string, unknown>> = ACCOUNTS();
      const world = await ssoWorld(store, {
        accounts,
        provider: { createAccounts: true, syncRole: true },
        gatehouse: {
          reauthenticationWindow: 1500,
          requireSecondFactor: ["support"],
        },
      });
      const { idp } = world;
      try {
        await sessionChecks(t, world, accounts, store, idp!.issuer);
      } finally {
        await world.close();
        await close();
      }
    },
  });
}

async function sessionChecks(
  t: Deno.TestContext,
  world: SsoWorld,
  accounts: Record<string, Record<string, unknown>>,
  store: Store,
  issuer: string,
) {
  const adaBrowser = new TestBrowser();
  let adaId = "";

  await t.step("the providers list names the button", async () => {
    const res = await fetch(`${world.origin}/api/auth/sso`);
    assertEquals(await res.json(), {
      providers: [{
        id: "acme",
        name: "Acme",
        domains: ["acme.example"],
        enforce: false,
      }],
    });
  });

  await t.step(
    "the start redirects with state, nonce, PKCE S256 and the SSO cookie",
    async () => {
      const browser = new TestBrowser();
      const res = await browser.request(
        `${world.origin}/api/auth/sso/acme/start?return_to=/account`,
      );
      await res.body?.cancel();
      assertEquals(res.status, 302);
      const url = new URL(res.headers.get("location")!);
      assertEquals(url.origin, issuer);
      assertEquals(url.searchParams.get("response_type"), "code");
      assertEquals(url.searchParams.get("code_challenge_method"), "S256");
      assert(url.searchParams.get("state")!.length >= 43);
      assert(url.searchParams.get("nonce")!.length >= 43);
      assertEquals(url.searchParams.get("redirect_uri"), world.callbackUrl);
      const cookie = res.headers.getSetCookie()[0]!;
      assertMatch(
        cookie,
        /^__Host-gatehouse-sso=[^;]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
      assert(!res.headers.get("location")!.includes(world.callbackUrl + "?"));
    },
  );

  await t.step(
    "a first sign-in creates the account, with the role of its groups",
    async () => {
      const { answer } = await world.signIn(adaBrowser, "ada", {
        returnTo: "/account?tab=sso",
      });
      assertEquals(landing(answer), "/account?tab=sso");
      const cookies = answer.headers.getSetCookie();
      assert(cookies.some((c) => c.startsWith("__Host-session=")));
      assert(cookies.some((c) => /^__Host-gatehouse-sso=; Max-Age=0/.test(c)));
      const me = await world.identity(adaBrowser);
      assert(me !== null);
      adaId = me.id as string;
      assertEquals(me.email, "ada@acme.example");
      assertEquals(me.name, "Ada Lovelace");
      assertEquals(me.role, "member");
      const [identity, ...more] = await identitiesOf(world, adaBrowser);
      assertEquals(more, []);
      assertEquals(identity!.provider, "acme");
      assertEquals(identity!.email, "ada@acme.example");
      assertEquals(identity!.name, "Ada Lovelace");
      const [session] = await sessionsOf(world, adaBrowser);
      assertEquals(session!.via, "Acme");
      const trail = await events(world);
      const created = trail.find((e) => e.type === "user.created")!;
      assertEquals(created.targetId, adaId);
      assertEquals(created.actorId, null);
      assertEquals(created.detail.via, "sso");
      assert(trail.some((e) => e.type === "sso.linked" && e.actorId === adaId));
      const login = trail.findLast((e) => e.type === "login.succeeded")!;
      assertEquals(login.detail.method, "sso");
      assertEquals(login.detail.provider, "acme");
    },
  );

  await t.step(
    "a later sign-in finds the identity by (iss, sub) even when the provider sends another address",
    async () => {
      // Another account holds the address the provider sends now: an
      // identity is never matched by address again (nOAuth).
      const grace = await addUser(store, { email: "grace@acme.example" });
      accounts.ada!.email = "grace@acme.example";
      const browser = new TestBrowser();
      const { answer } = await world.signIn(browser, "ada");
      assertEquals(landing(answer), "/");
      const me = await world.identity(browser);
      assertEquals(me?.id, adaId);
      assertEquals(me?.email, "ada@acme.example");
      assert(me?.id !== grace.id);
      const [identity] = await identitiesOf(world, browser);
      assertEquals(identity!.email, "grace@acme.example");
      accounts.ada!.email = "ada@acme.example";
    },
  );

  await t.step(
    "a first sign-in links the account of its verified address",
    async () => {
      const bob = await addUser(store, {
        email: "Bob@Acme.example",
        role: "member",
      });
      const browser = new TestBrowser();
      const { answer } = await world.signIn(browser, "bob");
      assertEquals(landing(answer), "/");
      const me = await world.identity(browser);
      assertEquals(me?.id, bob.id);
      // A linked account follows the groups at once (syncRole).
      assertEquals(me?.role, "admin");
      const trail = await events(world);
      const changed = trail.findLast((e) => e.type === "user.role_changed")!;
      assertEquals(changed.actorId, null);
      assertEquals(changed.targetId, bob.id);
      assertEquals(changed.detail, {
        old_role: "member",
        new_role: "admin",
        via: "sso",
        provider: "acme",
      });
      assert(
        trail.some((e) => e.type === "sso.linked" && e.actorId === bob.id),
      );
      // Still the way in it was: the password signs in too.
      const login = await fetch(`${world.origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "bob@acme.example", password: PASSWORD }),
      });
      await login.body?.cancel();
      assertEquals(login.status, 200);
    },
  );

  await t.step(
    "roles follow the groups at every sign-in, fail closed without the claim, and a demotion ends the invitations beyond the new role",
    async () => {
      const roleAfter = async () => {
        const browser = new TestBrowser();
        await world.signIn(browser, "ada");
        return (await world.identity(browser))?.role;
      };
      accounts.ada!.groups = ["staff", "admins"];
      assertEquals(await roleAfter(), "admin");
      // An invitation Ada sent as admin ends with the demotion, so the
      // role given back does not revive it.
      const now = Date.now();
      const sent = hashToken(randomToken());
      await store.createLink({
        tokenHash: sent,
        id: uuidv7(),
        kind: "invitation",
        email: "dee@acme.example",
        emailKey: "dee@acme.example",
        name: "Dee Invited",
        role: "admin",
        userId: "",
        invitedBy: (await store.credentialsByEmail("ada@acme.example"))!.user
          .id,
        generation: 0,
        createdAt: now,
        expiresAt: now + 3_600_000,
      });
      accounts.ada!.groups = ["guests"];
      assertEquals(await roleAfter(), "");
      accounts.ada!.groups = ["admins"];
      assertEquals(await roleAfter(), "admin");
      assertEquals(await store.findLink(sent, "invitation", now), null);
      delete accounts.ada!.groups;
      assertEquals(await roleAfter(), "");
      accounts.ada!.groups = ["staff"];
      assertEquals(await roleAfter(), "member");
    },
  );

  await t.step(
    "a pending invitation for the address is spent by the sign-in",
    async () => {
      const now = Date.now();
      await store.createLink({
        tokenHash: hashToken(randomToken()),
        id: uuidv7(),
        kind: "invitation",
        email: "cid@acme.example",
        emailKey: "cid@acme.example",
        name: "Cid Invited",
        role: "support",
        userId: "",
        invitedBy: adaId === "" ? "" : (await store.credentialsByEmail(
          "bob@acme.example",
        ))!.user.id,
        generation: 0,
        createdAt: now,
        expiresAt: now + 3_600_000,
      });
      const browser = new TestBrowser();
      const { answer } = await world.signIn(browser, "cid");
      assertEquals(landing(answer), "/");
      const me = await world.identity(browser);
      assertEquals(me?.name, "Cid Invited");
      assertEquals(me?.role, "support");
      assertEquals(await store.listInvitations(Date.now()), []);
      const trail = await events(world);
      const accepted = trail.findLast((e) => e.type === "invitation.accepted")!;
      assertEquals(accepted.actorId, me?.id);
      assertEquals(accepted.detail.via, "sso");
      assert(
        !trail.some((e) => e.type === "user.created" && e.targetId === me?.id),
      );
      // The provider owns the second factor: a role that requires one is
      // satisfied by a single sign-on's session...
      assertEquals(me?.second_factor_required, false);
      const listed = await world.call(
        browser,
        "GET",
        "/api/auth/sso/identities",
      );
      await listed.body?.cancel();
      assertEquals(listed.status, 200);
      // ...not by a password's (the control).
      await addUser(store, { email: "desk@example.org", role: "support" });
      const desk = new TestBrowser();
      const login = await desk.request(`${world.origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "desk@example.org", password: PASSWORD }),
      });
      assertEquals((await login.json()).second_factor_required, true);
      const refused = await world.call(desk, "GET", "/api/auth/sso/identities");
      assertEquals(refused.status, 403);
      assertEquals((await refused.json()).code, "second_factor_required");
    },
  );

  await t.step(
    "the provider's back-channel logout ends exactly that sign-in's sessions",
    async () => {
      const [one, two] = [new TestBrowser(), new TestBrowser()];
      await world.signIn(one, "bob");
      await world.signIn(two, "bob");
      const password = new TestBrowser();
      const login = await password.request(`${world.origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "bob@acme.example", password: PASSWORD }),
      });
      await login.body?.cancel();
      assertEquals(login.status, 200);
      assert(await world.identity(one) !== null);
      // Signing out at the provider, which posts its logout token (with
      // the `sid` of browser one's sign-in) to the back-channel URI.
      await one.signOut(issuer, "gatehouse");
      await until(async () => await world.identity(one) === null);
      assert(await world.identity(two) !== null);
      assert(await world.identity(password) !== null);
      assert(await world.identity(adaBrowser) !== null);
      const logout = (await events(world)).findLast((e) =>
        e.type === "logout"
      )!;
      assertEquals(logout.detail.method, "backchannel");
      assertEquals(logout.detail.sessions, "1");
    },
  );

  await t.step(
    "a logout token naming the person ends every session their sign-ins with the provider made, once",
    async () => {
      const two = new TestBrowser();
      await world.signIn(two, "bob");
      const password = new TestBrowser();
      await password.request(`${world.origin}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "bob@acme.example", password: PASSWORD }),
      }).then((res) => res.body?.cancel());
      const token = await world.idp!.sign(logoutClaims(world, { sub: "bob" }), {
        typ: "logout+jwt",
      });
      const res = await postLogout(world, token);
      assertEquals(res.status, 200);
      assertEquals(await res.text(), "");
      assertEquals(await world.identity(two), null);
      assert(await world.identity(password) !== null);
      assert(await world.identity(adaBrowser) !== null);
      // The same token again ends nothing: a session made since stays.
      const three = new TestBrowser();
      await world.signIn(three, "bob");
      const again = await postLogout(world, token);
      await again.body?.cancel();
      assertEquals(again.status, 200);
      assert(await world.identity(three) !== null);
    },
  );

  await t.step(
    "a forged logout token is refused 400 logout_token_invalid and ends nothing",
    async () => {
      const { privateKey } = await generateKeyPair("RS256");
      const forged = await new SignJWT(logoutClaims(world, { sub: "ada" }))
        .setProtectedHeader({ alg: "RS256", kid: world.idp!.kid })
        .sign(privateKey);
      const res = await postLogout(world, forged);
      assertEquals(res.status, 400);
      assertEquals((await res.json()).code, "logout_token_invalid");
      assert(await world.identity(adaBrowser) !== null);
    },
  );

  await t.step(
    "a re-authentication through the provider renews the proof, making no session",
    async () => {
      // Past the 1.5 s window: a `fresh` write asks for a new proof.
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const [identity] = await identitiesOf(world, adaBrowser);
      const unlink = () =>
        world.call(
          adaBrowser,
          "DELETE",
          `/api/auth/sso/identities/${identity!.id}`,
        );
      const stale = await unlink();
      assertEquals(stale.status, 403);
      assertEquals((await stale.json()).code, "reauthentication_required");
      const before = (await sessionsOf(world, adaBrowser)).length;
      const { start, answer } = await world.signIn(adaBrowser, "ada", {
        reauthenticate: true,
        returnTo: "/account",
      });
      const asked = new URL(start.headers.get("location")!);
      assertEquals(asked.searchParams.get("prompt"), "login");
      assertEquals(asked.searchParams.get("max_age"), "0");
      assertEquals(landing(answer), "/account");
      assert(
        !answer.headers.getSetCookie().some((c) =>
          c.startsWith("__Host-session=")
        ),
      );
      assertEquals((await sessionsOf(world, adaBrowser)).length, before);
      // Fresh now: the unlink is judged, and refused as ada's last way in.
      const last = await unlink();
      assertEquals(last.status, 409);
      assertEquals((await last.json()).code, "last_sign_in_method");
      const trail = await events(world);
      const renewed = trail.findLast((e) => e.type === "reauthenticated")!;
      assertEquals(renewed.detail.method, "sso");
    },
  );

  await t.step(
    "200 concurrent callbacks replaying one state make one session",
    async () => {
      const browser = new TestBrowser();
      const start = await browser.request(
        `${world.origin}/api/auth/sso/acme/start?return_to=/once`,
      );
      await start.body?.cancel();
      const callback = await browser.authorize(
        start.headers.get("location")!,
        "ada",
        world.callbackUrl,
      );
      const cookie = start.headers.getSetCookie()[0]!.split(";")[0]!;
      const sessionsBefore = (await store.listSessions(adaId, Date.now()))
        .length;
      const tokensBefore = world.idp!.tokenRequests();
      const answers = await Promise.all(
        Array.from(
          { length: 200 },
          () =>
            fetch(callback, { headers: { cookie }, redirect: "manual" })
              .then(async (res) => {
                await res.body?.cancel();
                return res.headers.get("location");
              }),
        ),
      );
      assertEquals(answers.filter((l) => l === "/once").length, 1);
      assertEquals(
        answers.filter((l) => l === "/?sso_error=sso_state_invalid").length,
        199,
      );
      assertEquals(world.idp!.tokenRequests() - tokensBefore, 1);
      assertEquals(
        (await store.listSessions(adaId, Date.now())).length,
        sessionsBefore + 1,
      );
    },
  );
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a logout token naming a person ends only that identity's sessions, not another identity's of the same account (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      // Two people at the provider with one verified address: both link to
      // the one account here (by address, at their first sign-in).
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
        const ada = await addUser(store, { email: "ada@acme.example" });
        const [one, two] = [new TestBrowser(), new TestBrowser()];
        await world.signIn(one, "ada");
        await world.signIn(two, "ada-2");
        assertEquals((await world.identity(one))?.id, ada.id);
        assertEquals((await world.identity(two))?.id, ada.id);
        assertEquals((await store.listIdentities(ada.id)).length, 2);
        const token = await world.idp!.sign(
          logoutClaims(world, { sub: "ada" }),
          { typ: "logout+jwt" },
        );
        const res = await postLogout(world, token);
        await res.body?.cancel();
        assertEquals(res.status, 200);
        assertEquals(await world.identity(one), null);
        assert(
          await world.identity(two) !== null,
          "the session ada-2's sign-in made outlives a logout of ada",
        );
      } finally {
        await world.close();
        await close();
      }
    },
  });
}
