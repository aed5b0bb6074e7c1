// InviteScreen: a mailed invitation, a link handed back (read-only, with a
// copy button and a fallback), the same words whatever the address, and
// refusals next to their fields.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import type { InviteResult } from "../../../client/types.ts";
import { InviteScreen } from "@gatehouse/client/screens";
import {
  installTestEnvironment,
  inviteDelivered,
  inviteUndelivered,
  refuse,
  serverTooOld,
} from "@gatehouse/client/testing";
import { fireEvent, type RenderResult, waitFor } from "@testing-library/preact";
import { http, HttpResponse } from "msw";
import { recordRequests, refuseOutsideContract } from "../_support.ts";
import {
  admin,
  alertText,
  assertAccessible,
  assertNoFieldErrors,
  findFieldError,
  inSpanish,
  member,
  renderWith,
  type,
} from "./_screens.tsx";

const env = installTestEnvironment();
const LINK = "http://localhost/invite#token=abc123";

function renderInvite(actor: SessionUser = admin) {
  const results: InviteResult[] = [];
  const view = renderWith(
    <InviteScreen onInvited={(result) => results.push(result)} />,
    actor,
  );
  return { view, results };
}

function send(view: RenderResult, email = "ada@example.com", role?: string) {
  type(view, "Email", email);
  type(view, "Name", "Ada");
  if (role !== undefined) {
    fireEvent.change(view.getByLabelText("Role"), { target: { value: role } });
  }
  fireEvent.click(view.getByRole("button", { name: "Send invitation" }));
}

/** Replaces `navigator.clipboard` for one test. */
function stubClipboard(writeText: (text: string) => Promise<void>) {
  const before = Object.getOwnPropertyDescriptor(navigator, "clipboard");
  Object.defineProperty(navigator, "clipboard", {
    value: { writeText },
    configurable: true,
  });
  return () => {
    if (before) Object.defineProperty(navigator, "clipboard", before);
    else delete (navigator as { clipboard?: unknown }).clipboard;
  };
}

Deno.test("InviteScreen sends email, name and role, and says the invitation was sent", async () => {
  env.use(inviteDelivered());
  const recorder = recordRequests(env);
  const { view, results } = renderInvite();
  view.getByRole("heading", { name: "Invite someone" });
  assert.ok(view.queryByLabelText(/password/i) === null, "no password typed");
  send(view, " ada@example.com ", "member");
  await view.findByText("Invitation sent to ada@example.com.");
  assert.equal(
    view.getByRole("status").textContent,
    "Invitation sent to ada@example.com.",
  );
  assert.deepEqual(results, [{ delivered: true }]);
  const [request] = await recorder.requests();
  assert.equal(request?.url.pathname, "/api/users/invite");
  assert.deepEqual(request?.body, {
    email: "ada@example.com",
    name: "Ada",
    role: "member",
  });
  assert.ok(view.queryByLabelText("Activation link") === null);
});

Deno.test("InviteScreen shows the activation link read-only when the server has no mail", async () => {
  env.use(inviteUndelivered(LINK));
  const { view, results } = renderInvite();
  send(view);
  await view.findByText(
    "This server does not send mail. Give this activation link to ada@example.com yourself.",
  );
  const link = view.getByLabelText("Activation link") as HTMLInputElement;
  assert.equal(link.value, LINK);
  assert.equal(link.readOnly, true);
  assert.deepEqual(results, [{ delivered: false, activationLink: LINK }]);
  assertAccessible(view.container);
});

Deno.test("InviteScreen's Copy link puts the link on the clipboard", async () => {
  const copied: string[] = [];
  const restore = stubClipboard((text) => {
    copied.push(text);
    return Promise.resolve();
  });
  try {
    env.use(inviteUndelivered(LINK));
    const { view } = renderInvite();
    send(view);
    fireEvent.click(await view.findByRole("button", { name: "Copy link" }));
    await view.findByText("Link copied.");
    assert.deepEqual(copied, [LINK]);
  } finally {
    restore();
  }
});

Deno.test("InviteScreen says to copy by hand when the clipboard refuses, and selects the link", async () => {
  const restore = stubClipboard(() =>
    Promise.reject(new DOMException("denied", "NotAllowedError"))
  );
  try {
    env.use(inviteUndelivered(LINK));
    const { view } = renderInvite();
    send(view);
    fireEvent.click(await view.findByRole("button", { name: "Copy link" }));
    await view.findByText(
      "The link could not be copied. Select it and copy it yourself.",
    );
    const link = view.getByLabelText("Activation link") as HTMLInputElement;
    assert.ok(document.activeElement === link, "the link has the focus");
    assert.equal(link.selectionStart, 0);
    assert.equal(link.selectionEnd, LINK.length);
  } finally {
    restore();
  }
});

/** What the screen says once the invitation is made, with the address blanked. */
async function answerWords(
  handler: Parameters<typeof env.use>[0],
  email: string,
) {
  env.use(handler);
  const { view } = renderInvite();
  try {
    send(view, email);
    await waitFor(() =>
      assert.notEqual(
        view.container.querySelector(".gh-status")?.textContent,
        "",
      )
    );
    return view.container.textContent!.replaceAll(email, "<email>");
  } finally {
    view.unmount();
  }
}

Deno.test("InviteScreen says the same whether the address already had an account", async () => {
  // The server answers alike; the screen must not add a difference of its own.
  const fresh = await answerWords(inviteUndelivered(LINK), "new@example.com");
  const taken = await answerWords(inviteUndelivered(LINK), "ada@example.com");
  assert.equal(fresh, taken);
  assert.doesNotMatch(fresh, /already|exists|account with/i);
});

Deno.test("InviteScreen never says an address is taken, even if a server answers email_taken", async () => {
  // Outside the contract: its invite never answers email_taken.
  env.use(refuseOutsideContract("invite", "email_taken"));
  const { view } = renderInvite();
  send(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "The invitation could not be delivered. Try again later.",
    )
  );
  assert.doesNotMatch(view.container.textContent!, /already exists/);
  assertNoFieldErrors(view.container);
});

Deno.test("InviteScreen treats delivered false without a link as a failed invitation", async () => {
  env.use(
    http.post(
      "*/api/users/invite",
      () => HttpResponse.json({ delivered: false }),
    ),
  );
  const { view, results } = renderInvite();
  send(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "The invitation could not be delivered. Try again later.",
    )
  );
  assert.deepEqual(results, []);
});

Deno.test("InviteScreen says no invitation was made when its mail could not be sent (502 mail_failed), in English and Spanish", async () => {
  env.use(refuse("invite", "mail_failed"));
  const { view, results } = renderInvite();
  send(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "The invitation email could not be sent, so no invitation was made. Try again later.",
    )
  );
  assert.deepEqual(results, []);
  assertNoFieldErrors(view.container);
  view.unmount();
  await inSpanish(async () => {
    const { view } = renderInvite();
    type(view, "Correo electrónico", "ada@example.com");
    type(view, "Nombre", "Ada");
    fireEvent.click(view.getByRole("button", { name: "Enviar invitación" }));
    await waitFor(() =>
      assert.equal(
        alertText(view.container),
        "No se pudo enviar el correo de la invitación, así que no se creó ninguna invitación. Vuelve a intentarlo más tarde.",
      )
    );
    view.unmount();
  });
});

Deno.test("InviteScreen shows refusals next to the field they concern", async (t) => {
  const rows: Array<[string, Parameters<typeof env.use>[0], string, string]> = [
    [
      "email_invalid",
      refuse("invite", "email_invalid", { meta: { field: "email" } }),
      "Email",
      "Enter an email address like name@example.com.",
    ],
    [
      "name_too_long",
      refuse("invite", "name_too_long", { meta: { field: "name" } }),
      "Name",
      "Use at most 100 characters.",
    ],
    [
      "role_beyond_reach",
      refuse("invite", "role_beyond_reach"),
      "Role",
      "You may not give this role or change this account.",
    ],
    [
      "role_unknown",
      refuse("invite", "role_unknown", { meta: { field: "role" } }),
      "Role",
      "The server does not know this role.",
    ],
  ];
  for (const [name, handler, label, message] of rows) {
    await t.step(name, async () => {
      env.use(handler);
      const { view } = renderInvite();
      try {
        send(view, "ada@example.com", "admin");
        await findFieldError(view, label, message);
        assert.equal(alertText(view.container), "");
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("InviteScreen says so on a server too old for invitations", async () => {
  env.use(serverTooOld("invite"));
  const { view } = renderInvite();
  send(view);
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This server is too old for invitations. Ask its administrator to upgrade Gatehouse.",
    )
  );
});

Deno.test("InviteScreen's Invite someone else starts a new, empty form", async () => {
  env.use(inviteUndelivered(LINK));
  const { view } = renderInvite();
  send(view);
  fireEvent.click(
    await view.findByRole("button", { name: "Invite someone else" }),
  );
  assert.equal((view.getByLabelText("Email") as HTMLInputElement).value, "");
  const title = view.getByRole("heading", { name: "Invite someone" });
  assert.ok(document.activeElement === title, "focus on the form's title");
  assert.ok(view.queryByLabelText("Activation link") === null);
});

Deno.test("InviteScreen shows a notice instead of the form without users.manage", () => {
  const { view } = renderInvite(member);
  view.getByText("Your account may not manage users.");
  assert.ok(view.queryByLabelText("Email") === null);
});

Deno.test("InviteScreen marks empty fields without asking the server", async () => {
  const recorder = recordRequests(env);
  const { view } = renderInvite();
  fireEvent.click(view.getByRole("button", { name: "Send invitation" }));
  await findFieldError(view, "Email", "This field is required.");
  await findFieldError(view, "Name", "This field is required.");
  assert.deepEqual(await recorder.requests(), []);
  assertAccessible(view.container);
});
