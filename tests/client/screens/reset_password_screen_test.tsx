// ResetPasswordScreen: a new password for a reset link; a dead link says
// it is no longer valid and how to get a new one.

import assert from "node:assert/strict";
import { ResetPasswordScreen } from "@gatehouse/client/screens";
import {
  checkLinkInvalidToken,
  installTestEnvironment,
  networkFailure,
  refuse,
  resetPasswordInvalidToken,
  resetPasswordOk,
  serverTooOld,
} from "@gatehouse/client/testing";
import {
  fireEvent,
  render,
  type RenderResult,
  waitFor,
} from "@testing-library/preact";
import { recordRequests } from "../_support.ts";
import {
  alertText,
  assertAccessible,
  findFieldError,
  type,
} from "./_screens.tsx";

const env = installTestEnvironment();
const TOKEN = "reset-token-456";

function renderReset(token = TOKEN) {
  let done = 0;
  let requested = 0;
  const view = render(
    <ResetPasswordScreen
      token={token}
      onDone={() => done++}
      onRequestNew={() => requested++}
    />,
  );
  return { view, done: () => done, requested: () => requested };
}

// The requests that spend the link; the screen also checks it on open.
async function confirmations(recorder: ReturnType<typeof recordRequests>) {
  return (await recorder.requests()).filter((r) =>
    r.url.pathname === "/api/auth/password-reset/confirm"
  );
}

function choose(view: RenderResult, password = "a long new password") {
  type(view, "New password", password);
  type(view, "Repeat the password", password);
  fireEvent.click(view.getByRole("button", { name: "Change password" }));
}

Deno.test("ResetPasswordScreen sets the new password, says so and calls onDone", async () => {
  env.use(resetPasswordOk());
  const recorder = recordRequests(env);
  const { view, done } = renderReset();
  view.getByRole("heading", { name: "Choose a new password" });
  assertAccessible(view.container);
  choose(view);
  await view.findByText(
    "Your password has been changed. Sign in with your new password.",
  );
  assert.equal(done(), 1);
  const [request] = await confirmations(recorder);
  assert.equal(request?.url.pathname, "/api/auth/password-reset/confirm");
  assert.deepEqual(request?.body, {
    token: TOKEN,
    password: "a long new password",
  });
});

Deno.test("ResetPasswordScreen says a dead link is no longer valid and how to get a new one", async () => {
  env.use(resetPasswordInvalidToken());
  const { view, done, requested } = renderReset();
  choose(view);
  await view.findByRole("heading", {
    name: "This reset link is no longer valid",
  });
  assert.equal(
    alertText(view.container),
    "Reset links work only once and only for a limited time. Request a new one from the sign-in page with “Forgot password?”.",
  );
  assert.equal(done(), 0);
  fireEvent.click(view.getByRole("button", { name: "Request a new link" }));
  assert.equal(requested(), 1);
  assertAccessible(view.container);
});

Deno.test("ResetPasswordScreen without a token says the link is not valid, without asking", async () => {
  const recorder = recordRequests(env);
  const view = render(<ResetPasswordScreen token="" onDone={() => {}} />);
  view.getByRole("heading", { name: "This reset link is no longer valid" });
  assert.ok(view.queryByRole("button") === null, "no onRequestNew, no button");
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("ResetPasswordScreen shows a refused password next to it and lets the person try again", async () => {
  env.use(
    refuse("resetPassword", "password_too_long", {
      meta: { field: "password" },
    }),
  );
  const recorder = recordRequests(env);
  const { view, done } = renderReset();
  // A password the form lets through and a server with a lower limit refuses.
  choose(view, "a long enough password, or so it seems");
  await findFieldError(view, "New password", "Use at most 256 characters.");
  env.use(resetPasswordOk());
  choose(view);
  await waitFor(() => assert.equal(done(), 1));
  const tokens = (await confirmations(recorder)).map((r) =>
    (r.body as { token: string }).token
  );
  assert.deepEqual(tokens, [TOKEN, TOKEN]);
});

Deno.test("ResetPasswordScreen keeps the form when the server cannot be reached", async () => {
  env.use(networkFailure("resetPassword"));
  const { view, done } = renderReset();
  choose(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "Cannot reach the server. Check your connection and try again.",
    )
  );
  assert.equal(done(), 0);
  assert.ok(view.getByRole("button", { name: "Change password" }));
});

Deno.test("ResetPasswordScreen says so on a server too old for password resets", async () => {
  env.use(serverTooOld("resetPassword"));
  const { view } = renderReset();
  choose(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This server is too old for password resets. Ask its administrator to upgrade Gatehouse.",
    )
  );
});

Deno.test("ResetPasswordScreen checks the repeated password without asking the server", async () => {
  const recorder = recordRequests(env);
  const { view } = renderReset();
  type(view, "New password", "a long new password");
  type(view, "Repeat the password", "something else");
  fireEvent.click(view.getByRole("button", { name: "Change password" }));
  await findFieldError(
    view,
    "Repeat the password",
    "The passwords do not match.",
  );
  assert.deepEqual(await confirmations(recorder), []);
});

Deno.test("ResetPasswordScreen checks its link when it opens: a dead one says so before any password is typed", async () => {
  env.use(checkLinkInvalidToken());
  const recorder = recordRequests(env);
  const { view, done } = renderReset();
  await view.findByRole("heading", {
    name: "This reset link is no longer valid",
  });
  assert.ok(view.queryByLabelText("New password") === null, "no form left");
  assert.equal(done(), 0);
  assert.deepEqual(
    (await recorder.requests()).map((r) => [r.method, r.url.pathname, r.body]),
    [["POST", "/api/auth/links/check", { token: TOKEN, kind: "reset" }]],
  );
});

Deno.test("ResetPasswordScreen keeps the form when its link check cannot answer", async () => {
  env.use(networkFailure("checkLink"), resetPasswordOk());
  const { view, done } = renderReset();
  // Give the failed check time to land: the form stays.
  await new Promise((resolve) => setTimeout(resolve, 20));
  view.getByRole("heading", { name: "Choose a new password" });
  choose(view);
  await waitFor(() => assert.equal(done(), 1));
});
