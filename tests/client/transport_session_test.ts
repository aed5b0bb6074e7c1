// The REST transport's session operations against the package's own fake
// server: the "Must do" cells of SPEC.md's transport table for
// fetchSession and login, the request each sends (DESIGN.md §4), and the
// wire rules every call keeps (relative /api URLs, same-origin cookies).

import assert from "node:assert/strict";
import {
  fetchSession,
  InvalidCredentialsError,
  isSessionRevoked,
  login,
  logout,
  NetworkError,
  RateLimitedError,
  ServerError,
  UnexpectedResponseError,
} from "@gatehouse/client";
import {
  acceptInvite,
  createUser,
  invite,
  listUsers,
  requestPasswordReset,
  resetPassword,
  setUserDisabled,
  setUserRole,
} from "@gatehouse/client/admin";
import {
  acceptInviteOk,
  createUserOk,
  defaultUser,
  fetchSessionAnonymous,
  fetchSessionOk,
  fetchSessionUnavailable,
  installTestEnvironment,
  inviteDelivered,
  listUsersOk,
  loginInvalid,
  loginOk,
  loginRateLimited,
  logoutOk,
  networkFailure,
  refuse,
  requestPasswordResetOk,
  resetPasswordOk,
  setUserDisabledOk,
  setUserRoleOk,
  userWithCapabilities,
} from "@gatehouse/client/testing";
import { http, HttpResponse } from "msw";
import { recordRequests, rejection } from "./_support.ts";

const env = installTestEnvironment();
const ID = "0190f0a0-0000-7000-8000-00000000abcd";

// fetchSession: "Return null when signed out; never throw."

Deno.test("fetchSession() answers the signed-in account with its lists", async () => {
  const admin = userWithCapabilities("admin", ["users.manage"], ["member"]);
  env.use(
    http.get("*/api/auth/session", () => HttpResponse.json({ ...admin })),
  );
  assert.deepEqual(await fetchSession(), admin);
});

Deno.test("fetchSession() answers null when signed out", async () => {
  env.use(fetchSessionAnonymous());
  assert.equal(await fetchSession(), null);
});

Deno.test("fetchSession() never throws: no answer, 500 and a malformed answer give null", async (t) => {
  const cases = [
    {
      name: "network failure",
      handler: networkFailure("fetchSession"),
      kind: NetworkError,
    },
    {
      name: "server error",
      handler: fetchSessionUnavailable(),
      kind: ServerError,
    },
    {
      name: "identity without an id",
      handler: http.get(
        "*/api/auth/session",
        () => HttpResponse.json({ email: "a@example.com" }),
      ),
      kind: UnexpectedResponseError,
    },
    {
      name: "a body that is not JSON",
      handler: http.get(
        "*/api/auth/session",
        () => new HttpResponse("<html>", { status: 200 }),
      ),
      kind: UnexpectedResponseError,
    },
  ];
  for (const { name, handler, kind } of cases) {
    await t.step(name, async () => {
      env.use(handler);
      const failures: unknown[] = [];
      assert.equal(
        await fetchSession({ onFailure: (e) => failures.push(e) }),
        null,
      );
      assert.equal(failures.length, 1);
      assert.ok(
        failures[0] instanceof kind,
        `expected ${kind.name}, got ${failures[0]}`,
      );
      assert.equal(await fetchSession(), null, "without onFailure too");
    });
  }
});

Deno.test("fetchSession() does not report a signed-out answer as a failure", async () => {
  env.use(fetchSessionAnonymous());
  const failures: unknown[] = [];
  assert.equal(
    await fetchSession({ onFailure: (e) => failures.push(e) }),
    null,
  );
  assert.deepEqual(failures, []);
});

// login: "Throw InvalidCredentialsError for a bad password; RateLimitedError
// when the limiter refuses."

Deno.test("login() posts {email, password} and answers the account", async () => {
  env.use(loginOk());
  const recorder = recordRequests(env);
  const user = await login("user@example.com", "a password");
  recorder.stop();
  assert.deepEqual(user, defaultUser);
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "POST");
  assert.equal(sent?.url.pathname, "/api/auth/login");
  assert.deepEqual(sent?.body, {
    email: "user@example.com",
    password: "a password",
  });
});

Deno.test("login() throws InvalidCredentialsError for a bad password", async () => {
  env.use(loginInvalid());
  const error = await rejection(login("user@example.com", "wrong"));
  assert.ok(error instanceof InvalidCredentialsError);
  assert.equal(error.status, 401);
  assert.equal(error.code, "credentials_invalid");
  assert.equal(
    isSessionRevoked(error),
    false,
    "a refused login does not revoke a session",
  );
});

Deno.test("login() throws RateLimitedError with the Retry-After seconds", async () => {
  env.use(loginRateLimited());
  const error = await rejection(login("user@example.com", "guess"));
  assert.ok(error instanceof RateLimitedError);
  assert.equal(error.retryAfter, 60);
  env.use(refuse("login", "login_rate_limited", { retryAfter: 7 }));
  const again = await rejection(login("user@example.com", "guess"));
  assert.ok(again instanceof RateLimitedError);
  assert.equal(again.retryAfter, 7);
});

Deno.test("logout() posts to /api/auth/logout and resolves on 204", async () => {
  env.use(logoutOk());
  const recorder = recordRequests(env);
  assert.equal(await logout(), undefined);
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "POST");
  assert.equal(sent?.url.pathname, "/api/auth/logout");
});

// The wire: relative URLs against the page, the page's cookies.

Deno.test("every REST call uses a relative /api URL on the page's origin with credentials same-origin", async () => {
  env.use(
    fetchSessionOk(),
    loginOk(),
    logoutOk(),
    listUsersOk(),
    createUserOk(),
    setUserDisabledOk(),
    setUserRoleOk(),
    inviteDelivered(),
    acceptInviteOk(),
    requestPasswordResetOk(),
    resetPasswordOk(),
  );
  const realFetch = globalThis.fetch;
  const seen: Array<
    { url: string; credentials: RequestCredentials | undefined }
  > = [];
  globalThis.fetch = (input, init) => {
    seen.push({ url: String(input), credentials: init?.credentials });
    return realFetch(input, init);
  };
  try {
    await fetchSession();
    await login("a@example.com", "p");
    await logout();
    await listUsers();
    await createUser({
      email: "a@example.com",
      name: "A",
      password: "long enough password",
    });
    await setUserDisabled(ID, true);
    await setUserRole(ID, "member");
    await invite({ email: "a@example.com", name: "A" });
    await acceptInvite("t", "long enough password");
    await requestPasswordReset("a@example.com");
    await resetPassword("t", "long enough password");
  } finally {
    globalThis.fetch = realFetch;
  }
  assert.equal(seen.length, 11);
  for (const { url, credentials } of seen) {
    assert.match(
      url,
      /^http:\/\/localhost\/api\//,
      "resolved against the page's location",
    );
    assert.equal(credentials, "same-origin");
  }
});
