// Replacing the transport: configureAuthTransport() replaces any subset,
// calls add up, resetAuthTransport() restores REST; the public calls keep
// their rules whatever the transport; restTransport() takes a base URL and
// a fetch.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  fetchSession,
  isSessionRevoked,
  login,
  logout,
  resetAuthTransport,
  restTransport,
  type SessionUser,
  UnauthorizedError,
} from "@gatehouse/client";
import {
  EmailTakenError,
  InvitationFailedError,
  invite,
  listUsers,
} from "@gatehouse/client/admin";
import {
  defaultUser,
  fetchSessionAnonymous,
  installTestEnvironment,
  listUsersOk,
  loginOk,
  logoutOk,
  userWithRole,
} from "@gatehouse/client/testing";
import { recordRequests } from "./_support.ts";

const env = installTestEnvironment({
  handlers: [fetchSessionAnonymous(), loginOk(), logoutOk(), listUsersOk()],
});
const admin = userWithRole("admin");

Deno.test("configureAuthTransport() replaces only the operations it is given", async () => {
  configureAuthTransport({ fetchSession: () => Promise.resolve(admin) });
  assert.deepEqual(await fetchSession(), admin, "replaced");
  assert.deepEqual(
    await login("u@example.com", "p"),
    defaultUser,
    "login stays on REST",
  );
  assert.equal(
    (await listUsers()).users.length,
    2,
    "listUsers stays on REST",
  );
});

Deno.test("configureAuthTransport() calls add up, and a later call wins for the same operation", async () => {
  const member = userWithRole("member");
  const loggedOut: string[] = [];
  configureAuthTransport({ login: () => Promise.resolve(member) });
  configureAuthTransport({
    logout: () => {
      loggedOut.push("custom");
      return Promise.resolve();
    },
  });
  assert.deepEqual(
    await login("u@example.com", "p"),
    member,
    "the first call still holds",
  );
  await logout();
  assert.deepEqual(loggedOut, ["custom"], "the second call holds too");
  configureAuthTransport({ login: () => Promise.resolve(admin) });
  assert.deepEqual(await login("u@example.com", "p"), admin, "replaced again");
  assert.equal(await fetchSession(), null, "fetchSession stays on REST");
});

Deno.test("resetAuthTransport() restores REST for every operation", async () => {
  configureAuthTransport({
    fetchSession: () => Promise.resolve(admin),
    login: () => Promise.resolve(admin),
    isSessionRevoked: () => false,
  });
  resetAuthTransport();
  const recorder = recordRequests(env);
  assert.equal(await fetchSession(), null);
  assert.deepEqual(await login("u@example.com", "p"), defaultUser);
  recorder.stop();
  assert.deepEqual(
    (await recorder.requests()).map((r) => r.url.pathname),
    ["/api/auth/session", "/api/auth/login"],
  );
  assert.equal(isSessionRevoked(new UnauthorizedError()), true);
});

Deno.test("configureAuthTransport() refuses unknown operations and non-functions", () => {
  assert.throws(
    () => configureAuthTransport({ fetchUser: () => {} } as never),
    { name: "TypeError", message: 'Unknown transport operation: "fetchUser"' },
  );
  assert.throws(
    () => configureAuthTransport({ login: "nope" } as never),
    TypeError,
  );
});

Deno.test("fetchSession() never throws even when a replacement does", async () => {
  const boom = new Error("replacement failed");
  configureAuthTransport({ fetchSession: () => Promise.reject(boom) });
  const failures: unknown[] = [];
  assert.equal(
    await fetchSession({ onFailure: (e) => failures.push(e) }),
    null,
  );
  assert.deepEqual(failures, [boom]);
});

Deno.test("invite() never reveals a taken address, nor answers a link-less failure, whatever the transport", async () => {
  configureAuthTransport({
    invite: () => Promise.reject(new EmailTakenError()),
  });
  await assert.rejects(
    invite({ email: "a@example.com", name: "A" }),
    InvitationFailedError,
  );
  configureAuthTransport({
    invite: () => Promise.resolve({ delivered: false, activationLink: "" }),
  });
  await assert.rejects(
    invite({ email: "a@example.com", name: "A" }),
    InvitationFailedError,
  );
});

Deno.test("isSessionRevoked() asks the transport", () => {
  class GoneError extends Error {}
  configureAuthTransport({ isSessionRevoked: (e) => e instanceof GoneError });
  assert.equal(isSessionRevoked(new GoneError()), true);
  assert.equal(isSessionRevoked(new UnauthorizedError()), false);
});

Deno.test("restTransport() sends to its base URL through its fetch", async () => {
  const calls: string[] = [];
  const transport = restTransport({
    baseUrl: "https://api.example.test/app/",
    fetch: (input) => {
      calls.push(String(input));
      return Promise.resolve(Response.json(defaultUser satisfies SessionUser));
    },
  });
  assert.deepEqual(await transport.login("u@example.com", "p"), defaultUser);
  assert.deepEqual(calls, ["https://api.example.test/api/auth/login"]);
});

// Runs after the tests above: the environment's cleanup restored REST.
Deno.test("the test environment restores REST between tests", async () => {
  assert.equal(await fetchSession(), null);
  assert.deepEqual(await login("u@example.com", "p"), defaultUser);
});
