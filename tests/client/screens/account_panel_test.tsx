// AccountPanel: who is signed in, and signing out (the gate's login screen
// returns; a failure says so).

import assert from "node:assert/strict";
import { AuthGate, sessionQueryKey } from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import {
  currentSession,
  defaultUser,
  installTestEnvironment,
  listActivityOk,
  listSessionsOk,
  logoutOk,
  networkFailure,
} from "@gatehouse/client/testing";
import { fireEvent, waitFor } from "@testing-library/preact";
import {
  admin,
  alertText,
  assertAccessible,
  quickClient,
  renderWith,
} from "./_screens.tsx";

// The panel lists the account's sessions and recent activity beside who is
// signed in.
const env = installTestEnvironment({
  handlers: [listSessionsOk([currentSession]), listActivityOk()],
});

Deno.test("AccountPanel shows the signed-in account's name, email and role", () => {
  const view = renderWith(<AccountPanel />, admin);
  view.getByRole("heading", { name: "Your account" });
  assert.equal(
    view.container.querySelector(".gh-account-name")?.textContent,
    admin.name,
  );
  assert.equal(
    view.container.querySelector(".gh-account-email")?.textContent,
    admin.email,
  );
  assert.equal(
    view.container.querySelector(".gh-account-role")?.textContent,
    "admin",
  );
  assertAccessible(view.container);
});

Deno.test("AccountPanel's parts are headed one level below its title, each section labelled by its heading", () => {
  // Headings of the parts drawn at once (the others wait for their queries).
  const parts = [
    "Change password",
    "Where you are signed in",
    "Recent activity",
  ];
  const levels = [[undefined, 1, 2], [2, 2, 3]] as const;
  for (const [headingLevel, title, part] of levels) {
    const view = renderWith(
      <AccountPanel
        {...(headingLevel === undefined ? {} : { headingLevel })}
      />,
      admin,
    );
    view.getByRole("heading", { level: title, name: "Your account" });
    for (const name of parts) {
      const heading = view.getByRole("heading", { level: part, name });
      const section = heading.closest("section")!;
      assert.equal(section.getAttribute("aria-labelledby"), heading.id);
      view.getByRole("region", { name });
    }
    view.unmount();
  }
});

Deno.test("AccountPanel shows No role for an account without one", () => {
  const view = renderWith(<AccountPanel />, defaultUser);
  assert.equal(
    view.container.querySelector(".gh-account-role")?.textContent,
    "No role",
  );
});

Deno.test("AccountPanel signs out: the session ends and the gate shows the login screen", async () => {
  env.use(logoutOk());
  const view = renderWith(
    <AuthGate loginScreen={() => <p>Please sign in</p>}>
      <AccountPanel />
    </AuthGate>,
    admin,
  );
  view.client.setQueryData(["projects"], ["of this account"]);
  fireEvent.click(view.getByRole("button", { name: "Sign out" }));
  await view.findByText("Please sign in");
  assert.equal(view.client.getQueryData(sessionQueryKey), null);
  assert.equal(view.client.getQueryData(["projects"]), undefined);
});

Deno.test("AccountPanel says so when signing out fails, and stays signed in", async () => {
  env.use(networkFailure("logout"));
  const view = renderWith(<AccountPanel />, admin);
  fireEvent.click(view.getByRole("button", { name: "Sign out" }));
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "Cannot reach the server. Check your connection and try again.",
    )
  );
  assert.deepEqual(view.client.getQueryData(sessionQueryKey), admin);
  assert.ok(view.getByRole("button", { name: "Sign out" }));
});

Deno.test("AccountPanel renders nothing when nobody is signed in", async () => {
  const client = quickClient();
  client.setQueryData(sessionQueryKey, null);
  const view = renderWith(<AccountPanel />, null, client);
  assert.equal(view.container.innerHTML, "");
  client.setQueryData(sessionQueryKey, admin);
  await view.findByText(admin.email);
});
