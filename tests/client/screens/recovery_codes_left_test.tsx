// The account panel's two-step verification says how many recovery codes
// are left (countRecoveryCodes): the count at 10, a warning with a prompt
// from 3 down and at 0, in English and Spanish; nothing but the usual
// sentence when the count cannot be read or the app is off; and a fresh
// count after new codes.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent, waitFor } from "@testing-library/preact";
import { recordRequests } from "../_support.ts";
import { admin, assertAccessible, inSpanish, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([]),
  ],
});

const withApp: SessionUser = {
  ...admin,
  secondFactor: { totp: true, passkeys: 0 },
};
const withoutApp: SessionUser = {
  ...admin,
  secondFactor: { totp: false, passkeys: 0 },
};

/** The count's paragraph, once it shows. */
async function codesLeft(container: Element): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found = container.querySelector<HTMLElement>(".gh-codes-left");
    assert.ok(found, "the count shows");
  });
  return found!;
}

// [left, English, Spanish, a warning]
const ROWS: Array<[number, string, string, boolean]> = [
  [
    10,
    "10 recovery codes left.",
    "Te quedan 10 códigos de recuperación.",
    false,
  ],
  [4, "4 recovery codes left.", "Te quedan 4 códigos de recuperación.", false],
  [
    3,
    "3 recovery codes left. Generate new ones so a lost phone cannot lock you out.",
    "Te quedan 3 códigos de recuperación. Genera otros nuevos para que un teléfono perdido no te deje fuera.",
    true,
  ],
  [
    1,
    "1 recovery code left. Generate new ones so a lost phone cannot lock you out.",
    "Te queda 1 código de recuperación. Genera otros nuevos para que un teléfono perdido no te deje fuera.",
    true,
  ],
  [
    0,
    "No recovery codes left. Generate new ones so a lost phone cannot lock you out.",
    "No te quedan códigos de recuperación. Genera otros nuevos para que un teléfono perdido no te deje fuera.",
    true,
  ],
];

for (const [left, english, spanish, warning] of ROWS) {
  Deno.test(`AccountPanel says how many recovery codes are left at ${left}, in English and Spanish${warning ? ", as a warning" : ""}`, async () => {
    env.use(testing.countRecoveryCodesOk(left));
    const view = renderWith(<AccountPanel />, withApp);
    const shown = await codesLeft(view.container);
    assert.equal(shown.textContent, english);
    assert.equal(shown.classList.contains("gh-warning"), warning);
    view.getByRole("button", { name: "New recovery codes" });
    assertAccessible(view.container);
    view.unmount();

    await inSpanish(async () => {
      const es = renderWith(<AccountPanel />, withApp);
      const mostrado = await codesLeft(es.container);
      assert.equal(mostrado.textContent, spanish);
      assert.equal(mostrado.classList.contains("gh-warning"), warning);
      es.getByRole("button", { name: "Nuevos códigos de recuperación" });
      es.unmount();
    });
  });
}

Deno.test("AccountPanel asks nothing and shows no count while the app is off", async () => {
  const recorder = recordRequests(env);
  const view = renderWith(<AccountPanel />, withoutApp);
  await view.findByRole("button", { name: "Set up an authenticator app" });
  await view.findByText("This device");
  recorder.stop();
  assert.equal(view.container.querySelector(".gh-codes-left"), null);
  const asked = (await recorder.requests()).filter((r) =>
    r.url.pathname === "/api/auth/recovery-codes"
  );
  assert.deepEqual(asked, []);
});

Deno.test("AccountPanel keeps its sentence without a count when the server cannot say (too old)", async () => {
  env.use(testing.serverTooOld("countRecoveryCodes"));
  const view = renderWith(<AccountPanel />, withApp);
  await view.findByText(/^On: signing in asks for a code/);
  await view.findByText("This device");
  // The failed read has settled: still no count, and the buttons are there.
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(view.container.querySelector(".gh-codes-left"), null);
  view.getByRole("button", { name: "New recovery codes" });
});

Deno.test("AccountPanel reads the count again after new recovery codes: from 2 to 10", async () => {
  env.use(
    testing.countRecoveryCodesOk(2),
    testing.regenerateRecoveryCodesRefused("reauthentication_required", true),
    testing.regenerateRecoveryCodesOk(),
    testing.reauthenticateOk(),
  );
  const view = renderWith(<AccountPanel />, withApp);
  assert.equal(
    (await codesLeft(view.container)).textContent,
    "2 recovery codes left. Generate new ones so a lost phone cannot lock you out.",
  );
  const recorder = recordRequests(env);
  env.use(testing.countRecoveryCodesOk(10));
  fireEvent.click(view.getByRole("button", { name: "New recovery codes" }));
  // The re-authentication dialog first, then the codes.
  const ask = await waitFor(() => {
    const dialog = document.querySelector<HTMLDialogElement>(
      'dialog[data-gh-dialog="reauthenticate"]',
    );
    assert.ok(dialog);
    return dialog;
  });
  fireEvent.input(ask.querySelector("input")!, { target: { value: "pw" } });
  fireEvent.click(
    [...ask.querySelectorAll("button")].find((b) =>
      b.textContent === "Confirm"
    )!,
  );
  await view.findByText(testing.sampleRecoveryCodes[0]!);
  fireEvent.click(view.getByRole("button", { name: "I saved them" }));
  await waitFor(async () =>
    assert.equal(
      (await codesLeft(view.container)).textContent,
      "10 recovery codes left.",
    )
  );
  recorder.stop();
  const sent = (await recorder.requests()).map((r) =>
    `${r.method} ${r.url.pathname}`
  );
  assert.deepEqual(
    sent.filter((s) => s.endsWith("/api/auth/recovery-codes")),
    [
      "POST /api/auth/recovery-codes",
      "POST /api/auth/recovery-codes",
      "GET /api/auth/recovery-codes",
    ],
  );
});
