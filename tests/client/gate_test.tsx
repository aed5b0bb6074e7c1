// AuthGate's three states, the after-login handler, and the session drop on
// a 401 from any query or mutation: the login screen returns without a
// reload.

import assert from "node:assert/strict";
import {
  AuthGate,
  type AuthGateProps,
  createAuthQueryClient,
  sessionQueryKey,
  type SessionUser,
  useSession,
} from "@gatehouse/client";
import { createUser, listUsers } from "@gatehouse/client/admin";
import { setScreensLocale } from "@gatehouse/client/screens";
import {
  defaultUser,
  fetchSessionAnonymous,
  fetchSessionOk,
  fetchSessionUnavailable,
  installTestEnvironment,
  listUsersOk,
  refuse,
  seedSession,
  userWithRole,
} from "@gatehouse/client/testing";
import {
  type QueryClient,
  QueryClientProvider,
  useMutation,
  useQuery,
} from "@tanstack/preact-query";
import { fireEvent, render } from "@testing-library/preact";
import { http, HttpResponse } from "msw";
import type { ComponentChildren } from "preact";
import { useState } from "preact/hooks";
import { recordRequests } from "./_support.ts";

const env = installTestEnvironment();

/** A client whose queries fail at once, so error states show without waiting. */
const quickClient = () =>
  createAuthQueryClient({ defaultOptions: { queries: { retry: false } } });

function Login(props: { onLogin: (user: SessionUser) => void }) {
  return (
    <div>
      <p>Please sign in</p>
      <button
        type="button"
        onClick={() => props.onLogin(userWithRole("admin"))}
      >
        Sign in
      </button>
    </div>
  );
}

function Home() {
  const user = useSession();
  return <p>Welcome {user?.name}</p>;
}

function renderGate(
  client: QueryClient,
  props: Partial<AuthGateProps> = {},
  children = <Home />,
) {
  return render(
    <QueryClientProvider client={client}>
      <AuthGate
        loginScreen={(onLogin) => <Login onLogin={onLogin} />}
        {...props}
      >
        {children}
      </AuthGate>
    </QueryClientProvider>,
  );
}

Deno.test("AuthGate shows the loading state, then the app when signed in", async () => {
  env.use(fetchSessionOk());
  const view = renderGate(quickClient());
  assert.equal(view.getByRole("status").textContent, "Loading…");
  await view.findByText(`Welcome ${defaultUser.name}`);
  assert.equal(view.queryByRole("status"), null);
});

Deno.test("AuthGate shows the login screen when signed out", async () => {
  env.use(fetchSessionAnonymous());
  const view = renderGate(quickClient());
  await view.findByText("Please sign in");
  assert.equal(view.queryByText(/Welcome/), null);
});

Deno.test("AuthGate shows the error state when the session cannot be read, and retry asks again", async () => {
  env.use(fetchSessionUnavailable());
  const view = renderGate(quickClient());
  const alert = await view.findByRole("alert");
  assert.match(alert.textContent ?? "", /Cannot reach the server/);
  assert.equal(
    view.queryByText("Please sign in"),
    null,
    "a failure is not a sign-out",
  );
  env.use(fetchSessionOk());
  fireEvent.click(view.getByRole("button", { name: "Try again" }));
  await view.findByText(`Welcome ${defaultUser.name}`);
});

Deno.test("AuthGate's default loading and error states follow the screens' language", async () => {
  await setScreensLocale("es");
  try {
    env.use(fetchSessionUnavailable());
    const view = renderGate(quickClient());
    assert.equal(view.getByRole("status").textContent, "Cargando…");
    const alert = await view.findByRole("alert");
    assert.match(
      alert.textContent ?? "",
      /No se puede conectar con el servidor/,
    );
    env.use(fetchSessionOk());
    fireEvent.click(view.getByRole("button", { name: "Volver a intentarlo" }));
    await view.findByText(`Welcome ${defaultUser.name}`);
  } finally {
    await setScreensLocale("en");
  }
});

Deno.test("AuthGate's default error state changes language while it shows", async () => {
  env.use(fetchSessionUnavailable());
  const view = renderGate(quickClient());
  await view.findByRole("button", { name: "Try again" });
  try {
    await setScreensLocale("es");
    await view.findByRole("button", { name: "Volver a intentarlo" });
  } finally {
    await setScreensLocale("en");
  }
});

Deno.test("AuthGate's loading and error states are replaceable by props", async () => {
  env.use(http.get("*/api/auth/session", () => HttpResponse.error()));
  const seen: unknown[] = [];
  const view = renderGate(quickClient(), {
    loadingScreen: () => <p>Custom loading</p>,
    errorScreen: (error, retry) => {
      seen.push(error);
      return <button type="button" onClick={retry}>Custom retry</button>;
    },
  });
  view.getByText("Custom loading");
  await view.findByText("Custom retry");
  assert.equal(
    view.queryByRole("alert"),
    null,
    "the default error state is gone",
  );
  assert.ok(seen.some((e) => e instanceof Error && e.name === "NetworkError"));
});

Deno.test("AuthGate retries a session read that failed on the server", async () => {
  let answers = 0;
  env.use(http.get("*/api/auth/session", () => {
    answers += 1;
    return answers < 3
      ? HttpResponse.json({ error: "x", code: "internal" }, { status: 500 })
      : HttpResponse.json(defaultUser);
  }));
  const client = createAuthQueryClient({
    defaultOptions: { queries: { retryDelay: 0 } },
  });
  const view = renderGate(client);
  await view.findByText(`Welcome ${defaultUser.name}`);
  assert.equal(answers, 3);
});

Deno.test("AuthGate's after-login handler shows the app and clears what a previous account left", async () => {
  env.use(fetchSessionAnonymous());
  const client = quickClient();
  client.setQueryData(["projects"], ["left by someone else"]);
  const view = renderGate(client);
  fireEvent.click(await view.findByRole("button", { name: "Sign in" }));
  await view.findByText("Welcome Test admin");
  assert.equal(client.getQueryData(["projects"]), undefined);
  assert.deepEqual(client.getQueryData(sessionQueryKey), userWithRole("admin"));
});

/** Outside the gate: its state would not survive a reload. */
function Counter() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" onClick={() => setCount(count + 1)}>
      Clicked {count}
    </button>
  );
}

function UsersList() {
  const users = useQuery({ queryKey: ["users"], queryFn: () => listUsers() });
  return <p>{users.data ? `${users.data.users.length} users` : "…"}</p>;
}

function CreateButton() {
  const create = useMutation({
    mutationFn: () =>
      createUser({
        email: "g@example.com",
        name: "G",
        password: "long enough password",
      }),
  });
  return <button type="button" onClick={() => create.mutate()}>Create</button>;
}

function renderWithCounter(client: QueryClient, children: ComponentChildren) {
  return render(
    <QueryClientProvider client={client}>
      <Counter />
      <AuthGate loginScreen={(onLogin) => <Login onLogin={onLogin} />}>
        {children}
      </AuthGate>
    </QueryClientProvider>,
  );
}

Deno.test("a 401 from any query drops the session and shows the login screen without a reload", async () => {
  const client = quickClient();
  seedSession(client, defaultUser);
  env.use(listUsersOk());
  const recorder = recordRequests(env);
  const view = renderWithCounter(client, <UsersList />);
  await view.findByText("2 users");
  fireEvent.click(view.getByRole("button", { name: "Clicked 0" }));
  env.use(refuse("listUsers", "session_absent"));
  await client.invalidateQueries({ queryKey: ["users"] });
  await view.findByText("Please sign in");
  recorder.stop();
  assert.equal(client.getQueryData(sessionQueryKey), null);
  view.getByRole("button", { name: "Clicked 1" }); // same page, state intact
  const paths = (await recorder.requests()).map((r) => r.url.pathname);
  assert.deepEqual(
    paths,
    ["/api/users", "/api/users"],
    "no session refetch, no reload",
  );
});

Deno.test("a 401 from any mutation drops the session and shows the login screen without a reload", async () => {
  const client = quickClient();
  seedSession(client, defaultUser);
  env.use(refuse("createUser", "session_absent"));
  const view = renderWithCounter(client, <CreateButton />);
  fireEvent.click(view.getByRole("button", { name: "Clicked 0" }));
  fireEvent.click(view.getByRole("button", { name: "Create" }));
  await view.findByText("Please sign in");
  assert.equal(client.getQueryData(sessionQueryKey), null);
  view.getByRole("button", { name: "Clicked 1" });
});

Deno.test("a refusal other than 401 leaves the session in place", async () => {
  const client = quickClient();
  seedSession(client, defaultUser);
  env.use(refuse("listUsers", "role_insufficient"));
  const view = renderWithCounter(client, <UsersList />);
  await client.refetchQueries({ queryKey: ["users"] });
  await view.findByText("…");
  assert.deepEqual(client.getQueryData(sessionQueryKey), defaultUser);
  assert.equal(view.queryByText("Please sign in"), null);
});

Deno.test("after the drop, signing in again brings the app back", async () => {
  const client = quickClient();
  seedSession(client, defaultUser);
  env.use(refuse("createUser", "session_absent"));
  const view = renderWithCounter(client, <CreateButton />);
  fireEvent.click(view.getByRole("button", { name: "Create" }));
  fireEvent.click(await view.findByRole("button", { name: "Sign in" }));
  await view.findByRole("button", { name: "Create" });
  assert.deepEqual(client.getQueryData(sessionQueryKey), userWithRole("admin"));
});
