// A 401 on a call a screen makes itself, outside the query client's caches
// (a form's submit, the re-authentication dialog), ends the session as a
// query's 401 does (DESIGN.md §4): the session in the cache becomes null,
// the gate shows the login screen saying the session ended, and the other
// tabs are told.

import assert from "node:assert/strict";
import { AuthGate, sessionQueryKey, type SessionUser } from "@gatehouse/client";
import { AccountPanel, LoginScreen } from "@gatehouse/client/screens";
import {
  installTestEnvironment,
  listActivityOk,
  listPasskeysOk,
  listSessionsOk,
  refuse,
  setupTotpRefused,
} from "@gatehouse/client/testing";
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { TAB_CHANNEL } from "../../../client/_tabs.ts";
import { OPERATIONS } from "@gatehouse/contract";
import { http, HttpResponse } from "msw";
import { admin, renderWith, type } from "./_screens.tsx";

const env = installTestEnvironment({
  handlers: [listSessionsOk(), listActivityOk()],
});

const gated = () => (
  <AuthGate
    loginScreen={(onLogin) => <LoginScreen brand="Acme" onLogin={onLogin} />}
  >
    <AccountPanel />
  </AuthGate>
);

/**
 * Waits for the gate's login screen, which says the session ended, in the
 * panel's place; the cache then holds no session.
 */
async function findSessionEnded(
  view: ReturnType<typeof renderWith>,
): Promise<void> {
  await view.findByText("Your session has ended. Sign in again.");
  assert.equal(
    view.client.getQueryData(sessionQueryKey),
    null,
    "session dropped",
  );
  view.getByRole("heading", { name: "Sign in to Acme" });
}

Deno.test("a 401 on saving the language drops the session and the login screen says it ended", async () => {
  const user: SessionUser = { ...admin, locale: "en" };
  env.use(refuse("updateAccount", "session_absent"));
  const view = renderWith(gated(), user);
  fireEvent.click(view.getByRole("button", { name: "Save language" }));
  await findSessionEnded(view);
});

Deno.test("a 401 on changing the password drops the session and the login screen says it ended", async () => {
  env.use(refuse("changePassword", "session_absent"));
  const view = renderWith(gated(), admin);
  type(view, "Current password", "an old password here");
  type(view, "New password", "a brand new password");
  type(view, "Repeat the password", "a brand new password");
  fireEvent.click(view.getByRole("button", { name: "Change password" }));
  await findSessionEnded(view);
});

Deno.test("a 401 while proving who one is drops the session, the login screen says it ended, and the other tabs hear it", async () => {
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data?.type);
  try {
    env.use(
      listPasskeysOk([]),
      setupTotpRefused("reauthentication_required", true),
      refuse("reauthenticate", "session_absent"),
    );
    const user: SessionUser = {
      ...admin,
      secondFactor: { totp: false, passkeys: 0 },
    };
    const view = renderWith(gated(), user);
    fireEvent.click(
      view.getByRole("button", { name: "Set up an authenticator app" }),
    );
    const ask = await waitFor(() => {
      const found = document.querySelector<HTMLDialogElement>(
        'dialog[data-gh-dialog="reauthenticate"]',
      );
      assert.ok(found, "the dialog asks for a proof");
      return found;
    });
    fireEvent.input(within(ask).getByLabelText("Password"), {
      target: { value: "my password" },
    });
    fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
    await findSessionEnded(view);
    await waitFor(() => assert.deepEqual(heard, ["session-ended"]));
  } finally {
    otherTab.close();
  }
});

Deno.test("a 401 on changing the password answered after another tab signed in leaves the new session", async () => {
  // The change went out under the session that ended (another tab's
  // sign-out, an idle timeout); its 401 arrives after the other tab signed
  // in again, which this tab followed.
  const held = Promise.withResolvers<void>();
  let sent = 0;
  let reads = 0;
  env.use(
    http.post(`*${OPERATIONS.changePassword.path}`, async () => {
      sent += 1;
      await held.promise;
      return HttpResponse.json(
        { error: "Not signed in", code: "session_absent" },
        { status: 401 },
      );
    }),
    http.get(`*${OPERATIONS.fetchSession.path}`, () => {
      reads += 1;
      return HttpResponse.json({
        id: admin.id,
        email: admin.email,
        name: admin.name,
        role: admin.role,
      });
    }),
  );
  const heard: unknown[] = [];
  const otherTab = new BroadcastChannel(TAB_CHANNEL);
  otherTab.onmessage = (event: MessageEvent) => heard.push(event.data?.type);
  try {
    const view = renderWith(gated(), admin);
    type(view, "Current password", "an old password here");
    type(view, "New password", "a brand new password");
    type(view, "Repeat the password", "a brand new password");
    fireEvent.click(view.getByRole("button", { name: "Change password" }));
    await waitFor(() => assert.equal(sent, 1));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const another = new BroadcastChannel(TAB_CHANNEL);
    another.postMessage({
      type: "signed-in",
      userId: admin.id,
      tab: "another-tab",
    });
    another.close();
    await waitFor(() => assert.equal(reads, 1));
    await waitFor(() => assert.equal(view.client.isFetching(), 0));
    held.resolve();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(
      heard.filter((type) => type !== "signed-in"), // the other tab's own
      [],
      "no tab is told the session ended",
    );
    assert.notEqual(view.client.getQueryData(sessionQueryKey), null);
    assert.equal(
      view.queryByText("Your session has ended. Sign in again."),
      null,
    );
    view.getByRole("button", { name: "Change password" });
  } finally {
    otherTab.close();
  }
});

Deno.test("a 401 on changing the password after this tab's clock went back drops the session", async () => {
  // This tab followed another tab's sign-in, then the wall clock moved
  // back an hour; the change goes out after that sign-in, under its
  // session, which truly ended: its 401 ends it, whatever the clock says
  // (before, the form took it for a call sent before the sign-in, showed
  // nothing and left the panel up).
  let reads = 0;
  env.use(
    refuse("changePassword", "session_absent"),
    http.get(`*${OPERATIONS.fetchSession.path}`, () => {
      reads += 1;
      return HttpResponse.json({
        id: admin.id,
        email: admin.email,
        name: admin.name,
        role: admin.role,
      });
    }),
  );
  const wallClock = Date.now;
  try {
    const view = renderWith(gated(), admin);
    const another = new BroadcastChannel(TAB_CHANNEL);
    another.postMessage({
      type: "signed-in",
      userId: admin.id,
      tab: "another-tab",
    });
    another.close();
    await waitFor(() => assert.equal(reads, 1));
    await waitFor(() => assert.equal(view.client.isFetching(), 0));
    const back = wallClock() - 3_600_000;
    Date.now = () => back;
    type(view, "Current password", "an old password here");
    type(view, "New password", "a brand new password");
    type(view, "Repeat the password", "a brand new password");
    fireEvent.click(view.getByRole("button", { name: "Change password" }));
    await findSessionEnded(view);
  } finally {
    Date.now = wallClock;
  }
});
