// Browser labels in the screens' language (issue 26, item 13): the server
// stores "Firefox on Linux" in English; the sessions list, one's own
// activity and the audit log show it with the joining word translated
// ("Firefox en Linux" in Spanish), the names themselves as they are.

import assert from "node:assert/strict";
import { AccountPanel, AuditLogScreen } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { browserLabel } from "../../../client/screens/_format.ts";
import { admin, inSpanish, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listPasskeysOk([]),
    testing.listInvitationsOk([]),
  ],
});

const events = () => [
  testing.auditEventOf("login.succeeded", { userAgent: "Firefox on Linux" }),
  testing.auditEventOf("password.changed", {
    userAgent: "Microsoft Edge on Windows",
  }),
];

function text(container: Element): string {
  return container.textContent ?? "";
}

Deno.test("browserLabel() translates the joining word only, and leaves lone names and blanks alone", async () => {
  assert.equal(browserLabel("Chrome on Linux"), "Chrome on Linux");
  await inSpanish(() => {
    assert.equal(browserLabel("Chrome on Linux"), "Chrome en Linux");
    assert.equal(
      browserLabel("Samsung Internet for Android on Android"),
      "Samsung Internet for Android en Android",
    );
    assert.equal(browserLabel("Chrome"), "Chrome");
    assert.equal(browserLabel("Linux"), "Linux");
    assert.equal(browserLabel(""), "");
    return Promise.resolve();
  });
});

Deno.test("AccountPanel shows sessions and activity with their browsers in Spanish", async () => {
  env.use(testing.listActivityOk(events()));
  await inSpanish(async () => {
    const view = renderWith(<AccountPanel />, admin);
    await view.findAllByText(/Safari en iOS/);
    await view.findAllByText(/Microsoft Edge en Windows/);
    const shown = text(view.container);
    assert.match(shown, /Firefox en Linux/);
    assert.doesNotMatch(shown, / on (Linux|iOS|Windows)/);
    view.unmount();
  });
});

Deno.test("AccountPanel keeps the browsers in English in English", async () => {
  env.use(testing.listActivityOk(events()));
  const view = renderWith(<AccountPanel />, admin);
  await view.findAllByText(/Safari on iOS/);
  await view.findAllByText(/Microsoft Edge on Windows/);
  assert.doesNotMatch(text(view.container), / en (Linux|iOS|Windows)/);
  view.unmount();
});

Deno.test("AuditLogScreen shows each row's browser in Spanish", async () => {
  env.use(testing.listAuditEventsOk(events()));
  await inSpanish(async () => {
    const view = renderWith(<AuditLogScreen />, admin);
    await view.findAllByText(/Microsoft Edge en Windows/);
    const shown = text(view.container);
    assert.match(shown, /Firefox en Linux/);
    assert.doesNotMatch(shown, / on (Linux|Windows)/);
    view.unmount();
  });
});
