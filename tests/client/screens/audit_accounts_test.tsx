// Which account each audit row concerns (issue 26, items 3 and 20): the
// audit log names the actor and the account on every row (the invited or
// typed address where no account is the target), filters by address, and
// one's own activity says that an administrator acted without naming them,
// and which account one's own administrative action concerned.

import assert from "node:assert/strict";
import { AccountPanel, AuditLogScreen } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent } from "@testing-library/preact";
import { recordRequests } from "../_support.ts";
import {
  admin,
  assertAccessible,
  inSpanish,
  member,
  renderWith,
} from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([]),
    testing.listInvitationsOk([]),
  ],
});

const root = {
  id: "0190f0a0-0000-7000-8000-0000000000a1",
  email: "root@example.com",
};
const grace = {
  id: "0190f0a0-0000-7000-8000-0000000000a2",
  email: "grace@example.com",
};
const UNNAMED = { id: null, email: null };

// The cells of the row whose event is `type` (the first one).
function cells(container: Element, type: string): string[] {
  const row = container.querySelector(`.gh-row[data-event="${type}"]`);
  assert.ok(row, type);
  return [...row.querySelectorAll("th, td")].map((c) => c.textContent ?? "");
}

Deno.test("AuditLogScreen names the account of every row, the invited or typed address where there is no target", async () => {
  env.use(testing.listAuditEventsOk([
    testing.auditEventOf("invitation.created", {
      actor: root,
      target: null,
      detail: { email: "new@example.com", role: "member" },
    }),
    testing.auditEventOf("login.succeeded", { actor: root, target: root }),
    testing.auditEventOf("user.disabled", { actor: root, target: grace }),
    testing.auditEventOf("login.failed", {
      actor: null,
      target: null,
      detail: { email_invalid: "true" },
    }),
    testing.auditEventOf("password.reset_requested", {
      actor: null,
      target: null,
      detail: { email: "nobody@example.com" },
    }),
  ]));
  const view = renderWith(<AuditLogScreen />, admin);
  await view.findByRole("rowheader", { name: "Invitation sent" });
  const { container } = view;
  // Time, event, by, account, address.
  assert.deepEqual(cells(container, "invitation.created").slice(2, 4), [
    root.email,
    "new@example.com",
  ]);
  assert.deepEqual(cells(container, "login.succeeded").slice(2, 4), [
    root.email,
    root.email,
  ]);
  assert.deepEqual(cells(container, "user.disabled").slice(2, 4), [
    root.email,
    grace.email,
  ]);
  assert.deepEqual(cells(container, "login.failed").slice(2, 4), [
    "—",
    "Not an email address",
  ]);
  assert.deepEqual(cells(container, "password.reset_requested").slice(2, 4), [
    "—",
    "nobody@example.com",
  ]);
  assertAccessible(container);
  view.unmount();

  await inSpanish(async () => {
    const spanish = renderWith(<AuditLogScreen />, admin);
    await spanish.findByLabelText("Correo de la cuenta");
    await spanish.findByText("No es una dirección de correo");
    spanish.unmount();
  });
});

Deno.test("AuditLogScreen filters by address with the email parameter; an initial id still filters by id", async () => {
  env.use(testing.listAuditEventsOk([
    testing.auditEventOf("user.disabled", { actor: root, target: grace }),
    testing.auditEventOf("login.succeeded", { actor: root, target: root }),
  ]));
  const recorder = recordRequests(env);
  const view = renderWith(
    <AuditLogScreen initialEmail="  Grace@Example.com " />,
    admin,
  );
  // The canned handler filters as the server does: Grace's event only.
  await view.findByRole("rowheader", { name: "Account disabled" });
  assert.equal(view.queryByRole("rowheader", { name: "Signed in" }), null);
  view.unmount();
  const byId = renderWith(<AuditLogScreen initialUserId={root.id} />, admin);
  await byId.findByRole("rowheader", { name: "Signed in" });
  assert.equal(
    (byId.getByLabelText("Account email") as HTMLInputElement).value,
    "",
  );
  byId.unmount();
  recorder.stop();
  const [first, second] = (await recorder.requests()).map((r) =>
    r.url.searchParams
  );
  assert.deepEqual(
    [first!.get("email"), first!.get("user_id")],
    ["Grace@Example.com", null],
  );
  assert.deepEqual([second!.get("email"), second!.get("user_id")], [
    null,
    root.id,
  ]);
});

Deno.test("AuditLogScreen pages by cursor: Next sends the cursor the page gave, Previous goes back, a new filter starts at the first page", async () => {
  // Three pages, one event each, chained by cursor; the filter is not
  // applied (only where the request starts is looked at).
  const pages: Record<
    string,
    { events: unknown[]; nextCursor: string | null }
  > = {
    "": {
      events: [
        testing.auditEventOf("login.succeeded", { actor: root, target: root }),
      ],
      nextCursor: "page-2",
    },
    "page-2": {
      events: [
        testing.auditEventOf("user.disabled", { actor: root, target: grace }),
      ],
      nextCursor: "page-3",
    },
    "page-3": {
      events: [
        testing.auditEventOf("user.enabled", { actor: root, target: grace }),
      ],
      nextCursor: null,
    },
  };
  env.use(
    testing.answer(
      "listAuditEvents",
      (request: Request) =>
        pages[new URL(request.url).searchParams.get("cursor") ?? ""],
    ),
  );
  const recorder = recordRequests(env);
  const view = renderWith(<AuditLogScreen />, admin);
  await view.findByRole("rowheader", { name: "Signed in" });
  const next = view.getByRole("button", { name: "Next page" });
  fireEvent.click(next);
  await view.findByRole("rowheader", { name: "Account disabled" });
  fireEvent.click(next);
  await view.findByRole("rowheader", { name: "Account enabled" });
  fireEvent.click(view.getByRole("button", { name: "Previous page" }));
  await view.findByRole("rowheader", { name: "Account disabled" });
  // On the second page, a filter by type reads its first page.
  fireEvent.change(view.getByLabelText("Event"), {
    target: { value: "login.succeeded" },
  });
  fireEvent.click(view.getByRole("button", { name: "Filter" }));
  await view.findByRole("rowheader", { name: "Signed in" });
  recorder.stop();
  const sent = (await recorder.requests()).map((r) => r.url.searchParams);
  assert.deepEqual(
    sent.slice(0, 3).map((params) => params.get("cursor")),
    [null, "page-2", "page-3"],
  );
  const last = sent.at(-1)!;
  assert.deepEqual(
    [last.get("type"), last.get("cursor")],
    ["login.succeeded", null],
  );
  view.unmount();
});

Deno.test("Recent activity says an administrator acted, without who or from where; one's own change names its account", async () => {
  env.use(testing.listActivityOk([
    testing.auditEventOf("user.role_changed", {
      actor: UNNAMED,
      ip: "",
      userAgent: "",
      detail: { old_role: "member", new_role: "admin" },
    }),
    testing.auditEventOf("user.disabled", { actor: root, target: grace }),
    testing.auditEventOf("invitation.created", {
      actor: root,
      target: null,
      detail: { email: "new@example.com", role: "member" },
    }),
    testing.auditEventOf("login.succeeded"),
  ]));
  const view = renderWith(<AccountPanel />, member);
  const item = (type: string) =>
    view.container.querySelector<HTMLElement>(
      `.gh-activity-list [data-event="${type}"] .gh-list-facts`,
    )!;
  await view.findByText("Role changed");
  assert.equal(item("user.role_changed").textContent, "By an administrator");
  assert.equal(
    item("user.disabled").textContent,
    `Account: ${grace.email} · Firefox on Linux · 203.0.113.7`,
  );
  assert.equal(
    item("invitation.created").textContent,
    "Account: new@example.com · Firefox on Linux · 203.0.113.7",
  );
  assert.equal(
    item("login.succeeded").textContent,
    "Firefox on Linux · 203.0.113.7",
  );
  // The label and the time read apart, not "Signed inNov 27".
  const main = view.container.querySelector(
    '.gh-activity-list [data-event="login.succeeded"] .gh-list-main',
  )!;
  const time = main.querySelector("time")!.textContent!;
  assert.equal(main.textContent, `Signed in ${time}`);
  assertAccessible(view.container);
  view.unmount();

  await inSpanish(async () => {
    const spanish = renderWith(<AccountPanel />, member);
    await spanish.findByText("Por un administrador");
    spanish.getByText(/^Cuenta: grace@example\.com · /);
    spanish.unmount();
  });
});
