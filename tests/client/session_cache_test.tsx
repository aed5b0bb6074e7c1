// The session in the query cache: useSession(), useLogout() (keeps only the
// session query), adoptSession() (clears like a logout), can(), and the
// drop on whatever the transport calls a revoked session.

import assert from "node:assert/strict";
import {
  adoptSession,
  can,
  configureAuthTransport,
  createAuthQueryClient,
  sessionQueryKey,
  useLogout,
  useSession,
} from "@gatehouse/client";
import {
  defaultUser,
  fetchSessionAnonymous,
  installTestEnvironment,
  logoutOk,
  networkFailure,
  seedSession,
  userWithCapabilities,
  userWithRole,
} from "@gatehouse/client/testing";
import { type QueryClient, QueryClientProvider } from "@tanstack/preact-query";
import { fireEvent, render, waitFor } from "@testing-library/preact";
import { OPERATIONS } from "@gatehouse/contract";
import { http } from "msw";
import { recordRequests } from "./_support.ts";

const env = installTestEnvironment({
  handlers: [fetchSessionAnonymous(), logoutOk()],
});

function cachedKeys(client: QueryClient): string[] {
  return client.getQueryCache().getAll().map((query) =>
    JSON.stringify(query.queryKey)
  );
}

function fillCache(client: QueryClient): void {
  client.setQueryData(["users"], { users: [], nextCursor: null });
  client.setQueryData(["projects", 1], { name: "Secret" });
  client.setQueryData(["gatehouse", "other"], "not the session");
}

function SignOut() {
  const user = useSession();
  const logout = useLogout();
  return (
    <div>
      <p>{user === null ? "Signed out" : `Signed in as ${user.name}`}</p>
      <button type="button" onClick={() => logout.mutate()}>Sign out</button>
      {logout.error && <p role="alert">{logout.error.name}</p>}
    </div>
  );
}

const renderWith = (client: QueryClient) =>
  render(
    <QueryClientProvider client={client}>
      <SignOut />
    </QueryClientProvider>,
  );

Deno.test("useSession() reads the seeded account, and null when signed out", async () => {
  const client = createAuthQueryClient();
  seedSession(client, userWithRole("member"));
  const view = renderWith(client);
  view.getByText("Signed in as Test member");
  const anonymous = renderWith(createAuthQueryClient());
  await anonymous.findByText("Signed out");
});

Deno.test("useLogout() signs out on the server and keeps only the session query, now null", async () => {
  const client = createAuthQueryClient();
  seedSession(client, defaultUser);
  fillCache(client);
  const recorder = recordRequests(env);
  const view = renderWith(client);
  fireEvent.click(view.getByRole("button", { name: "Sign out" }));
  await view.findByText("Signed out");
  recorder.stop();
  assert.deepEqual(cachedKeys(client), [JSON.stringify(sessionQueryKey)]);
  assert.equal(client.getQueryData(sessionQueryKey), null);
  const sent = await recorder.requests();
  assert.deepEqual(sent.map((r) => `${r.method} ${r.url.pathname}`), [
    "POST /api/auth/logout",
  ]);
});

Deno.test("useLogout() keeps the session and the cache when the server cannot be reached", async () => {
  env.use(networkFailure("logout"));
  const client = createAuthQueryClient();
  seedSession(client, defaultUser);
  fillCache(client);
  const view = renderWith(client);
  fireEvent.click(view.getByRole("button", { name: "Sign out" }));
  assert.equal((await view.findByRole("alert")).textContent, "NetworkError");
  view.getByText(`Signed in as ${defaultUser.name}`);
  assert.equal(cachedKeys(client).length, 4);
});

Deno.test("useLogout() keeps the session when a page that is not the server's answers the sign-out", async (t) => {
  // A proxy's or a host's fallback page answers 200 for any path: the
  // server never heard the sign-out, so its session cookie still works.
  const rows: Array<[string, () => Response]> = [
    [
      "a 200 HTML page",
      () =>
        new Response("<html><body>Welcome</body></html>", {
          status: 200,
          headers: { "content-type": "text/html" },
        }),
    ],
    ["a 200 whose body breaks off", () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode("<html>"));
            controller.error(new TypeError("network connection lost"));
          },
        }),
        { status: 200 },
      )],
  ];
  for (const [name, page] of rows) {
    await t.step(name, async () => {
      env.use(http.post(`*${OPERATIONS.logout.path}`, page));
      const client = createAuthQueryClient();
      seedSession(client, defaultUser);
      fillCache(client);
      const view = renderWith(client);
      try {
        fireEvent.click(view.getByRole("button", { name: "Sign out" }));
        assert.equal(
          (await view.findByRole("alert")).textContent,
          "UnexpectedResponseError",
        );
        view.getByText(`Signed in as ${defaultUser.name}`);
        assert.equal(cachedKeys(client).length, 4);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("adoptSession() installs the account and clears the cache as a logout does", () => {
  const client = createAuthQueryClient();
  seedSession(client, userWithRole("admin"));
  fillCache(client);
  const member = userWithRole("member");
  adoptSession(client, member);
  assert.deepEqual(cachedKeys(client), [JSON.stringify(sessionQueryKey)]);
  assert.deepEqual(client.getQueryData(sessionQueryKey), member);
});

Deno.test("adoptSession() switches a rendered app to the new account", async () => {
  const client = createAuthQueryClient();
  seedSession(client, userWithRole("admin"));
  const view = renderWith(client);
  view.getByText("Signed in as Test admin");
  adoptSession(client, userWithRole("member"));
  await view.findByText("Signed in as Test member");
});

Deno.test("the auth query client drops the session on what the transport calls revoked", async () => {
  class SessionGoneError extends Error {}
  configureAuthTransport({
    isSessionRevoked: (e) => e instanceof SessionGoneError,
  });
  const client = createAuthQueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  seedSession(client, defaultUser);
  await client.fetchQuery({
    queryKey: ["a"],
    queryFn: () => Promise.reject(new Error("other")),
  })
    .catch(() => {});
  assert.deepEqual(
    client.getQueryData(sessionQueryKey),
    defaultUser,
    "another failure keeps it",
  );
  await client.fetchQuery({
    queryKey: ["b"],
    queryFn: () => Promise.reject(new SessionGoneError()),
  })
    .catch(() => {});
  await waitFor(() => assert.equal(client.getQueryData(sessionQueryKey), null));
});

Deno.test("can() is true only when the user's capability list holds the capability", async (t) => {
  const admin = userWithCapabilities("admin", ["users.manage"], [
    "admin",
    "member",
  ]);
  const member = userWithCapabilities("member", []);
  const rows: Array<[string, Parameters<typeof can>[0], boolean]> = [
    ["a user with the capability", admin, true],
    ["a user with an empty list", member, false],
    ["a user without a list (no registry)", userWithRole("admin"), false],
    ["no user (null)", null, false],
    ["no user (undefined)", undefined, false],
  ];
  for (const [name, user, expected] of rows) {
    await t.step(name, () => assert.equal(can(user, "users.manage"), expected));
  }
  assert.equal(can(admin, "users.delete"), false, "another capability");
});
