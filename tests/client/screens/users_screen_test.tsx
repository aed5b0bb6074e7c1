// UsersScreen: the list (search, pages), disable/enable sending the role the
// actor saw, the role menu built from `grantable`, a refusal next to the
// account it concerns, and who gets the screen at all.

import assert from "node:assert/strict";
import { AuthGate, type SessionUser, type User } from "@gatehouse/client";
import { UsersScreen } from "@gatehouse/client/screens";
import {
  accountOf,
  answerError,
  installTestEnvironment,
  listUsersOk,
  networkFailure,
  serverTooOld,
  setUserDisabledOk,
  setUserRoleOk,
  userWithCapabilities,
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

const env = installTestEnvironment();

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

Deno.test("UsersScreen lists each account's name, email, role and status", async () => {
  const view = await renderUsers();
  view.getByRole("heading", { name: "Users" });
  const adaRow = within(row(view, ada));
  adaRow.getByText("Ada");
  adaRow.getByText("ada@example.com");
  adaRow.getByText("Active");
  assert.equal(
    (adaRow.getByLabelText("Role of Ada") as HTMLSelectElement).value,
    "member",
  );
  const graceRow = within(row(view, grace));
  graceRow.getByText("Disabled");
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
        view.getByText("Your account may not manage users.");
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

Deno.test("UsersScreen shows newUserRender as the create link", async () => {
  env.use(listUsersOk([me]));
  const view = renderWith(
    <UsersScreen newUserRender={<a href="/users/new">New user</a>} />,
    admin,
  );
  const link = await view.findByRole("link", { name: "New user" });
  assert.equal(link.getAttribute("href"), "/users/new");
  assert.ok(link.closest("header"), "in the screen's header");
});

/** A server with 5 accounts, 2 a page, that searches by name. */
function pagedServer() {
  const all = ["Ann", "Ben", "Cid", "Dee", "Eve"].map((name) =>
    accountOf(userWithRole(`r-${name}`), {
      name,
      email: `${name.toLowerCase()}@example.com`,
    })
  );
  return http.get("*/api/users", ({ request }) => {
    const url = new URL(request.url);
    const q = url.searchParams.get("q")?.toLowerCase() ?? "";
    const limit = Number(url.searchParams.get("limit"));
    const cursor = url.searchParams.get("cursor");
    const found = all.filter((u) => u.name.toLowerCase().includes(q));
    const start = cursor === null
      ? 0
      : found.findIndex((u) => u.id === cursor) + 1;
    const page = found.slice(start, start + limit);
    const more = start + limit < found.length;
    return HttpResponse.json({
      users: page.map(wire),
      next_cursor: more ? page[page.length - 1]!.id : null,
    });
  });
}

function names(view: RenderResult): string[] {
  return [...view.container.querySelectorAll(".gh-user-name")].map((e) =>
    e.textContent ?? ""
  );
}

Deno.test("UsersScreen pages with Next page and Previous page, sending the cursor", async () => {
  env.use(pagedServer());
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen pageSize={2} />, admin);
  await view.findByText("Ben");
  assert.deepEqual(names(view), ["Ann", "Ben"]);
  const previous = view.getByRole("button", { name: "Previous page" });
  assert.equal((previous as HTMLButtonElement).disabled, true);
  view.getByText("Page 1");

  fireEvent.click(view.getByRole("button", { name: "Next page" }));
  await view.findByText("Dee");
  assert.deepEqual(names(view), ["Cid", "Dee"]);
  view.getByText("Page 2");
  fireEvent.click(view.getByRole("button", { name: "Next page" }));
  await view.findByText("Eve");
  assert.equal(
    (view.getByRole("button", { name: "Next page" }) as HTMLButtonElement)
      .disabled,
    true,
    "the last page has no next",
  );

  fireEvent.click(view.getByRole("button", { name: "Previous page" }));
  await waitFor(() => assert.deepEqual(names(view), ["Cid", "Dee"]));
  const sent = (await recorder.requests()).map((r) => r.url.searchParams);
  assert.ok(sent.every((params) => params.get("limit") === "2"));
  assert.deepEqual(
    sent.slice(0, 3).map((params) => params.get("cursor") === null),
    [true, false, false],
    "the first page asks without a cursor, the next ones with one",
  );
  assert.notEqual(sent[1]!.get("cursor"), sent[2]!.get("cursor"));
});

Deno.test("UsersScreen searches by name or email and starts again from the first page", async () => {
  env.use(pagedServer());
  const recorder = recordRequests(env);
  const view = renderWith(<UsersScreen pageSize={2} />, admin);
  await view.findByText("Ben");
  fireEvent.click(view.getByRole("button", { name: "Next page" }));
  await view.findByText("Dee");
  fireEvent.input(view.getByLabelText("Search by name or email"), {
    target: { value: " e " },
  });
  fireEvent.click(view.getByRole("button", { name: "Search" }));
  await waitFor(() => assert.deepEqual(names(view), ["Ben", "Dee"]));
  view.getByText("Page 1");
  const last = (await recorder.requests()).at(-1)!.url.searchParams;
  assert.equal(last.get("q"), "e");
  assert.equal(last.get("cursor"), null);

  fireEvent.input(view.getByLabelText("Search by name or email"), {
    target: { value: "zed" },
  });
  fireEvent.click(view.getByRole("button", { name: "Search" }));
  await view.findByText("No accounts match your search.");
});

Deno.test("UsersScreen disables an account, sending the role it showed", async () => {
  const view = await renderUsers();
  env.use(setUserDisabledOk(ada));
  const recorder = recordRequests(env);
  fireEvent.click(view.getByRole("button", { name: "Disable Ada" }));
  const adaRow = within(row(view, ada));
  await adaRow.findByText("Account disabled.");
  await adaRow.findByText("Disabled");
  adaRow.getByRole("button", { name: "Enable Ada" });
  const [request] = await recorder.requests();
  assert.equal(request?.method, "PATCH");
  assert.equal(request?.url.pathname, `/api/users/${ada.id}`);
  assert.deepEqual(request?.body, { disabled: true, role: "member" });
  assert.equal(adaRow.getByRole("status").textContent, "Account disabled.");
});

Deno.test("UsersScreen enables a disabled account", async () => {
  const view = await renderUsers();
  env.use(setUserDisabledOk(grace));
  const recorder = recordRequests(env);
  fireEvent.click(view.getByRole("button", { name: "Enable Grace" }));
  const graceRow = within(row(view, grace));
  await graceRow.findByText("Account enabled.");
  await graceRow.findByText("Active");
  const [request] = await recorder.requests();
  assert.deepEqual(request?.body, { disabled: false, role: "editor" });
});

Deno.test("UsersScreen's role menu is the signed-in account's grantable list plus No role", async () => {
  const view = await renderUsers();
  const options = (user: User) =>
    [...row(view, user).querySelectorAll("option")].map((o) => [
      o.value,
      o.textContent,
      o.disabled,
    ]);
  assert.deepEqual(options(ada), [
    ["", "No role", false],
    ["admin", "admin", false],
    ["member", "member", false],
  ]);
  // A role outside the list shows as the current value but cannot be chosen.
  assert.deepEqual(options(grace), [
    ["", "No role", false],
    ["admin", "admin", false],
    ["member", "member", false],
    ["editor", "editor", true],
  ]);
  view.unmount();

  const editorInChief = userWithCapabilities("chief", ["users.manage"], [
    "editor",
  ]);
  const other = await renderUsers([ada], editorInChief);
  assert.deepEqual(
    [...row(other, ada).querySelectorAll("option")].map((o) => o.value),
    ["", "editor", "member"],
  );
});

Deno.test("UsersScreen changes a role with PUT /api/users/{id}/role", async () => {
  const view = await renderUsers();
  env.use(setUserRoleOk(ada));
  const recorder = recordRequests(env);
  const adaRow = within(row(view, ada));
  const change = adaRow.getByRole("button", { name: "Change role of Ada" });
  assert.equal(
    (change as HTMLButtonElement).disabled,
    true,
    "nothing chosen yet",
  );
  fireEvent.change(adaRow.getByLabelText("Role of Ada"), {
    target: { value: "admin" },
  });
  assert.equal((change as HTMLButtonElement).disabled, false);
  fireEvent.click(change);
  await adaRow.findByText("Role changed.");
  await waitFor(() =>
    assert.equal(
      (adaRow.getByLabelText("Role of Ada") as HTMLSelectElement).value,
      "admin",
    )
  );
  assert.equal((change as HTMLButtonElement).disabled, true, "now the role");
  const [request] = await recorder.requests();
  assert.equal(request?.method, "PUT");
  assert.equal(request?.url.pathname, `/api/users/${ada.id}/role`);
  assert.deepEqual(request?.body, { role: "admin" });
});

Deno.test("UsersScreen shows each refusal next to the account it concerns", async (t) => {
  const rows: Array<
    ["disable" | "role", Parameters<typeof env.use>[0], string]
  > = [
    [
      "disable",
      answerError("setUserDisabled", "role_changed"),
      "This account changed since the list was loaded. Reload the list and try again.",
    ],
    [
      "disable",
      answerError("setUserDisabled", "last_privileged_refused"),
      "This is the last account that can manage users, so it must keep that right.",
    ],
    [
      "disable",
      answerError("setUserDisabled", "role_beyond_reach"),
      "You may not give this role or change this account.",
    ],
    [
      "disable",
      answerError("setUserDisabled", "self_disable_refused"),
      "You cannot disable your own account.",
    ],
    [
      "role",
      answerError("setUserRole", "self_role_refused"),
      "You cannot change your own role.",
    ],
    [
      "role",
      answerError("setUserRole", "last_privileged_refused"),
      "This is the last account that can manage users, so it must keep that right.",
    ],
    [
      "role",
      answerError("setUserRole", "role_beyond_reach"),
      "You may not give this role or change this account.",
    ],
    [
      "role",
      answerError("setUserRole", "role_insufficient"),
      "Your account may not change roles.",
    ],
    [
      "role",
      answerError("setUserRole", "capability_missing", {
        meta: { capability: "users.manage" },
      }),
      "Your account may not change roles.",
    ],
    [
      "role",
      answerError("setUserRole", "role_unknown", { meta: { field: "role" } }),
      "The server does not know this role.",
    ],
    [
      "role",
      serverTooOld("setUserRole"),
      "This server is too old to change roles. Ask its administrator to upgrade Gatehouse.",
    ],
    [
      "role",
      networkFailure("setUserRole"),
      "Cannot reach the server. Check your connection and try again.",
    ],
  ];
  for (const [action, handler, message] of rows) {
    await t.step(`${action}: ${message}`, async () => {
      const view = await renderUsers();
      try {
        await refusal(view, action, handler, message);
      } finally {
        view.unmount();
      }
    });
  }
});

async function refusal(
  view: RenderResult,
  action: "disable" | "role",
  handler: Parameters<typeof env.use>[0],
  message: string,
): Promise<void> {
  env.use(handler);
  const adaRow = within(row(view, ada));
  let button: HTMLElement;
  if (action === "disable") {
    button = adaRow.getByRole("button", { name: "Disable Ada" });
  } else {
    fireEvent.change(adaRow.getByLabelText("Role of Ada"), {
      target: { value: "admin" },
    });
    button = adaRow.getByRole("button", { name: "Change role of Ada" });
  }
  fireEvent.click(button);
  const alert = await waitFor(() => {
    const alert = row(view, ada).querySelector('[role="alert"]');
    assert.equal(alert?.textContent, message);
    return alert!;
  });
  // The button that failed is described by the message.
  assert.ok(
    button.getAttribute("aria-describedby")?.split(" ").includes(alert.id),
  );
  assert.equal(
    row(view, grace).querySelector('[role="alert"]')?.textContent,
    "",
    "other rows say nothing",
  );
}

Deno.test("UsersScreen's Reload list after a role change elsewhere shows the account as it is now", async () => {
  const view = await renderUsers();
  env.use(answerError("setUserDisabled", "role_changed"));
  fireEvent.click(view.getByRole("button", { name: "Disable Ada" }));
  const reload = await view.findByRole("button", { name: "Reload list" });
  env.use(listUsersOk([me, { ...ada, role: "admin" }, grace]));
  fireEvent.click(reload);
  await waitFor(() =>
    assert.equal(
      (view.getByLabelText("Role of Ada") as HTMLSelectElement).value,
      "admin",
    )
  );
  assert.equal(row(view, ada).querySelector('[role="alert"]')?.textContent, "");
  assert.ok(view.queryByRole("button", { name: "Reload list" }) === null);
});

Deno.test("UsersScreen offers no disable button or role menu on the signed-in account's own row", async () => {
  const view = await renderUsers();
  const mine = within(row(view, me));
  assert.ok(mine.queryByRole("button") === null);
  assert.ok(mine.queryByRole("combobox") === null);
  mine.getByText("Role: admin");
});

Deno.test("UsersScreen shows roles as text when the server sends no grantable list", async () => {
  const manager: SessionUser = {
    ...userWithRole("admin"),
    capabilities: ["users.manage"],
  };
  const view = await renderUsers([ada], manager);
  within(row(view, ada)).getByText("Role: member");
  assert.ok(view.queryByRole("combobox") === null);
  view.getByRole("button", { name: "Disable Ada" });
});

Deno.test("UsersScreen says when the list cannot be read, and Try again asks again", async () => {
  env.use(answerError("listUsers", "internal"));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("Something went wrong on the server. Try again later.");
  env.use(listUsersOk([me, ada]));
  fireEvent.click(view.getByRole("button", { name: "Try again" }));
  await view.findByText("ada@example.com");
  assert.ok(view.queryByText(/Something went wrong/) === null);
});

Deno.test("UsersScreen says No accounts yet. for an empty list", async () => {
  env.use(listUsersOk([]));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText("No accounts yet.");
});

Deno.test("UsersScreen under the gate: a 401 while listing brings the login screen back", async () => {
  env.use(answerError("listUsers", "session_absent"));
  const view = renderWith(
    <AuthGate loginScreen={() => <p>Please sign in</p>}>
      <UsersScreen />
    </AuthGate>,
    admin,
    quickClient(),
  );
  await view.findByText("Please sign in");
});
