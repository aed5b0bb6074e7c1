// The screens of account security: the re-authentication dialog retrying
// once, the account panel's password, sessions, activity and two-step
// verification, the login screen's second step, and the audit log.

import assert from "node:assert/strict";
import {
  ReauthenticationRequiredError,
  type SessionUser,
} from "@gatehouse/client";
import { useState } from "preact/hooks";
import {
  AccountPanel,
  AuditLogScreen,
  LoginScreen,
  useReauthentication,
  UsersScreen,
} from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent, render, waitFor, within } from "@testing-library/preact";
import { AUDIT_EVENT_TYPES } from "@gatehouse/contract";
import {
  eventDetail,
  eventLabel,
} from "../../../client/screens/_audit_labels.ts";
import { recordRequests } from "../_support.ts";
import {
  admin,
  assertAccessible,
  findFieldError,
  inSpanish,
  member,
  renderWith,
  type,
} from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([]),
    testing.listInvitationsOk([]),
  ],
});

const ada = testing.accountOf(testing.userWithRole("member"), {
  name: "Ada",
  email: "ada@example.com",
});
const dialog = (name: string) =>
  document.querySelector<HTMLDialogElement>(`dialog[data-gh-dialog="${name}"]`);

// An administrator with an authenticator app.
const withApp: SessionUser = {
  ...admin,
  secondFactor: { totp: true, passkeys: 0 },
};

// Asks UsersScreen to sign Ada out everywhere, past the re-authentication
// window: the dialog that asks for proof.
async function signOutEverywhere(
  view: ReturnType<typeof renderWith>,
): Promise<HTMLDialogElement> {
  await view.findByText("ada@example.com");
  fireEvent.click(view.getByRole("button", { name: "Actions for Ada" }));
  fireEvent.click(view.getByRole("menuitem", { name: "Sign out everywhere…" }));
  fireEvent.click(
    within(dialog("sessions")!).getByRole("button", {
      name: "Sign out everywhere",
    }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  return dialog("reauthenticate")!;
}

Deno.test("past the window, the reauthentication dialog asks for the password and the action runs once more", async () => {
  env.use(
    testing.listUsersOk([ada]),
    testing.revokeUserSessionsRefused("reauthentication_required", true),
    testing.revokeUserSessionsOk(),
    testing.reauthenticateOk(),
  );
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen />, admin);
  const ask = await signOutEverywhere(view);
  assertAccessible(ask);
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await findFieldError(view, "Password", "This field is required.");
  fireEvent.input(within(ask).getByLabelText("Password"), {
    target: { value: "my password" },
  });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await view.findByText("Ada is signed out everywhere.");
  assert.equal(dialog("reauthenticate"), null);
  recorder.stop();
  const sent = (await recorder.requests())
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.url.pathname}`);
  assert.deepEqual(sent, [
    `DELETE /api/users/${ada.id}/sessions`,
    "POST /api/auth/reauthenticate",
    `DELETE /api/users/${ada.id}/sessions`,
  ]);
});

// Two sensitive calls of one component, both past the window at once.
function TwoActions(
  props: { first: () => Promise<string>; second: () => Promise<string> },
) {
  const reauth = useReauthentication();
  const [done, setDone] = useState<string[]>([]);
  const run = (call: () => Promise<string>) =>
    void reauth.guard(call).then(
      (what) => setDone((list) => [...list, what]),
      (error: Error) => setDone((list) => [...list, error.name]),
    );
  return (
    <>
      <button type="button" onClick={() => run(props.first)}>First</button>
      <button type="button" onClick={() => run(props.second)}>Second</button>
      <p data-testid="done">{[...done].sort().join(", ")}</p>
      {reauth.dialog}
    </>
  );
}

Deno.test("one proof in the reauthentication dialog runs again every call that asked for it", async (t) => {
  for (const answer of ["Confirm", "Cancel"] as const) {
    await t.step(answer, async () => {
      const calls = { first: 0, second: 0 };
      const refused = () =>
        Promise.reject(
          new ReauthenticationRequiredError(undefined, {
            code: "reauthentication_required",
            status: 403,
          }),
        );
      const action = (name: "first" | "second") => () =>
        ++calls[name] === 1 ? refused() : Promise.resolve(name);
      env.use(testing.reauthenticateOk());
      const view = renderWith(
        <TwoActions first={action("first")} second={action("second")} />,
        admin,
      );
      try {
        fireEvent.click(view.getByRole("button", { name: "First" }));
        fireEvent.click(view.getByRole("button", { name: "Second" }));
        await waitFor(() => assert.equal(calls.second, 1));
        await waitFor(() => assert.ok(dialog("reauthenticate")));
        const ask = dialog("reauthenticate")!;
        if (answer === "Confirm") {
          fireEvent.input(within(ask).getByLabelText("Password"), {
            target: { value: "my password" },
          });
        }
        fireEvent.click(within(ask).getByRole("button", { name: answer }));
        await waitFor(() =>
          assert.equal(
            view.getByTestId("done").textContent,
            answer === "Confirm"
              ? "first, second"
              : "ReauthenticationRequiredError, ReauthenticationRequiredError",
          )
        );
        assert.equal(dialog("reauthenticate"), null);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("a call waiting in the reauthentication dialog is cancelled when its component goes away", async () => {
  const refused = () =>
    Promise.reject(
      new ReauthenticationRequiredError(undefined, {
        code: "reauthentication_required",
        status: 403,
      }),
    );
  let settled: Promise<unknown> | undefined;
  function Asking() {
    const reauth = useReauthentication();
    return (
      <>
        <button
          type="button"
          onClick={() => settled = reauth.guard(refused)}
        >
          Go
        </button>
        {reauth.dialog}
      </>
    );
  }
  const view = renderWith(<Asking />, admin);
  fireEvent.click(view.getByRole("button", { name: "Go" }));
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  view.unmount();
  // Rejected as a cancel is: nobody is left to answer the dialog, and a
  // promise that never settles would hold the caller's work for ever.
  const outcome = await Promise.race([
    settled!.then(() => "resolved", (error: Error) => error.name),
    new Promise((resolve) => setTimeout(() => resolve("pending"), 1_000)),
  ]);
  assert.equal(outcome, "ReauthenticationRequiredError");
});

Deno.test("a call refused after its component went away is cancelled, not left waiting for a dialog nobody shows", async () => {
  // The call left while the component was there; its refusal comes back
  // after it went away (the person moved on while it was answered).
  const answer = Promise.withResolvers<never>();
  let settled: Promise<unknown> | undefined;
  function Asking() {
    const reauth = useReauthentication();
    return (
      <>
        <button
          type="button"
          onClick={() => settled = reauth.guard(() => answer.promise)}
        >
          Go
        </button>
        {reauth.dialog}
      </>
    );
  }
  const view = renderWith(<Asking />, admin);
  fireEvent.click(view.getByRole("button", { name: "Go" }));
  view.unmount();
  answer.reject(
    new ReauthenticationRequiredError(undefined, {
      code: "reauthentication_required",
      status: 403,
    }),
  );
  const outcome = await Promise.race([
    settled!.then(() => "resolved", (error: Error) => error.name),
    new Promise((resolve) => setTimeout(() => resolve("pending"), 1_000)),
  ]);
  assert.equal(outcome, "ReauthenticationRequiredError");
});

Deno.test("the reauthentication dialog shows a wrong password, and cancelling leaves the refusal in the action's dialog", async () => {
  env.use(
    testing.listUsersOk([ada]),
    testing.removeUserSecondFactorRefused("reauthentication_required"),
    testing.reauthenticateRefused(),
  );
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("ada@example.com");
  fireEvent.click(view.getByRole("button", { name: "Actions for Ada" }));
  fireEvent.click(
    view.getByRole("menuitem", { name: "Remove second factor…" }),
  );
  fireEvent.click(
    within(dialog("second-factor")!).getByRole("button", {
      name: "Remove second factor",
    }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  const ask = dialog("reauthenticate")!;
  fireEvent.input(within(ask).getByLabelText("Password"), {
    target: { value: "wrong" },
  });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await findFieldError(view, "Password", "The password is incorrect.");
  fireEvent.click(within(ask).getByRole("button", { name: "Cancel" }));
  await waitFor(() => assert.equal(dialog("reauthenticate"), null));
  await waitFor(() =>
    assert.match(
      dialog("second-factor")!.textContent ?? "",
      /Confirm it is you to continue\./,
    )
  );
});

Deno.test("the reauthentication dialog offers a code when the account has an app", async () => {
  env.use(
    testing.listUsersOk([ada]),
    testing.revokeUserSessionsRefused("reauthentication_required", true),
    testing.revokeUserSessionsOk(),
    testing.reauthenticateOk(),
  );
  const view = renderWith(<UsersScreen />, withApp);
  const ask = await signOutEverywhere(view);
  fireEvent.click(
    within(ask).getByRole("button", {
      name: "Use a code from your app instead",
    }),
  );
  fireEvent.input(within(ask).getByLabelText("Code"), {
    target: { value: "123 456" },
  });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await view.findByText("Ada is signed out everywhere.");
});

Deno.test("the reauthentication dialog takes a recovery code and shows a wrong one by its field", async () => {
  env.use(
    testing.listUsersOk([ada]),
    testing.revokeUserSessionsRefused("reauthentication_required", true),
    testing.revokeUserSessionsOk(),
    testing.reauthenticateRefused("code_invalid", "recovery_code"),
  );
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen />, withApp);
  const ask = await signOutEverywhere(view);
  fireEvent.click(
    within(ask).getByRole("button", { name: "Use a recovery code instead" }),
  );
  // From a recovery code, the other two ways stay one click away.
  assert.ok(
    within(ask).getByRole("button", {
      name: "Use a code from your app instead",
    }),
  );
  assert.ok(
    within(ask).getByRole("button", { name: "Use your password instead" }),
  );
  const code = () => within(ask).getByLabelText("Recovery code");
  fireEvent.input(code(), { target: { value: " wrong-code " } });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await findFieldError(
    view,
    "Recovery code",
    "This code is not valid. Check it and try again.",
  );
  assertAccessible(ask);
  env.use(testing.reauthenticateOk());
  fireEvent.input(code(), { target: { value: "k3v9-p2xq" } });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await view.findByText("Ada is signed out everywhere.");
  recorder.stop();
  const proofs = (await recorder.requests())
    .filter((r) => r.url.pathname === "/api/auth/reauthenticate")
    .map((r) => r.body);
  assert.deepEqual(proofs, [
    { recovery_code: "wrong-code" },
    { recovery_code: "k3v9-p2xq" },
  ]);
});

Deno.test("UsersScreen's Activity item calls onShowActivity with the account", async () => {
  env.use(testing.listUsersOk([ada]));
  let shown: string | null = null;
  const view = renderWith(
    <UsersScreen onShowActivity={(account) => (shown = account.id)} />,
    admin,
  );
  await view.findByText("ada@example.com");
  fireEvent.click(view.getByRole("button", { name: "Actions for Ada" }));
  fireEvent.click(view.getByRole("menuitem", { name: "Activity" }));
  assert.equal(shown, ada.id);
});

Deno.test("AccountPanel: a wrong current password and a common new one show by their fields; success says so", async () => {
  const view = renderWith(<AccountPanel />, admin);
  env.use(testing.changePasswordIncorrect());
  type(view, "Current password", "wrong");
  type(view, "New password", "a long enough new password");
  type(view, "Repeat the password", "a long enough new password");
  const change = () =>
    fireEvent.click(view.getByRole("button", { name: "Change password" }));
  change();
  await findFieldError(view, "Current password", "The password is incorrect.");
  env.use(testing.changePasswordRefused("password_too_common"));
  change();
  await findFieldError(
    view,
    "New password",
    "This password is too common. Choose one that is harder to guess.",
  );
  env.use(testing.changePasswordOk());
  change();
  await view.findByText(
    "Your password is changed. Your other sessions have ended.",
  );
  assertAccessible(view.container);
});

Deno.test("AccountPanel lists the sessions, marks this device, ends one and all others", async () => {
  env.use(testing.revokeSessionOk(), testing.revokeOtherSessionsOk());
  const recorder = recordRequests(env);
  const view = renderWith(<AccountPanel />, admin);
  await view.findByText("This device");
  view.getByText("Safari on iOS");
  fireEvent.click(
    view.getByRole("button", { name: "End the session on Safari on iOS" }),
  );
  await view.findByText("The session on Safari on iOS has ended.");
  fireEvent.click(
    view.getByRole("button", { name: "Sign out everywhere else" }),
  );
  fireEvent.click(
    within(dialog("end-other-sessions")!).getByRole("button", {
      name: "Sign out everywhere else",
    }),
  );
  await view.findByText("Every other session has ended.");
  recorder.stop();
  const deletes = (await recorder.requests()).filter((r) =>
    r.method === "DELETE"
  )
    .map((r) => r.url.pathname);
  assert.deepEqual(deletes, [
    `/api/auth/sessions/${testing.otherSession.id}`,
    "/api/auth/sessions",
  ]);
});

Deno.test("AccountPanel shows recent activity with device and address", async () => {
  const view = renderWith(<AccountPanel />, admin);
  await view.findByText("Signed in");
  view.getByText("Password changed");
  assert.ok(view.getAllByText("Firefox on Linux · 203.0.113.7").length >= 1);
});

Deno.test("AccountPanel enrols an authenticator app: QR, key, code, ten codes shown once", async () => {
  env.use(
    testing.setupTotpRefused("reauthentication_required", true),
    testing.setupTotpOk(),
    testing.reauthenticateOk(),
    testing.confirmTotpRefused(),
  );
  const user: SessionUser = {
    ...admin,
    secondFactor: { totp: false, passkeys: 0 },
  };
  const view = renderWith(<AccountPanel />, user);
  fireEvent.click(
    view.getByRole("button", { name: "Set up an authenticator app" }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  fireEvent.input(
    within(dialog("reauthenticate")!).getByLabelText("Password"),
    {
      target: { value: "pw" },
    },
  );
  fireEvent.click(
    within(dialog("reauthenticate")!).getByRole("button", { name: "Confirm" }),
  );
  const qr = await view.findByAltText("QR code for your authenticator app");
  assert.match(qr.getAttribute("src") ?? "", /^data:image\/svg\+xml/);
  view.getByText(testing.sampleTotpSetup.secret);
  type(view, "Code", "000000");
  fireEvent.click(view.getByRole("button", { name: "Turn on" }));
  await findFieldError(
    view,
    "Code",
    "This code is not valid. Check it and try again.",
  );
  env.use(testing.confirmTotpOk(), testing.fetchSessionOk(user));
  fireEvent.click(view.getByRole("button", { name: "Turn on" }));
  await view.findByText(testing.sampleRecoveryCodes[0]!);
  assert.equal(view.container.querySelectorAll(".gh-codes li").length, 10);
  const download = view.getByText("Download codes");
  assert.equal(download.getAttribute("download"), "recovery-codes.txt");
  fireEvent.click(view.getByRole("button", { name: "I saved them" }));
  await waitFor(() =>
    assert.equal(view.queryByText(testing.sampleRecoveryCodes[0]!), null)
  );
});

Deno.test("LoginScreen's second step: a wrong code stays, a right one signs in", async () => {
  env.use(testing.loginSecondFactor(), testing.verifySecondFactorInvalid());
  let signedIn: SessionUser | null = null;
  const view = render(
    <LoginScreen brand="Acme" onLogin={(u) => (signedIn = u)} />,
  );
  type(view, "Email", "ada@example.com");
  type(view, "Password", "right password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await view.findByRole("heading", {
    name: "Enter the code from your authenticator app",
  });
  assertAccessible(view.container);
  type(view, "Code", "000000");
  fireEvent.click(view.getByRole("button", { name: "Verify" }));
  await findFieldError(
    view,
    "Code",
    "This code is not valid. Check it and try again.",
  );
  fireEvent.click(
    view.getByRole("button", { name: "Use a recovery code instead" }),
  );
  await view.findByRole("heading", { name: "Enter a recovery code" });
  env.use(testing.verifySecondFactorOk());
  type(view, "Recovery code", "code-00x");
  fireEvent.click(view.getByRole("button", { name: "Verify" }));
  await waitFor(() => assert.equal(signedIn?.id, testing.defaultUser.id));
});

Deno.test("LoginScreen's second step: an ended pending sign-in goes back with a message; Back goes back", async () => {
  env.use(
    testing.loginSecondFactor(["totp"]),
    testing.verifySecondFactorExpired(),
  );
  const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
  type(view, "Email", "ada@example.com");
  type(view, "Password", "right password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await view.findByLabelText("Code");
  assert.equal(
    view.queryByRole("button", { name: "Use a recovery code instead" }),
    null,
  );
  type(view, "Code", "123456");
  fireEvent.click(view.getByRole("button", { name: "Verify" }));
  await view.findByText(
    "Your sign-in took too long or had too many wrong codes. Sign in again.",
  );
  type(view, "Password", "right password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await view.findByLabelText("Code");
  fireEvent.click(view.getByRole("button", { name: "Back to sign in" }));
  await view.findByRole("heading", { name: "Sign in to Acme" });
});

Deno.test("AuditLogScreen: the table, the filter by type and account, and a notice for others", async () => {
  const target = { id: ada.id, email: ada.email };
  env.use(testing.listAuditEventsOk([
    testing.auditEventOf("user.role_changed", { target }),
    testing.auditEventOf("login.failed", { actor: null, target: null }),
  ], "next"));
  const recorder = recordRequests(env);
  const view = renderWith(<AuditLogScreen initialEmail={ada.email} />, admin);
  await view.findByRole("rowheader", { name: "Role changed" });
  assert.equal(view.queryByRole("rowheader", { name: "Failed sign-in" }), null);
  assert.equal(
    (view.getByLabelText("Account email") as HTMLInputElement).value,
    ada.email,
  );
  view.getByRole("button", { name: "Next page" });
  fireEvent.change(view.getByLabelText("Event"), {
    target: { value: "login.failed" },
  });
  type(view, "Account email", "");
  fireEvent.click(view.getByRole("button", { name: "Filter" }));
  await view.findByRole("rowheader", { name: "Failed sign-in" });
  recorder.stop();
  const requests = await recorder.requests();
  assert.equal(requests[0]!.url.searchParams.get("email"), ada.email);
  const last = requests.at(-1)!;
  assert.equal(last.url.searchParams.get("type"), "login.failed");
  assert.equal(last.url.searchParams.get("email"), null);
  assert.equal(last.url.searchParams.get("user_id"), null);
  type(view, "Account email", "not an address");
  fireEvent.click(view.getByRole("button", { name: "Filter" }));
  await findFieldError(
    view,
    "Account email",
    "Enter an email address like name@example.com.",
  );
  assertAccessible(view.container);
  const state = (container: Element) =>
    container.querySelector('[data-gh-screen="audit"]')?.getAttribute(
      "data-gh-state",
    );
  assert.equal(state(view.container), null);
  view.unmount();
  const other = renderWith(<AuditLogScreen />, member);
  other.getByText("Your account may not read the audit log.");
  // The state the page's styles and the browser tests find it by.
  assert.equal(state(other.container), "not-allowed");
});

Deno.test("every audit event type has Spanish words of its own", async () => {
  await inSpanish(() => {
    const labels = AUDIT_EVENT_TYPES.map(eventLabel);
    for (const [i, type] of AUDIT_EVENT_TYPES.entries()) {
      assert.notEqual(labels[i], type, type);
    }
    assert.equal(new Set(labels).size, labels.length);
    assert.equal(eventLabel("user.role_changed"), "Rol cambiado");
    return Promise.resolve();
  });
});

Deno.test("a role change names its old and new role; other events no detail", () => {
  const change = {
    type: "user.role_changed",
    detail: { old_role: "", new_role: "admin" },
  } as const;
  assert.equal(eventDetail(change), "No role → admin");
  assert.equal(
    eventDetail({ type: "user.disabled", detail: { role: "admin" } }),
    "",
  );
  assert.equal(eventDetail({ type: "user.role_changed", detail: {} }), "");
});
