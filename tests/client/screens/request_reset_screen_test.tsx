// RequestResetScreen: always the same neutral sentence, the limiter's wait,
// an old server, a refused address.

import assert from "node:assert/strict";
import { RequestResetScreen } from "@gatehouse/client/screens";
import {
  installTestEnvironment,
  networkFailure,
  refuse,
  requestPasswordResetOk,
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
const NEUTRAL =
  "If an account exists for that address, we have sent it a link to reset the password. Check your inbox.";

function ask(view: RenderResult, email: string) {
  type(view, "Email", email);
  fireEvent.click(view.getByRole("button", { name: "Send reset link" }));
}

async function wordsFor(email: string): Promise<string> {
  const view = render(<RequestResetScreen onBack={() => {}} />);
  try {
    ask(view, email);
    await view.findByText(NEUTRAL);
    return view.container.innerHTML.replace(/P\d+-\d+/g, "id");
  } finally {
    view.unmount();
  }
}

Deno.test("RequestResetScreen answers the same neutral sentence for a known and an unknown address", async () => {
  // The contract answers 202 for every address; the screen must add nothing.
  env.use(requestPasswordResetOk());
  const recorder = recordRequests(env);
  const known = await wordsFor("ada@example.com");
  const unknown = await wordsFor("nobody@example.com");
  assert.equal(known, unknown, "not a character of difference");
  const bodies = (await recorder.requests()).map((r) => r.body);
  assert.deepEqual(bodies, [
    { email: "ada@example.com" },
    { email: "nobody@example.com" },
  ]);
});

Deno.test("RequestResetScreen shows the sentence in a status region and offers the way back", async () => {
  env.use(requestPasswordResetOk());
  let back = 0;
  const view = render(<RequestResetScreen onBack={() => back++} />);
  view.getByRole("heading", { name: "Reset your password" });
  assertAccessible(view.container);
  ask(view, " ada@example.com ");
  await view.findByText(NEUTRAL);
  assert.equal(view.getByRole("status").textContent, NEUTRAL);
  assert.ok(view.queryByLabelText("Email") === null, "the form is done");
  fireEvent.click(view.getByRole("button", { name: "Back to sign in" }));
  assert.equal(back, 1);
});

Deno.test("RequestResetScreen says when to try again after the limiter refuses", async () => {
  env.use(
    refuse("requestPasswordReset", "login_rate_limited", {
      retryAfter: 120,
    }),
  );
  const view = render(<RequestResetScreen />);
  ask(view, "ada@example.com");
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "Too many attempts. Try again in 2 minutes.",
    )
  );
  assert.ok(view.queryByText(NEUTRAL) === null);
  assert.ok(view.getByLabelText("Email"), "the form stays for later");
});

Deno.test("RequestResetScreen says so on a server too old for password resets", async () => {
  env.use(serverTooOld("requestPasswordReset"));
  const view = render(<RequestResetScreen />);
  ask(view, "ada@example.com");
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This server is too old for password resets. Ask its administrator to upgrade Gatehouse.",
    )
  );
  assert.ok(view.queryByText(NEUTRAL) === null);
});

Deno.test("RequestResetScreen shows a refused address next to the field", async () => {
  env.use(
    refuse("requestPasswordReset", "email_invalid", {
      meta: { field: "email" },
    }),
  );
  const view = render(<RequestResetScreen />);
  ask(view, "not an address");
  await findFieldError(
    view,
    "Email",
    "Enter an email address like name@example.com.",
  );
});

Deno.test("RequestResetScreen says when the server cannot be reached", async () => {
  env.use(networkFailure("requestPasswordReset"));
  const view = render(<RequestResetScreen />);
  ask(view, "ada@example.com");
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "Cannot reach the server. Check your connection and try again.",
    )
  );
});

Deno.test("RequestResetScreen marks an empty address without asking the server", async () => {
  const recorder = recordRequests(env);
  const view = render(<RequestResetScreen />);
  assert.ok(view.queryByRole("button", { name: "Back to sign in" }) === null);
  fireEvent.click(view.getByRole("button", { name: "Send reset link" }));
  await findFieldError(view, "Email", "This field is required.");
  assert.deepEqual(await recorder.requests(), []);
});
