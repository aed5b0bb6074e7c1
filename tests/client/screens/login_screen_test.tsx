// LoginScreen: signing in (alone and as the gate's login screen), the
// refusals (wrong credentials, the limiter, no answer), the form's own
// checks and its accessibility attributes.

import assert from "node:assert/strict";
import {
  AuthGate,
  sessionQueryKey,
  type SessionUser,
  useSession,
} from "@gatehouse/client";
import { LoginScreen } from "@gatehouse/client/screens";
import {
  defaultUser,
  fetchSessionAnonymous,
  installTestEnvironment,
  loginInvalid,
  loginOk,
  loginRateLimited,
  loginWithPasskeyOk,
  loginWithPasskeyRefused,
  networkFailure,
  passkeyLoginOptionsOk,
  passkeyLoginOptionsRateLimited,
  refuse,
} from "@gatehouse/client/testing";
import { fireEvent, render, waitFor } from "@testing-library/preact";
import { http, HttpResponse } from "msw";
import { OPERATIONS } from "@gatehouse/contract";
import { webauthn } from "../../../client/screens/_webauthn.ts";
import { recordRequests } from "../_support.ts";
import {
  admin,
  alertText,
  assertAccessible,
  assertNoFieldErrors,
  findFieldError,
  findFocus,
  renderWith,
  type,
} from "./_screens.tsx";

const env = installTestEnvironment();
const OPTIONS_PATH = OPERATIONS.passkeyLoginOptions.path;

/** What the screen sent, but the list of providers it asks for as it opens. */
async function sentBesidesProviders(
  recorder: ReturnType<typeof recordRequests>,
) {
  const requests = await recorder.requests();
  return requests.filter((r) =>
    r.url.pathname !== OPERATIONS.listSsoProviders.path
  );
}

function renderLogin(onForgotPassword?: () => void) {
  const signedIn: SessionUser[] = [];
  const view = render(
    <LoginScreen
      brand="Acme"
      onLogin={(user) => signedIn.push(user)}
      {...(onForgotPassword ? { onForgotPassword } : {})}
    />,
  );
  return { view, signedIn };
}

function signIn(view: ReturnType<typeof render>, password = "a password") {
  type(view, "Email", " ada@example.com ");
  type(view, "Password", password);
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
}

Deno.test("LoginScreen signs in and hands the account to onLogin", async () => {
  env.use(loginOk());
  const recorder = recordRequests(env);
  const { view, signedIn } = renderLogin();
  view.getByRole("heading", { name: "Sign in to Acme" });
  signIn(view);
  await waitFor(() => assert.equal(signedIn.length, 1));
  assert.deepEqual(signedIn[0], defaultUser);
  const [request] = await sentBesidesProviders(recorder);
  assert.equal(request?.url.pathname, "/api/auth/login");
  assert.deepEqual(request?.body, {
    email: "ada@example.com",
    password: "a password",
  });
});

Deno.test("LoginScreen is the gate's login screen: after login the app shows", async () => {
  env.use(fetchSessionAnonymous(), loginOk(admin));
  function Home() {
    return <p>Welcome {useSession()?.name}</p>;
  }
  const view = renderWith(
    <AuthGate
      loginScreen={(onLogin) => <LoginScreen brand="Acme" onLogin={onLogin} />}
    >
      <Home />
    </AuthGate>,
    null,
  );
  await view.findByRole("heading", { name: "Sign in to Acme" });
  signIn(view);
  await view.findByText(`Welcome ${admin.name}`);
  assert.deepEqual(view.client.getQueryData(sessionQueryKey), admin);
});

Deno.test("LoginScreen says the email or password is incorrect", async () => {
  env.use(loginInvalid());
  const { view, signedIn } = renderLogin();
  signIn(view);
  await view.findByText("Email or password is incorrect.");
  assert.equal(alertText(view.container), "Email or password is incorrect.");
  assert.equal(signedIn.length, 0);
  assertNoFieldErrors(view.container);
  assert.ok(view.getByRole("button", { name: "Sign in" }), "the form stays");
});

Deno.test("LoginScreen says when to try again after the limiter refuses", async (t) => {
  const rows: Array<[string, Parameters<typeof env.use>[0], string]> = [
    [
      "Retry-After: 60",
      loginRateLimited(),
      "Too many attempts. Try again in 1 minute.",
    ],
    [
      "Retry-After: 150",
      refuse("login", "login_rate_limited", { retryAfter: 150 }),
      "Too many attempts. Try again in 3 minutes.",
    ],
    [
      "Retry-After: 20",
      refuse("login", "login_rate_limited", { retryAfter: 20 }),
      "Too many attempts. Try again in 20 seconds.",
    ],
    [
      "no Retry-After",
      http.post(
        "*/api/auth/login",
        () =>
          HttpResponse.json({ error: "x", code: "login_rate_limited" }, {
            status: 429,
          }),
      ),
      "Too many attempts. Try again later.",
    ],
  ];
  for (const [name, handler, message] of rows) {
    await t.step(name, async () => {
      env.use(handler);
      const { view, signedIn } = renderLogin();
      signIn(view);
      await waitFor(() => assert.equal(alertText(view.container), message));
      assert.equal(signedIn.length, 0);
      view.unmount();
    });
  }
});

// happy-dom has no WebAuthn: the browser's side is replaced for a test.
async function withPasskeys(
  autofill: boolean,
  fn: (ceremonies: { authenticate: number }) => Promise<void>,
) {
  const saved = { ...webauthn };
  const ceremonies = { authenticate: 0 };
  webauthn.supported = () => true;
  webauthn.autofill = () => Promise.resolve(autofill);
  webauthn.authenticate = () => {
    ceremonies.authenticate++;
    return Promise.resolve({ id: "credential" });
  };
  webauthn.cancel = () => {};
  try {
    await fn(ceremonies);
  } finally {
    Object.assign(webauthn, saved);
  }
}

// Resolves once the fake server has answered a request to `path`.
function answered(path: string): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const listener = ({ request }: { request: Request }) => {
    if (new URL(request.url).pathname === path) {
      env.server.events.removeListener("response:mocked", listener);
      resolve();
    }
  };
  env.server.events.on("response:mocked", listener);
  return promise;
}

Deno.test("LoginScreen's passkey autofill says nothing when the limiter refuses its options; the password form works", async () => {
  await withPasskeys(true, async (ceremonies) => {
    env.use(passkeyLoginOptionsRateLimited(), loginOk());
    const refused = answered(OPTIONS_PATH);
    const { view, signedIn } = renderLogin();
    await refused;
    // Let the refusal reach the screen's handler, then look.
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
    assert.equal(alertText(view.container), "");
    assertNoFieldErrors(view.container);
    assert.equal(ceremonies.authenticate, 0, "no ceremony without options");
    assert.equal(
      view.getByLabelText("Email").getAttribute("autocomplete"),
      "username webauthn",
    );
    signIn(view);
    await waitFor(() => assert.equal(signedIn.length, 1));
    assert.equal(alertText(view.container), "");
  });
});

// Resolves once the fake server has received a request to `path`.
function received(path: string): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const listener = ({ request }: { request: Request }) => {
    if (new URL(request.url).pathname === path) {
      env.server.events.removeListener("request:start", listener);
      resolve();
    }
  };
  env.server.events.on("request:start", listener);
  return promise;
}

// Holds the fake server's answers to `path` until `open()`; the request
// then goes on to the next handler.
function held(path: string) {
  const gate = Promise.withResolvers<void>();
  const handler = http.all(`*${path}`, async () => {
    await gate.promise;
  });
  return { handler, open: () => gate.resolve() };
}

Deno.test("LoginScreen's passkey autofill does nothing once the screen is gone", async (t) => {
  const settle = async () => {
    for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
  };
  // Unmounted while the options are asked for: no prompt is opened.
  await t.step("while its options are asked for", async () => {
    await withPasskeys(true, async (ceremonies) => {
      const options = held(OPTIONS_PATH);
      env.use(options.handler, passkeyLoginOptionsOk(), loginWithPasskeyOk());
      const sent = received(OPTIONS_PATH);
      const asked = answered(OPTIONS_PATH);
      const { view, signedIn } = renderLogin();
      await sent;
      view.unmount();
      options.open();
      await asked;
      await settle();
      assert.equal(ceremonies.authenticate, 0, "no prompt after the unmount");
      assert.equal(signedIn.length, 0);
    });
  });
  // Unmounted while the browser's prompt is open: its answer is not sent.
  await t.step("while the browser's prompt is open", async () => {
    await withPasskeys(true, async () => {
      const prompt = Promise.withResolvers<Record<string, unknown>>();
      const opened = Promise.withResolvers<void>();
      webauthn.authenticate = () => {
        opened.resolve();
        return prompt.promise;
      };
      env.use(passkeyLoginOptionsOk(), loginWithPasskeyOk());
      const recorder = recordRequests(env);
      const { view, signedIn } = renderLogin();
      await opened.promise;
      view.unmount();
      prompt.resolve({ id: "credential" });
      await settle();
      const sent = (await recorder.requests()).filter((r) =>
        r.url.pathname === OPERATIONS.loginWithPasskey.path
      );
      assert.deepEqual(sent, [], "no sign-in with the answer");
      assert.equal(signedIn.length, 0);
    });
  });
  // Unmounted while the sign-in is on its way: onLogin is not called.
  await t.step("while its sign-in is answered", async () => {
    await withPasskeys(true, async () => {
      const signIn = held(OPERATIONS.loginWithPasskey.path);
      env.use(signIn.handler, passkeyLoginOptionsOk(), loginWithPasskeyOk());
      const sent = received(OPERATIONS.loginWithPasskey.path);
      const done = answered(OPERATIONS.loginWithPasskey.path);
      const { view, signedIn } = renderLogin();
      await sent;
      view.unmount();
      signIn.open();
      await done;
      await settle();
      assert.equal(signedIn.length, 0, "onLogin after the unmount");
    });
  });
});

Deno.test("LoginScreen's passkey button says when to try again after the limiter refuses its options", async () => {
  await withPasskeys(false, async (ceremonies) => {
    env.use(passkeyLoginOptionsRateLimited(120));
    const { view, signedIn } = renderLogin();
    fireEvent.click(
      await view.findByRole("button", { name: "Sign in with a passkey" }),
    );
    await waitFor(() =>
      assert.equal(
        alertText(view.container),
        "Too many attempts. Try again in 2 minutes.",
      )
    );
    assert.equal(ceremonies.authenticate, 0);
    assert.equal(signedIn.length, 0);
  });
});

Deno.test("LoginScreen's passkey button says the request expired when the server finds its challenge gone (410), and asks afresh next time", async () => {
  await withPasskeys(false, async (ceremonies) => {
    env.use(passkeyLoginOptionsOk(), loginWithPasskeyRefused("token_invalid"));
    const recorder = recordRequests(env);
    const { view, signedIn } = renderLogin();
    const button = await view.findByRole("button", {
      name: "Sign in with a passkey",
    });
    fireEvent.click(button);
    await waitFor(() =>
      assert.equal(
        alertText(view.container),
        "The passkey request expired. Try again.",
      )
    );
    assert.equal(signedIn.length, 0);
    fireEvent.click(button);
    await waitFor(() => assert.equal(ceremonies.authenticate, 2));
    const asked = (await recorder.requests()).filter((r) =>
      r.url.pathname === OPTIONS_PATH
    );
    assert.equal(asked.length, 2, "new options for each try");
  });
});

Deno.test("LoginScreen says when the server cannot be reached", async () => {
  env.use(networkFailure("login"));
  const { view } = renderLogin();
  signIn(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "Cannot reach the server. Check your connection and try again.",
    )
  );
});

Deno.test("LoginScreen marks empty fields without asking the server", async () => {
  const recorder = recordRequests(env);
  const { view } = renderLogin();
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await findFieldError(view, "Email", "This field is required.");
  await findFieldError(view, "Password", "This field is required.");
  await findFocus(view, "Email");
  assert.deepEqual(await sentBesidesProviders(recorder), []);
  type(view, "Email", "ada@example.com");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await findFocus(view, "Password");
  assert.equal(view.getByLabelText("Email").getAttribute("aria-invalid"), null);
});

Deno.test("LoginScreen shows Forgot password? only with onForgotPassword, and calls it", () => {
  const without = renderLogin();
  assert.ok(
    without.view.queryByRole("button", { name: "Forgot password?" }) === null,
  );
  without.view.unmount();
  let asked = 0;
  const { view } = renderLogin(() => asked++);
  fireEvent.click(view.getByRole("button", { name: "Forgot password?" }));
  assert.equal(asked, 1);
});

Deno.test("LoginScreen's form is labelled, typed and announces errors", async () => {
  env.use(loginInvalid());
  const { view } = renderLogin(() => {});
  assertAccessible(view.container);
  const alert = view.container.querySelector('[role="alert"]');
  assert.ok(alert, "the alert region is there before any error");
  assert.equal(view.getByLabelText("Email").getAttribute("type"), "email");
  assert.equal(
    view.getByLabelText("Email").getAttribute("autocomplete"),
    "username",
  );
  assert.equal(
    view.getByLabelText("Password").getAttribute("autocomplete"),
    "current-password",
  );
  signIn(view);
  await view.findByText("Email or password is incorrect.");
  assert.ok(
    view.container.querySelector('[role="alert"]') === alert,
    "the same region says it",
  );
  assertAccessible(view.container);
  assert.ok(view.container.querySelector('[data-gh-screen="login"].gh'));
});
