// SetPasswordScreen: accepting an invitation signs the person in; a dead
// link says so; any other failure keeps the form, and the retry sends the
// same token.

import assert from "node:assert/strict";
import { AuthGate, sessionQueryKey, type SessionUser } from "@gatehouse/client";
import { SetPasswordScreen } from "@gatehouse/client/screens";
import {
  acceptInviteInvalidToken,
  acceptInviteOk,
  checkLinkAccountExists,
  checkLinkInvalidToken,
  installTestEnvironment,
  networkFailure,
  refuse,
  serverTooOld,
} from "@gatehouse/client/testing";
import { fireEvent, type RenderResult, waitFor } from "@testing-library/preact";
import { TAB_CHANNEL } from "../../../client/_tabs.ts";
import { recordRequests } from "../_support.ts";
import {
  admin,
  alertText,
  assertAccessible,
  assertNoFieldErrors,
  findFieldError,
  quickClient,
  renderWith,
  type,
} from "./_screens.tsx";

const env = installTestEnvironment();
const TOKEN = "invitation-token-123";

function renderSetPassword(token = TOKEN) {
  const accepted: SessionUser[] = [];
  const client = quickClient();
  client.setQueryData(["projects"], ["left by someone else"]);
  const view = renderWith(
    <SetPasswordScreen
      brand="Acme"
      token={token}
      onAccepted={(user) => accepted.push(user)}
    />,
    null,
    client,
  );
  return { view, accepted };
}

// The acceptances among what the screen sent (it also checks its link when
// it opens).
async function acceptances(recorder: ReturnType<typeof recordRequests>) {
  return (await recorder.requests()).filter((r) =>
    r.url.pathname === "/api/auth/invite/accept"
  );
}

function choose(view: RenderResult, password = "a long new password") {
  type(view, "New password", password);
  type(view, "Repeat the password", password);
  submit(view);
}

function submit(view: RenderResult) {
  fireEvent.click(view.getByRole("button", { name: /Set password|Try again/ }));
}

Deno.test("SetPasswordScreen sets the password, signs in and calls onAccepted", async () => {
  env.use(acceptInviteOk(admin));
  const recorder = recordRequests(env);
  const { view, accepted } = renderSetPassword();
  view.getByRole("heading", { name: "Welcome to Acme" });
  choose(view);
  await waitFor(() => assert.equal(accepted.length, 1));
  assert.deepEqual(accepted[0], admin);
  assert.deepEqual(view.client.getQueryData(sessionQueryKey), admin);
  assert.equal(
    view.client.getQueryData(["projects"]),
    undefined,
    "adoptSession cleared what another account left",
  );
  const [request] = await acceptances(recorder);
  assert.equal(request?.url.pathname, "/api/auth/invite/accept");
  assert.deepEqual(request?.body, {
    token: TOKEN,
    password: "a long new password",
  });
});

Deno.test("SetPasswordScreen's sign-in reaches the other tabs, as the login screen's does", async () => {
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data);
  try {
    env.use(acceptInviteOk(admin));
    const { view, accepted } = renderSetPassword();
    choose(view);
    await waitFor(() => assert.equal(accepted.length, 1));
    await waitFor(() =>
      assert.deepEqual(
        heard.map((m) => {
          const { type, userId } = m as { type: string; userId: string };
          return { type, userId };
        }),
        [{ type: "signed-in", userId: admin.id }],
      )
    );
  } finally {
    otherTab.close();
  }
});

Deno.test("SetPasswordScreen under a gate: once accepted the app shows", async () => {
  env.use(acceptInviteOk(admin));
  const client = quickClient();
  client.setQueryData(sessionQueryKey, null);
  const view = renderWith(
    <AuthGate
      loginScreen={() => (
        <SetPasswordScreen brand="Acme" token={TOKEN} onAccepted={() => {}} />
      )}
    >
      <p>The app</p>
    </AuthGate>,
    null,
    client,
  );
  choose(view);
  await view.findByText("The app");
});

Deno.test("SetPasswordScreen says a spent or expired link is no longer valid and how to get a new one", async () => {
  env.use(acceptInviteInvalidToken());
  const { view, accepted } = renderSetPassword();
  choose(view);
  await view.findByRole("heading", {
    name: "This invitation link is no longer valid",
  });
  assert.equal(
    alertText(view.container),
    "It has been used already, or it has expired. Ask the person who invited you to send a new invitation.",
  );
  assert.ok(view.queryByLabelText("New password") === null, "no form left");
  assert.equal(accepted.length, 0);
  assert.equal(view.client.getQueryData(sessionQueryKey), undefined);
});

Deno.test("SetPasswordScreen without a token says the link is not valid, without asking", async () => {
  const recorder = recordRequests(env);
  const { view } = renderSetPassword("");
  view.getByRole("heading", {
    name: "This invitation link is no longer valid",
  });
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("SetPasswordScreen's retry after a failed acceptance sends the same token", async (t) => {
  const failures: Array<[string, Parameters<typeof env.use>[0], string]> = [
    [
      "no answer",
      networkFailure("acceptInvite"),
      "Cannot reach the server. Check your connection and try again.",
    ],
    [
      "server error",
      refuse("acceptInvite", "internal"),
      "Something went wrong on the server. Try again later.",
    ],
  ];
  for (const [name, failure, message] of failures) {
    await t.step(name, async () => {
      env.use(failure);
      const recorder = recordRequests(env);
      const { view, accepted } = renderSetPassword();
      try {
        choose(view);
        await waitFor(() => assert.equal(alertText(view.container), message));
        assert.equal(accepted.length, 0);
        // The form stays, with what was typed, and offers to try again.
        const retry = view.getByRole("button", { name: "Try again" });
        assert.equal(
          (view.getByLabelText("New password") as HTMLInputElement).value,
          "a long new password",
        );
        env.use(acceptInviteOk(admin));
        fireEvent.click(retry);
        await waitFor(() => assert.equal(accepted.length, 1));
        recorder.stop();
        const tokens = (await acceptances(recorder)).map((r) =>
          (r.body as { token: string }).token
        );
        assert.deepEqual(tokens, [TOKEN, TOKEN]);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("SetPasswordScreen shows a refused password next to it, and the retry reuses the token", async () => {
  env.use(
    // A server whose minimum is above the form's names it in meta.
    refuse("acceptInvite", "password_too_short", {
      meta: { field: "password", min: "16" },
    }),
  );
  const recorder = recordRequests(env);
  const { view, accepted } = renderSetPassword();
  choose(view, "twelve chars");
  await findFieldError(view, "New password", "Use at least 16 characters.");
  assert.equal(alertText(view.container), "");
  env.use(acceptInviteOk(admin));
  choose(view, "a long new password");
  await waitFor(() => assert.equal(accepted.length, 1));
  const bodies = (await acceptances(recorder)).map((r) => r.body);
  assert.deepEqual(bodies, [
    { token: TOKEN, password: "twelve chars" },
    { token: TOKEN, password: "a long new password" },
  ]);
});

Deno.test("SetPasswordScreen checks the repeated password without asking the server", async () => {
  const recorder = recordRequests(env);
  const { view } = renderSetPassword();
  type(view, "New password", "a long new password");
  type(view, "Repeat the password", "a long new passwrd");
  submit(view);
  await findFieldError(
    view,
    "Repeat the password",
    "The passwords do not match.",
  );
  assert.equal(
    view.getByLabelText("New password").getAttribute("aria-invalid"),
    null,
  );
  submit(view);
  assert.deepEqual(await acceptances(recorder), []);
  type(view, "New password", "");
  submit(view);
  await findFieldError(view, "New password", "This field is required.");
});

Deno.test("SetPasswordScreen says so on a server too old for invitations", async () => {
  env.use(serverTooOld("acceptInvite"));
  const { view } = renderSetPassword();
  choose(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This server is too old for invitations. Ask its administrator to upgrade Gatehouse.",
    )
  );
  assertNoFieldErrors(view.container);
});

Deno.test("SetPasswordScreen's form is labelled, with the password rule as a hint", () => {
  const { view } = renderSetPassword();
  assertAccessible(view.container);
  const password = view.getByLabelText("New password");
  assert.equal(password.getAttribute("autocomplete"), "new-password");
  assert.equal(
    document.getElementById(password.getAttribute("aria-describedby")!)
      ?.textContent,
    "At least 12 characters.",
  );
});

Deno.test("SetPasswordScreen checks its link when it opens: a dead one says so before any password is typed", async () => {
  env.use(checkLinkInvalidToken());
  const recorder = recordRequests(env);
  const { view } = renderSetPassword();
  await view.findByRole("heading", {
    name: "This invitation link is no longer valid",
  });
  assert.ok(view.queryByLabelText("New password") === null, "no form left");
  const requests = await recorder.requests();
  assert.deepEqual(
    requests.map((r) => [r.method, r.url.pathname, r.body]),
    [["POST", "/api/auth/links/check", { token: TOKEN, kind: "invitation" }]],
  );
});

Deno.test("SetPasswordScreen for an address that has an account offers to sign in or reset the password", async () => {
  env.use(checkLinkAccountExists());
  const client = quickClient();
  const view = renderWith(
    <SetPasswordScreen
      brand="Acme"
      token={TOKEN}
      signInHref="/"
      forgotPasswordHref="/forgot"
      onAccepted={() => {}}
    />,
    null,
    client,
  );
  await view.findByRole("heading", { name: "You already have an account" });
  view.getByText(
    "This address already has an account, so the invitation cannot create another. Sign in with it, or reset its password if you have forgotten it.",
  );
  assert.equal(
    view.getByRole("link", { name: "Sign in" }).getAttribute("href"),
    "/",
  );
  assert.equal(
    view.getByRole("link", { name: "Reset your password" }).getAttribute(
      "href",
    ),
    "/forgot",
  );
  assert.ok(view.queryByLabelText("New password") === null, "no form");
  await assertAccessible(view.container);
});

Deno.test("SetPasswordScreen keeps the form when its link check cannot answer", async () => {
  env.use(networkFailure("checkLink"), acceptInviteOk(admin));
  const { view, accepted } = renderSetPassword();
  // Give the failed check time to land: the form stays.
  await new Promise((resolve) => setTimeout(resolve, 20));
  view.getByRole("heading", { name: "Welcome to Acme" });
  choose(view);
  await waitFor(() => assert.equal(accepted.length, 1));
});
