// UsersScreen: the table (columns, total, page N of M, search announced,
// order), the row actions menu with its dialogs (disable with a
// confirmation sending the role the actor saw, enable, change role),
// refusals in their dialog, focus kept where the person acted, the session
// read again after a refusal of the actor's right, and who gets the screen
// at all.

import assert from "node:assert/strict";
import { AuthGate, type SessionUser } from "@gatehouse/client";
import type { User } from "../../../client/types.ts";
import { UsersScreen } from "@gatehouse/client/screens";
import {
  accountOf,
  fetchSessionOk,
  installTestEnvironment,
  listInvitationsOk,
  listUsersOk,
  refuse,
  setUserDisabledOk,
  setUserRoleOk,
  userWithRole,
} from "@gatehouse/client/testing";
import {
  fireEvent,
  type RenderResult,
  waitFor,
  within,
} from "@testing-library/preact";
import { http, HttpResponse } from "msw";
import { recordRequests } from "../_support.ts";
import {
  admin,
  assertAccessible,
  member,
  quickClient,
  renderWith,
} from "./_screens.tsx";

const env = installTestEnvironment({
  handlers: [listInvitationsOk([])],
});

const ada = accountOf(userWithRole("member"), {
  name: "Ada",
  email: "ada@example.com",
});
const grace = accountOf(userWithRole("editor"), {
  name: "Grace",
  email: "grace@example.com",
  disabled: true,
});
const me = accountOf(admin);

/** The wire form of an account (DESIGN.md §4). */
function wire(user: User) {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    created_at: user.createdAt,
  };
}

function row(view: RenderResult, user: User): HTMLElement {
  const element = view.container.querySelector<HTMLElement>(
    `[data-user-id="${user.id}"]`,
  );
  assert.ok(element, `a row for ${user.name}`);
  return element;
}

async function renderUsers(
  users: readonly User[] = [me, ada, grace],
  actor: SessionUser = admin,
) {
  env.use(listUsersOk(users));
  const view = renderWith(<UsersScreen />, actor);
  await within(view.container as HTMLElement).findByText(
    users[users.length - 1]!.email,
  );
  return view;
}

/** Opens the row's Actions menu and chooses `item`. */
function choose(view: RenderResult, user: User, item: string): void {
  fireEvent.click(
    within(row(view, user)).getByRole("button", {
      name: `Actions for ${user.name}`,
    }),
  );
  fireEvent.click(
    within(row(view, user)).getByRole("menuitem", { name: item }),
  );
}

function dialog(name: string): HTMLDialogElement {
  const element = document.querySelector<HTMLDialogElement>(
    `dialog[data-gh-dialog="${name}"]`,
  );
  assert.ok(element?.open, `the ${name} dialog is open`);
  return element;
}

const focused = () => document.activeElement;

Deno.test("UsersScreen shows a table: name, email, role, status and created, with the signed-in account marked", async () => {
  const view = await renderUsers();
  view.getByRole("heading", { level: 1, name: "Users" });
  const table = view.getByRole("table");
  const headers = within(table).getAllByRole("columnheader").map((th) =>
    th.textContent?.replace(/[▲▼]/g, "")
  );
  assert.deepEqual(headers, [
    "Name",
    "Email",
    "Role",
    "Status",
    "Created",
    "Actions",
  ]);
  const adaRow = within(row(view, ada));
  adaRow.getByRole("rowheader", { name: "Ada" });
  adaRow.getByText("ada@example.com");
  adaRow.getByText("member");
  adaRow.getByText("Active");
  assert.equal(
    row(view, ada).querySelector("time")?.getAttribute("datetime"),
    ada.createdAt,
  );
  within(row(view, grace)).getByText("Disabled");
  within(row(view, me)).getByText("You");
  assertAccessible(view.container);
});

Deno.test("UsersScreen shows a notice and fetches nothing without users.manage", async (t) => {
  const actors: Array<[string, SessionUser]> = [
    ["a member", member],
    ["an admin by role name but without the capability", userWithRole("admin")],
  ];
  for (const [name, actor] of actors) {
    await t.step(name, async () => {
      const recorder = recordRequests(env);
      const view = renderWith(
        <UsersScreen newUserRender={<a href="/users/new">New user</a>} />,
        actor,
      );
      try {
        view.getByRole("heading", { level: 1, name: "Users" });
        view.getByText("Your account may not manage users.");
        // The state the page's styles and the browser tests find it by.
        assert.equal(
          view.container.querySelector('[data-gh-screen="users"]')
            ?.getAttribute("data-gh-state"),
          "not-allowed",
        );
        assert.ok(view.queryByRole("link", { name: "New user" }) === null);
        await new Promise((resolve) => setTimeout(resolve, 20));
        recorder.stop();
        assert.deepEqual(await recorder.requests(), []);
      } finally {
        view.unmount();
      }
    });
  }
});

/** 45 accounts, served 20 a page, in any order the query asks, with the total. */
function pagedServer() {
  const all = Array.from(
    { length: 45 },
    (_, i) =>
      accountOf(userWithRole(`r${i}`), {
        name: `Person ${String(i).padStart(2, "0")}`,
        email: `p${i}@example.com`,
      }),
  );
  return http.get("*/api/users", ({ request }) => {
    const url = new URL(request.url);
    const q = url.searchParams.get("q") ?? "";
    let list = all.filter((u) => u.name.toLowerCase().includes(q));
    if (url.searchParams.get("sort") === "-name") list = [...list].reverse();
    const cursor = url.searchParams.get("cursor");
    const start = cursor === null
      ? 0
      : list.findIndex((u) => u.id === cursor) + 1;
    const limit = Number(url.searchParams.get("limit"));
    const users = list.slice(start, start + limit);
    const more = start + limit < list.length;
    return HttpResponse.json({
      users: users.map(wire),
      next_cursor: more ? users.at(-1)!.id : null,
      total: list.length,
    });
  });
}

Deno.test("UsersScreen pages with Next and Previous, says page N of M, and keeps focus on the button", async () => {
  env.use(pagedServer());
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Person 19");
  view.getByText("45 accounts");
  view.getByText("Page 1 of 3");
  const next = view.getByRole("button", { name: "Next page" });
  const previous = view.getByRole("button", { name: "Previous page" });
  assert.equal(previous.getAttribute("aria-disabled"), "true");
  next.focus();
  fireEvent.click(next);
  await view.findByText("Person 20");
  view.getByText("Page 2 of 3");
  assert.ok(focused() === next, "focus stays on Next page");
  fireEvent.click(next);
  await view.findByText("Person 44");
  assert.equal(next.getAttribute("aria-disabled"), "true");
  assert.equal(next.hasAttribute("disabled"), false);
  fireEvent.click(next); // the last page: nothing happens
  fireEvent.click(previous);
  await view.findByText("Person 39");
  recorder.stop();
  const cursors = (await recorder.requests())
    .filter((r) => r.url.pathname === "/api/users")
    .map((r) => r.url.searchParams.get("cursor"));
  // Page 1, 2, 3, then page 2 again (shown from the cache, checked anew).
  assert.equal(cursors.length, 4);
  assert.equal(cursors[0], null);
  assert.equal(new Set(cursors.slice(0, 3)).size, 3);
  assert.equal(cursors[3], cursors[1]);
});

Deno.test("UsersScreen announces how many accounts match a search, and none", async () => {
  env.use(pagedServer());
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Person 19");
  const status = view.container.querySelector("[data-gh-summary]")!;
  assert.equal(status.getAttribute("role"), "status");
  fireEvent.input(view.getByLabelText("Search by name or email"), {
    target: { value: "person 1" },
  });
  fireEvent.submit(view.getByRole("search"));
  await waitFor(() =>
    assert.equal(status.textContent, "10 accounts match your search.")
  );
  fireEvent.input(view.getByLabelText("Search by name or email"), {
    target: { value: "nobody" },
  });
  fireEvent.submit(view.getByRole("search"));
  await waitFor(() =>
    assert.equal(status.textContent, "No accounts match your search.")
  );
  assert.equal(view.queryByRole("table"), null);
});

Deno.test("UsersScreen orders by a column: ascending, then descending, marked with aria-sort", async () => {
  env.use(pagedServer());
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Person 19");
  const name = () => view.getByRole("columnheader", { name: /Name/ });
  fireEvent.click(within(name()).getByRole("button"));
  await waitFor(() =>
    assert.equal(name().getAttribute("aria-sort"), "ascending")
  );
  fireEvent.click(within(name()).getByRole("button"));
  await view.findByText("Person 44");
  assert.equal(name().getAttribute("aria-sort"), "descending");
  recorder.stop();
  const sorts = (await recorder.requests())
    .filter((r) => r.url.pathname === "/api/users")
    .map((r) => r.url.searchParams.get("sort"));
  assert.deepEqual(sorts, [null, "name", "-name"]);
});

Deno.test("UsersScreen on a server that answers no total (and so ignores sort) leaves the columns plain once asked", async () => {
  const ada = accountOf(userWithRole("member"), { name: "Ada" });
  env.use(listUsersOk([ada]));
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Ada");
  const name = () => view.getByRole("columnheader", { name: /Name/ });
  fireEvent.click(within(name()).getByRole("button"));
  // (A boolean: a failed assertion on an element would print the DOM.)
  await waitFor(() =>
    assert.ok(within(name()).queryByRole("button") === null, "plain header")
  );
  assert.equal(name().getAttribute("aria-sort"), null);
  assert.ok(view.queryByText(/accounts?$/) === null, "no total shown");
  recorder.stop();
  const sorts = (await recorder.requests())
    .filter((r) => r.url.pathname === "/api/users")
    .map((r) => r.url.searchParams.get("sort"));
  assert.deepEqual(sorts, [null, "name"]);
});

Deno.test("UsersScreen shows the total a counting server answers", async () => {
  const ada = accountOf(userWithRole("member"), { name: "Ada" });
  env.use(listUsersOk([ada], null, 1));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("1 account");
  const name = view.getByRole("columnheader", { name: /Name/ });
  within(name).getByRole("button");
});

Deno.test("UsersScreen disables after a confirmation, sending the role it showed; focus returns to the row's button", async () => {
  const view = await renderUsers();
  env.use(setUserDisabledOk(ada));
  const recorder = recordRequests(env);
  const actions = within(row(view, ada)).getByRole("button", {
    name: "Actions for Ada",
  });
  choose(view, ada, "Disable…");
  const confirm = dialog("disable");
  assert.match(confirm.textContent ?? "", /Disable Ada\?/);
  assert.ok(
    focused() === within(confirm).getByRole("button", { name: "Cancel" }),
  );
  fireEvent.click(
    within(confirm).getByRole("button", { name: "Disable account" }),
  );
  await within(row(view, ada)).findByText("Disabled");
  await waitFor(() =>
    assert.ok(focused() === actions, "focus on Actions for Ada")
  );
  view.getByText("Ada is disabled and signed out everywhere.");
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "PATCH");
  assert.equal(sent?.url.pathname, `/api/users/${ada.id}`);
  assert.deepEqual(sent?.body, { disabled: true, role: "member" });
});

Deno.test("UsersScreen's disable dialog cancels with Escape and sends nothing", async () => {
  const view = await renderUsers();
  const recorder = recordRequests(env);
  choose(view, ada, "Disable…");
  const Cancel = env.window.Event as unknown as typeof Event;
  fireEvent(dialog("disable"), new Cancel("cancel", { cancelable: true }));
  await waitFor(() =>
    assert.equal(
      document.querySelector('dialog[data-gh-dialog="disable"]'),
      null,
    )
  );
  assert.ok(
    focused() ===
      within(row(view, ada)).getByRole("button", { name: "Actions for Ada" }),
  );
  recorder.stop();
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("UsersScreen enables a disabled account from the menu at once", async () => {
  const view = await renderUsers();
  env.use(setUserDisabledOk(grace));
  const recorder = recordRequests(env);
  choose(view, grace, "Enable");
  await within(row(view, grace)).findByText("Active");
  view.getByText("Grace is enabled.");
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.deepEqual(sent?.body, { disabled: false, role: "editor" });
});

Deno.test("UsersScreen changes a role in a dialog whose menu is the grantable list plus No role", async () => {
  const view = await renderUsers();
  env.use(setUserRoleOk({ ...ada, role: "admin" }));
  const recorder = recordRequests(env);
  choose(view, ada, "Change role…");
  const box = dialog("role");
  const menu = within(box).getByLabelText("Role") as HTMLSelectElement;
  assert.deepEqual(
    [...menu.options].map((o) => [o.value, o.textContent, o.disabled]),
    [["", "No role", false], ["admin", "admin", false], [
      "member",
      "member",
      false,
    ]],
  );
  fireEvent.change(menu, { target: { value: "admin" } });
  fireEvent.click(within(box).getByRole("button", { name: "Change role" }));
  await view.findByText("Ada now has the role admin.");
  assert.equal(
    within(row(view, ada)).getByRole("cell", { name: "admin" }).className,
    "gh-cell-role",
  );
  recorder.stop();
  const [sent] = await recorder.requests();
  assert.equal(sent?.method, "PUT");
  assert.equal(sent?.url.pathname, `/api/users/${ada.id}/role`);
  assert.deepEqual(sent?.body, { role: "admin" });
});

Deno.test("UsersScreen shows a refusal in its dialog, which stays open", async (t) => {
  const cases: Array<[string, Parameters<typeof env.use>[0], string]> = [
    [
      "last administrator",
      refuse("setUserDisabled", "last_privileged_refused"),
      "This is the last account that can manage users, so it must keep that right.",
    ],
    [
      "beyond reach",
      refuse("setUserDisabled", "role_beyond_reach"),
      "You may not give this role or change this account.",
    ],
    [
      "changed meanwhile",
      refuse("setUserDisabled", "role_changed"),
      "This account changed since the list was loaded. Reload the list and try again.",
    ],
  ];
  for (const [name, handler, message] of cases) {
    await t.step(name, async () => {
      const view = await renderUsers();
      try {
        env.use(handler);
        choose(view, ada, "Disable…");
        const box = dialog("disable");
        fireEvent.click(
          within(box).getByRole("button", { name: "Disable account" }),
        );
        await within(box).findByText(message);
        assert.equal(within(box).getByRole("alert").textContent, message);
        assert.ok(box.open);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("UsersScreen's Reload list after a change elsewhere shows the account as it is now", async () => {
  const view = await renderUsers();
  env.use(refuse("setUserDisabled", "role_changed"));
  choose(view, ada, "Disable…");
  const box = dialog("disable");
  fireEvent.click(within(box).getByRole("button", { name: "Disable account" }));
  env.use(listUsersOk([me, { ...ada, role: "admin" }, grace]));
  fireEvent.click(
    await within(box).findByRole("button", { name: "Reload list" }),
  );
  await within(row(view, ada)).findByText("admin");
});

Deno.test("UsersScreen offers no actions on the signed-in account's own row, and no role change without a grantable list", async () => {
  const view = await renderUsers();
  assert.equal(within(row(view, me)).queryByRole("button"), null);
  view.unmount();
  const { grantable: _, ...noList } = admin;
  const other = await renderUsers([accountOf(noList), ada], noList);
  fireEvent.click(
    within(row(other, ada)).getByRole("button", { name: "Actions for Ada" }),
  );
  assert.deepEqual(
    within(row(other, ada)).getAllByRole("menuitem").map((i) => i.textContent),
    ["Disable…", "Sign out everywhere…", "Remove second factor…"],
  );
});

Deno.test("UsersScreen's Actions menu: arrows move, Escape closes on the button", async () => {
  const view = await renderUsers();
  const button = within(row(view, ada)).getByRole("button", {
    name: "Actions for Ada",
  });
  fireEvent.keyDown(button, { key: "ArrowDown" });
  const items = within(row(view, ada)).getAllByRole("menuitem");
  assert.equal(button.getAttribute("aria-expanded"), "true");
  await waitFor(() => assert.ok(focused() === items[0]));
  fireEvent.keyDown(items[0]!, { key: "ArrowDown" });
  assert.ok(focused() === items[1]);
  fireEvent.keyDown(items[1]!, { key: "ArrowUp" });
  assert.ok(focused() === items[0]);
  fireEvent.keyDown(items[0]!, { key: "ArrowUp" });
  assert.ok(focused() === items[items.length - 1], "wraps around");
  fireEvent.keyDown(items[items.length - 1]!, { key: "Escape" });
  await waitFor(() =>
    assert.equal(within(row(view, ada)).queryByRole("menu"), null)
  );
  assert.ok(focused() === button);
});

Deno.test("UsersScreen reads the session again when the server refuses the actor's right", async () => {
  env.use(refuse("listUsers", "role_insufficient"));
  let sessionReads = 0;
  env.use(
    http.get("*/api/auth/session", () => {
      sessionReads += 1;
      return HttpResponse.json(member);
    }),
  );
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Your account may not manage users.");
  assert.equal(sessionReads, 1);
});

Deno.test("UsersScreen says when the list cannot be read, and Try again asks again", async () => {
  env.use(refuse("listUsers", "internal"));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Something went wrong on the server. Try again later.");
  env.use(listUsersOk([me, ada]));
  fireEvent.click(view.getByRole("button", { name: "Try again" }));
  await view.findByText("ada@example.com");
});

Deno.test("UsersScreen says No accounts yet. for an empty list", async () => {
  env.use(listUsersOk([]));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("No accounts yet.");
});

Deno.test("UsersScreen under the gate: a 401 while listing brings the login screen back", async () => {
  env.use(refuse("listUsers", "session_absent"), fetchSessionOk(admin));
  const client = quickClient();
  const view = renderWith(
    <AuthGate loginScreen={() => <p>Please sign in</p>}>
      <UsersScreen />
    </AuthGate>,
    admin,
    client,
  );
  await view.findByText("Please sign in");
});
