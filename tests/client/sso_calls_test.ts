// The single sign-on calls (DESIGN.md §13) through the REST transport and
// the canned handlers: the providers and linked identities in camelCase,
// the start as a navigation of the page (to the contract's route, with the
// return path and the re-authentication flag), the refusals as their
// classes, and a replaced transport used by the calls.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  login,
  ReauthenticationRequiredError,
  restTransport,
  ServerError,
  ValidationError,
} from "@gatehouse/client";
import {
  IdentityNotFoundError,
  LastSignInMethodError,
  listSsoIdentities,
  listSsoProviders,
  SsoRequiredError,
  startSso,
  unlinkSsoIdentity,
} from "@gatehouse/client/sso";
import * as testing from "@gatehouse/client/testing";
import { recordRequests, rejection } from "./_support.ts";

const env = testing.installTestEnvironment({
  url: "http://localhost/users?page=2&sso_error=sso_denied",
});
const ID = "0190f0a0-0000-7000-8000-0000000000e1";

/** A REST transport whose navigations are recorded instead of made. */
function navigating(): string[] {
  const went: string[] = [];
  configureAuthTransport(
    restTransport({ navigate: (url) => went.push(url) }),
  );
  return went;
}

Deno.test("listSsoProviders() answers the providers; none from a server without single sign-on", async () => {
  assert.deepEqual(await listSsoProviders(), [], "the environment's default");
  env.use(
    testing.listSsoProvidersOk([
      testing.sampleSsoProvider,
      { id: "okta", name: "Okta", domains: [], enforce: true },
    ]),
  );
  assert.deepEqual(await listSsoProviders(), [
    { id: "acme", name: "Acme SSO", domains: ["acme.example"], enforce: false },
    { id: "okta", name: "Okta", domains: [], enforce: true },
  ]);
});

Deno.test("listSsoIdentities() answers the identities in camelCase", async () => {
  env.use(testing.listSsoIdentitiesOk());
  assert.deepEqual(await listSsoIdentities(), [{
    id: ID,
    provider: "acme",
    name: "Ada Lovelace",
    email: "ada@acme.example",
    linkedAt: "2026-03-01T10:00:00.000Z",
  }]);
});

Deno.test("startSso() navigates the page to the start route, with the page's path (without sso_error) to come back to", async () => {
  const went = navigating();
  await startSso("acme");
  await startSso("acme", { returnTo: "/projects/7?tab=a b" });
  await startSso("acme", { reauthenticate: true });
  assert.deepEqual(
    went.map((url) => new URL(url)).map((url) => [
      url.origin,
      url.pathname,
      Object.fromEntries(url.searchParams),
    ]),
    [
      ["http://localhost", "/api/auth/sso/acme/start", {
        return_to: "/users?page=2",
      }],
      ["http://localhost", "/api/auth/sso/acme/start", {
        return_to: "/projects/7?tab=a b",
      }],
      ["http://localhost", "/api/auth/sso/acme/start", {
        return_to: "/users?page=2",
        reauthenticate: "1",
      }],
    ],
  );
});

Deno.test("startSso() encodes the provider's id and resolves against the transport's base URL", async () => {
  const went: string[] = [];
  configureAuthTransport(
    restTransport({
      baseUrl: "https://auth.example",
      navigate: (url) => went.push(url),
    }),
  );
  await startSso("a/b", { returnTo: "/" });
  assert.deepEqual(went, [
    "https://auth.example/api/auth/sso/a%2Fb/start?return_to=%2F",
  ]);
});

Deno.test("startSso() is a navigation: it fetches nothing", async () => {
  const recorder = recordRequests(env);
  navigating();
  await startSso("acme");
  recorder.stop();
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("startSso() rejects, rather than throws, when navigating fails", async () => {
  configureAuthTransport(
    restTransport({
      navigate: () => {
        throw new TypeError("no page");
      },
    }),
  );
  const promise = startSso("acme");
  assert.ok(promise instanceof Promise);
  assert.ok((await rejection(promise)) instanceof TypeError);
});

Deno.test("a replaced startSso is the one the call uses", async () => {
  const calls: unknown[] = [];
  configureAuthTransport({
    startSso: (provider, options) => {
      calls.push([provider, options]);
      return Promise.resolve();
    },
  });
  await startSso("acme", { reauthenticate: true });
  assert.deepEqual(calls, [["acme", { reauthenticate: true }]]);
});

Deno.test("unlinkSsoIdentity() sends DELETE to the identity's route and answers nothing", async () => {
  env.use(testing.unlinkSsoIdentityOk());
  const recorder = recordRequests(env);
  assert.equal(await unlinkSsoIdentity(ID), undefined);
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "DELETE");
  assert.equal(sent?.url.pathname, `/api/auth/sso/identities/${ID}`);
});

Deno.test("the refusals of single sign-on arrive as their classes", async () => {
  env.use(testing.unlinkSsoIdentityRefused("last_sign_in_method"));
  const last = await rejection(unlinkSsoIdentity(ID));
  assert.ok(last instanceof LastSignInMethodError);
  assert.equal(last.status, 409);
  env.use(testing.unlinkSsoIdentityRefused("identity_not_found"));
  assert.ok(
    (await rejection(unlinkSsoIdentity(ID))) instanceof IdentityNotFoundError,
  );
  env.use(testing.unlinkSsoIdentityRefused("reauthentication_required"));
  assert.ok(
    (await rejection(unlinkSsoIdentity(ID))) instanceof
      ReauthenticationRequiredError,
  );
  env.use(testing.refuse("unlinkSsoIdentity", "identity_id_malformed"));
  assert.ok(
    (await rejection(unlinkSsoIdentity("x"))) instanceof ValidationError,
  );
  // The provider list is refused only by a failure of the server (the
  // providers are not asked: provider_unavailable comes from a start).
  env.use(testing.refuse("listSsoProviders", "internal"));
  assert.ok((await rejection(listSsoProviders())) instanceof ServerError);
});

Deno.test("a password sign-in refused for an enforced domain is SsoRequiredError naming the provider", async () => {
  env.use(
    testing.refuse("login", "sso_required", { meta: { provider: "acme" } }),
  );
  const error = await rejection(login("ada@acme.example", "pw"));
  assert.ok(error instanceof SsoRequiredError);
  assert.equal(error.provider, "acme");
  assert.equal(error.status, 403);
  assert.equal(new SsoRequiredError().provider, undefined);
});

Deno.test("the canned callback handlers answer the redirects the server does", async () => {
  env.use(testing.ssoCallbackError("sso_email_unverified"));
  const failed = await fetch(
    "http://localhost/api/auth/sso/acme/callback?code=c&state=s",
    { redirect: "manual" },
  );
  assert.equal(failed.status, 303);
  assert.equal(
    failed.headers.get("location"),
    "/?sso_error=sso_email_unverified",
  );
  env.use(testing.startSsoOk("https://login.acme.example/authorize?x=1"));
  const started = await fetch("http://localhost/api/auth/sso/acme/start", {
    redirect: "manual",
  });
  assert.equal(started.status, 302);
  assert.equal(
    started.headers.get("location"),
    "https://login.acme.example/authorize?x=1",
  );
});
