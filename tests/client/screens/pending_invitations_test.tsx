// The pending invitations of UsersScreen, with Revoke (the client's
// listInvitations and revokeInvitation), an invitation found no longer
// pending, and "Sign out everywhere", hidden until its seam
// (client/screens/_user_sessions_api.ts) says the server has it.

import assert from "node:assert/strict";
import type { PendingInvitation, User } from "../../../client/types.ts";
import { UsersScreen } from "@gatehouse/client/screens";
import {
  accountOf,
  installTestEnvironment,
  listInvitationsOk,
  listUsersOk,
  revokeInvitationNotFound,
  revokeInvitationOk,
  serverTooOld,
  userWithRole,
} from "@gatehouse/client/testing";
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { http, HttpResponse } from "msw";
import { userSessions } from "../../../client/screens/_user_sessions_api.ts";
import { recordRequests } from "../_support.ts";
import { admin, alertText, assertAccessible, renderWith } from "./_screens.tsx";

const env = installTestEnvironment({
  handlers: [listInvitationsOk([])],
});

const ada: User = accountOf(userWithRole("member"), {
  name: "Ada",
  email: "ada@example.com",
});
const kate: PendingInvitation = {
  id: "0190f0a0-0000-7000-8000-0000000000aa",
  email: "kate@example.com",
  name: "Kate",
  role: "member",
  invitedBy: { id: admin.id, email: admin.email, name: "Root" },
  createdAt: "2026-03-01T10:00:00.000Z",
  expiresAt: "2026-03-08T10:00:00.000Z",
};

/** UsersScreen with Kate's invitation pending: the screen, its section and her row's email. */
async function showKate() {
  env.use(listUsersOk([ada]), listInvitationsOk([kate]));
  const view = renderWith(<UsersScreen />, admin);
  const section = await view.findByRole("region", {
    name: "Pending invitations",
  });
  const item = await within(section).findByText("kate@example.com");
  return { view, section, item };
}

/** Opens the revoke dialog of Kate's invitation. */
function openRevokeDialog(section: HTMLElement): HTMLDialogElement {
  fireEvent.click(
    within(section).getByRole("button", {
      name: "Revoke the invitation for kate@example.com",
    }),
  );
  return document.querySelector<HTMLDialogElement>(
    'dialog[data-gh-dialog="revoke"]',
  )!;
}

Deno.test("UsersScreen lists the pending invitations and revokes one after a confirmation", async () => {
  const { view, section, item } = await showKate();
  within(section).getByText(/Invited by Root/);
  assertAccessible(view.container);

  const recorder = recordRequests(env);
  env.use(
    revokeInvitationOk(),
    listInvitationsOk([]),
  );
  const dialog = openRevokeDialog(section);
  assert.ok(dialog.open);
  fireEvent.click(
    within(dialog).getByRole("button", { name: "Revoke invitation" }),
  );
  await waitFor(() => assert.equal(item.isConnected, false));
  await within(section).findByText("No pending invitations.");
  const outcome = within(section).getByText(
    "The invitation for kate@example.com is revoked.",
  );
  // Shown, not only announced: no visually hidden ancestor.
  assert.equal(outcome.closest(".gh-visually-hidden"), null);
  assert.ok(outcome.closest('[role="status"]'), "in the section's status");
  assert.ok(
    document.activeElement ===
      within(section).getByRole("heading", { name: "Pending invitations" }),
    "focus on the section's heading once the row is gone",
  );
  recorder.stop();
  const deleted = (await recorder.requests()).find((r) =>
    r.method === "DELETE"
  );
  assert.equal(deleted?.url.pathname, `/api/users/invitations/${kate.id}`);
});

Deno.test("UsersScreen says an invitation revoked or accepted meanwhile is no longer pending, and the list is read again as the dialog closes", async () => {
  const { section } = await showKate();
  env.use(revokeInvitationNotFound());
  const dialog = openRevokeDialog(section);
  fireEvent.click(
    within(dialog).getByRole("button", { name: "Revoke invitation" }),
  );
  await waitFor(() => assert.notEqual(alertText(dialog).trim(), ""));
  assert.equal(
    alertText(dialog),
    "This invitation is no longer pending. Reload the list.",
  );
  assert.ok(dialog.open, "the dialog stays open with its refusal");
  within(section).getByText("kate@example.com");

  // Meanwhile Bea was invited: the list read again shows her, not Kate.
  const bea: PendingInvitation = {
    ...kate,
    id: "0190f0a0-0000-7000-8000-0000000000bb",
    email: "bea@example.com",
  };
  env.use(listInvitationsOk([bea]));
  fireEvent.click(within(dialog).getByRole("button", { name: "Reload list" }));
  await within(section).findByText("bea@example.com");
  assert.equal(within(section).queryByText("kate@example.com"), null);
  assert.ok(
    document.activeElement ===
      within(section).getByRole("heading", { name: "Pending invitations" }),
    "focus on the section's heading once the row is gone",
  );
});

Deno.test("UsersScreen shows the ordinary error when the invitation list answers 404", async () => {
  // No "server too old" for the invitation list: it ships with the server.
  env.use(listUsersOk([ada]), serverTooOld("listInvitations"));
  const view = renderWith(<UsersScreen />, admin);
  const section = await view.findByRole("region", {
    name: "Pending invitations",
  });
  await within(section).findByText(
    "The server gave an unexpected answer. Try again later.",
  );
});

Deno.test("UsersScreen offers Sign out everywhere only when the seam says the server has it", async () => {
  env.use(listUsersOk([ada]));
  userSessions.available = false;
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("ada@example.com");
  const menu = () => {
    fireEvent.click(view.getByRole("button", { name: "Actions for Ada" }));
    return view.getAllByRole("menuitem").map((item) => item.textContent);
  };
  assert.ok(!menu().includes("Sign out everywhere…"));
  view.unmount();

  userSessions.available = true;
  try {
    env.use(
      http.delete(
        "*/api/users/:id/sessions",
        () => new HttpResponse(null, { status: 204 }),
      ),
    );
    const recorder = recordRequests(env);
    const again = renderWith(<UsersScreen />, admin);
    await again.findByText("ada@example.com");
    fireEvent.click(again.getByRole("button", { name: "Actions for Ada" }));
    fireEvent.click(
      again.getByRole("menuitem", { name: "Sign out everywhere…" }),
    );
    const dialog = document.querySelector<HTMLDialogElement>(
      'dialog[data-gh-dialog="sessions"]',
    )!;
    assert.match(dialog.textContent ?? "", /Sign Ada out everywhere\?/);
    fireEvent.click(
      within(dialog).getByRole("button", { name: "Sign out everywhere" }),
    );
    await again.findByText("Ada is signed out everywhere.");
    recorder.stop();
    const sent = (await recorder.requests()).find((r) => r.method === "DELETE");
    assert.equal(sent?.url.pathname, `/api/users/${ada.id}/sessions`);
  } finally {
    userSessions.available = true;
  }
});
