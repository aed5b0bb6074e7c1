// NewUserScreen: creating an account (with a role from `grantable`), every
// refusal next to the field it concerns, and who gets the form.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import type { User } from "../../../client/types.ts";
import { NewUserScreen } from "@gatehouse/client/screens";
import {
  createUserOk,
  installTestEnvironment,
  networkFailure,
  refuse,
  userWithRole,
} from "@gatehouse/client/testing";
import { fireEvent, type RenderResult, waitFor } from "@testing-library/preact";
import { recordRequests } from "../_support.ts";
import {
  admin,
  alertText,
  assertAccessible,
  assertFieldError,
  assertNoFieldErrors,
  findFieldError,
  findFocus,
  member,
  renderWith,
  type,
} from "./_screens.tsx";

const env = installTestEnvironment();

function renderNewUser(actor: SessionUser = admin) {
  const created: User[] = [];
  const view = renderWith(
    <NewUserScreen onCreated={(user) => created.push(user)} />,
    actor,
  );
  return { view, created };
}

function fill(view: RenderResult, role?: string) {
  type(view, "Name", " Grace ");
  type(view, "Email", "grace@example.com");
  type(view, "Password", "a long enough password");
  if (role !== undefined) {
    fireEvent.change(view.getByLabelText("Role"), { target: { value: role } });
  }
  fireEvent.click(view.getByRole("button", { name: "Create account" }));
}

Deno.test("NewUserScreen creates the account, says so and calls onCreated", async () => {
  env.use(createUserOk());
  const recorder = recordRequests(env);
  const { view, created } = renderNewUser();
  view.client.setQueryData(["gatehouse", "users", { q: "" }], {
    users: [],
    nextCursor: null,
  });
  view.getByRole("heading", { name: "New user" });
  fill(view, "member");
  await view.findByText(
    "Grace (grace@example.com) can now sign in with the password you chose.",
  );
  view.getByRole("heading", { name: "Account created" });
  assert.equal(created.length, 1);
  assert.equal(created[0]!.email, "grace@example.com");
  assert.equal(created[0]!.role, "member");
  const [request] = await recorder.requests();
  assert.equal(request?.method, "POST");
  assert.equal(request?.url.pathname, "/api/users");
  assert.deepEqual(request?.body, {
    name: "Grace",
    email: "grace@example.com",
    password: "a long enough password",
    role: "member",
  });
  assert.equal(
    view.client.getQueryState(["gatehouse", "users", { q: "" }])?.isInvalidated,
    true,
    "the account list is refreshed",
  );
  fireEvent.click(view.getByRole("button", { name: "Create another" }));
  view.getByRole("heading", { name: "New user" });
  assert.equal((view.getByLabelText("Email") as HTMLInputElement).value, "");
  assert.equal((view.getByLabelText("Password") as HTMLInputElement).value, "");
});

Deno.test("NewUserScreen's role menu is the signed-in account's grantable list plus No role", () => {
  const { view } = renderNewUser();
  const options = [...view.getByLabelText("Role").querySelectorAll("option")]
    .map((option) => [option.value, option.textContent]);
  assert.deepEqual(options, [
    ["", "No role"],
    ["admin", "admin"],
    ["member", "member"],
  ]);
  assert.equal((view.getByLabelText("Role") as HTMLSelectElement).value, "");
});

Deno.test("NewUserScreen leaves the role out without a grantable list", async () => {
  env.use(createUserOk());
  const recorder = recordRequests(env);
  const manager: SessionUser = {
    ...userWithRole("admin"),
    capabilities: ["users.manage"],
  };
  const { view, created } = renderNewUser(manager);
  assert.ok(view.queryByLabelText("Role") === null);
  fill(view);
  await waitFor(() => assert.equal(created.length, 1));
  const [request] = await recorder.requests();
  assert.equal(
    Object.hasOwn(request?.body as object, "role"),
    false,
    "no role sent",
  );
});

Deno.test("NewUserScreen shows every refusal next to the field it concerns", async (t) => {
  const rows: Array<[string, Parameters<typeof env.use>[0], string, string]> = [
    [
      "email_taken",
      refuse("createUser", "email_taken"),
      "Email",
      "An account with this email address already exists.",
    ],
    [
      "email_invalid",
      refuse("createUser", "email_invalid", { meta: { field: "email" } }),
      "Email",
      "Enter an email address like name@example.com.",
    ],
    [
      "name_required",
      refuse("createUser", "name_required", { meta: { field: "name" } }),
      "Name",
      "This field is required.",
    ],
    [
      "name_too_long",
      refuse("createUser", "name_too_long", { meta: { field: "name" } }),
      "Name",
      "Use at most 100 characters.",
    ],
    [
      "password_too_short",
      refuse("createUser", "password_too_short", {
        meta: { field: "password" },
      }),
      "Password",
      "Use at least 12 characters.",
    ],
    [
      "password_too_long",
      refuse("createUser", "password_too_long", {
        meta: { field: "password" },
      }),
      "Password",
      "Use at most 256 characters.",
    ],
    [
      "body_field_required",
      refuse("createUser", "body_field_required", {
        meta: { field: "name" },
      }),
      "Name",
      "This field is required.",
    ],
    [
      "role_unknown",
      refuse("createUser", "role_unknown", { meta: { field: "role" } }),
      "Role",
      "The server does not know this role.",
    ],
    [
      "role_beyond_reach",
      refuse("createUser", "role_beyond_reach"),
      "Role",
      "You may not give this role or change this account.",
    ],
    [
      "role_insufficient (a role was handed out)",
      refuse("createUser", "role_insufficient"),
      "Role",
      "Your account may not change roles.",
    ],
  ];
  for (const [name, handler, label, message] of rows) {
    await t.step(name, async () => {
      env.use(handler);
      const { view, created } = renderNewUser();
      try {
        fill(view, "admin");
        await findFieldError(view, label, message);
        assert.equal(alertText(view.container), "", "not in the form's alert");
        assert.equal(
          view.container.querySelectorAll('[aria-invalid="true"]').length,
          1,
          "only that field",
        );
        await findFocus(view, label);
        assert.equal(created.length, 0);
        assert.equal(
          (view.getByLabelText("Name") as HTMLInputElement).value,
          " Grace ",
          "what was typed stays",
        );
        assertAccessible(view.container);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("NewUserScreen shows a failure that concerns no field in the form's alert", async (t) => {
  const rows: Array<[string, Parameters<typeof env.use>[0], string]> = [
    [
      "internal",
      refuse("createUser", "internal"),
      "Something went wrong on the server. Try again later.",
    ],
    [
      "no answer",
      networkFailure("createUser"),
      "Cannot reach the server. Check your connection and try again.",
    ],
    [
      "request_cross_origin",
      refuse("createUser", "request_cross_origin"),
      "The server refused a request from this page because it comes from another site.",
    ],
    [
      "body_malformed",
      refuse("createUser", "body_malformed"),
      "The server could not read the request. Reload the page and try again.",
    ],
  ];
  for (const [name, handler, message] of rows) {
    await t.step(name, async () => {
      env.use(handler);
      const { view } = renderNewUser();
      try {
        fill(view);
        await waitFor(() => assert.equal(alertText(view.container), message));
        assertNoFieldErrors(view.container);
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("NewUserScreen marks empty fields without asking the server", async () => {
  const recorder = recordRequests(env);
  const { view } = renderNewUser();
  fireEvent.click(view.getByRole("button", { name: "Create account" }));
  await findFieldError(view, "Name", "This field is required.");
  assertFieldError(view, "Email", "This field is required.");
  assertFieldError(view, "Password", "This field is required.");
  assert.deepEqual(await recorder.requests(), []);
});

Deno.test("NewUserScreen's password field says the lower bound", () => {
  const { view } = renderNewUser();
  const password = view.getByLabelText("Password");
  const hint = document.getElementById(
    password.getAttribute("aria-describedby")!,
  );
  assert.equal(hint?.textContent, "At least 12 characters.");
  view.unmount();
  const other = renderWith(
    <NewUserScreen onCreated={() => {}} passwordMinLength={1} />,
    admin,
  );
  other.getByText("At least 1 character.");
});

Deno.test("NewUserScreen shows a notice instead of the form without users.manage", () => {
  const { view } = renderNewUser(member);
  view.getByText("Your account may not manage users.");
  assert.ok(view.queryByRole("button", { name: "Create account" }) === null);
});

Deno.test("NewUserScreen's Cancel calls onCancel", () => {
  let cancelled = 0;
  const view = renderWith(
    <NewUserScreen onCreated={() => {}} onCancel={() => cancelled++} />,
    admin,
  );
  fireEvent.click(view.getByRole("button", { name: "Cancel" }));
  assert.equal(cancelled, 1);
  assertAccessible(view.container);
});
