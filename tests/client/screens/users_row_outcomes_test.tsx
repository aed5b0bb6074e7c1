// UsersScreen's row actions (issue 26, items 7 and 8): a role change,
// "Sign out everywhere" and "Remove second factor" each confirm on screen
// (a status region that is seen, not only heard: the row may look the
// same afterwards), and "Remove second factor…" is offered only for an
// account the list says has one, and no more once it is removed.

import assert from "node:assert/strict";
import type { User } from "../../../client/types.ts";
import { UsersScreen } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import {
  fireEvent,
  type RenderResult,
  waitFor,
  within,
} from "@testing-library/preact";
import { admin, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [testing.listInvitationsOk([])],
});

const withApp = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000a",
  name: "Ada",
  email: "ada@example.com",
  secondFactor: { totp: true, passkeys: 0 },
});
const withPasskey = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000b",
  name: "Pat",
  email: "pat@example.com",
  secondFactor: { totp: false, passkeys: 2 },
});
const without = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000c",
  name: "Nia",
  email: "nia@example.com",
  secondFactor: { totp: false, passkeys: 0 },
});

async function renderUsers(users: readonly User[]) {
  env.use(testing.listUsersOk(users));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText(users[users.length - 1]!.email);
  return view;
}

function row(view: RenderResult, user: User): HTMLElement {
  const element = view.container.querySelector<HTMLElement>(
    `[data-user-id="${user.id}"]`,
  );
  assert.ok(element, `a row for ${user.name}`);
  return element;
}

/** The items of the row's menu, opened. */
function menu(view: RenderResult, user: User): string[] {
  fireEvent.click(
    within(row(view, user)).getByRole("button", {
      name: `Actions for ${user.name}`,
    }),
  );
  const items = within(row(view, user)).getAllByRole("menuitem").map((item) =>
    item.getAttribute("data-gh-action") ?? ""
  );
  fireEvent.keyDown(within(row(view, user)).getByRole("menu"), {
    key: "Escape",
  });
  return items;
}

function confirm(name: string, button: string): void {
  const dialog = document.querySelector<HTMLDialogElement>(
    `dialog[data-gh-dialog="${name}"]`,
  );
  assert.ok(dialog?.open, `the ${name} dialog is open`);
  fireEvent.click(within(dialog).getByRole("button", { name: button }));
}

/** The visible status regions' text: not the visually-hidden kind. */
function visibleStatus(view: RenderResult): string {
  return [...view.container.querySelectorAll('[role="status"]')]
    .filter((e) =>
      !e.closest(".gh-visually-hidden") && e.classList.contains("gh-status")
    )
    .map((e) => e.textContent?.trim() ?? "")
    .filter((text) => text !== "")
    .join(" | ");
}

Deno.test("UsersScreen confirms a role change, a sign-out everywhere and a second factor removed in a visible status", async (t) => {
  const view = await renderUsers([withApp, without]);
  await t.step("role", async () => {
    env.use(testing.setUserRoleOk({ ...without, role: "admin" }));
    fireEvent.click(
      within(row(view, without)).getByRole("button", {
        name: "Actions for Nia",
      }),
    );
    fireEvent.click(
      within(row(view, without)).getByRole("menuitem", {
        name: "Change role…",
      }),
    );
    const dialog = document.querySelector<HTMLDialogElement>(
      'dialog[data-gh-dialog="role"]',
    )!;
    fireEvent.change(within(dialog).getByLabelText("Role"), {
      target: { value: "admin" },
    });
    confirm("role", "Change role");
    await waitFor(() =>
      assert.equal(visibleStatus(view), "Nia now has the role admin.")
    );
  });
  await t.step("sign out everywhere", async () => {
    env.use(testing.revokeUserSessionsOk());
    fireEvent.click(
      within(row(view, withApp)).getByRole("button", {
        name: "Actions for Ada",
      }),
    );
    fireEvent.click(
      within(row(view, withApp)).getByRole("menuitem", {
        name: "Sign out everywhere…",
      }),
    );
    confirm("sessions", "Sign out everywhere");
    await waitFor(() =>
      assert.equal(visibleStatus(view), "Ada is signed out everywhere.")
    );
  });
  await t.step("second factor", async () => {
    env.use(testing.removeUserSecondFactorOk());
    // The row's button waits for the last request to settle.
    await waitFor(() =>
      assert.equal(
        within(row(view, withApp)).getByRole("button", {
          name: "Actions for Ada",
        }).getAttribute("aria-disabled"),
        null,
      )
    );
    fireEvent.click(
      within(row(view, withApp)).getByRole("button", {
        name: "Actions for Ada",
      }),
    );
    fireEvent.click(
      within(row(view, withApp)).getByRole("menuitem", {
        name: "Remove second factor…",
      }),
    );
    confirm("second-factor", "Remove second factor");
    await waitFor(() =>
      assert.equal(
        visibleStatus(view),
        "Ada can sign in with their password alone now.",
      )
    );
  });
});

Deno.test("UsersScreen offers Remove second factor only for an account that has one, and not after removing it", async () => {
  const view = await renderUsers([withApp, withPasskey, without]);
  assert.ok(menu(view, withApp).includes("second-factor"), "an app");
  assert.ok(menu(view, withPasskey).includes("second-factor"), "passkeys");
  assert.ok(!menu(view, without).includes("second-factor"), "none");
  assert.ok(menu(view, without).includes("sessions"), "the rest stays");

  env.use(testing.removeUserSecondFactorOk());
  fireEvent.click(
    within(row(view, withApp)).getByRole("button", {
      name: "Actions for Ada",
    }),
  );
  fireEvent.click(
    within(row(view, withApp)).getByRole("menuitem", {
      name: "Remove second factor…",
    }),
  );
  confirm("second-factor", "Remove second factor");
  await waitFor(() => assert.notEqual(visibleStatus(view), ""));
  await waitFor(() =>
    assert.ok(!menu(view, withApp).includes("second-factor"), "removed")
  );
});
