// An account without a password, as single sign-on makes it (its Identity
// says `hasPassword: false`): the account panel shows no change-password
// form, whose only answer would be `password_incorrect`, but why it has
// none and how to get one; the re-authentication dialog asks it for no
// password, only for the ways it has (a code of its app, a passkey,
// "Confirm with {name}"). An Identity without the field (an older server)
// is treated as before.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  restTransport,
  type SessionUser,
} from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { webauthn } from "../../../client/screens/_webauthn.ts";
import { recordRequests } from "../_support.ts";
import { assertAccessible, inSpanish, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([]),
    testing.countRecoveryCodesOk(),
  ],
});

const acme = testing.sampleSsoProvider;
// An account single sign-on made: no password, no app, no passkey.
const staff: SessionUser = {
  ...testing.userWithRole("member"),
  email: "ada@acme.example",
  secondFactor: { totp: false, passkeys: 0 },
  hasPassword: false,
};
const { hasPassword: _, ...olderServer } = staff;
// `=== null`: node's assert would describe a DOM element at great length.
const absent = (element: Element | null) =>
  assert.ok(element === null, `unexpected ${element?.outerHTML.slice(0, 80)}`);
const dialog = (name: string) =>
  document.querySelector<HTMLDialogElement>(`dialog[data-gh-dialog="${name}"]`);

const EXPLANATION =
  "You sign in with your organisation's single sign-on, so your account has no password. To set one, request a reset link from the sign-in page with “Forgot password?”, unless your organisation requires its single sign-on.";

/** The account panel's password section: its heading's section. */
function passwordSection(view: ReturnType<typeof renderWith>): HTMLElement {
  return view.container.querySelector<HTMLElement>(".gh-password")!;
}

Deno.test("AccountPanel shows an account without a password no change-password form, but why and how to get one", async () => {
  const view = renderWith(<AccountPanel />, staff);
  const section = passwordSection(view);
  within(section).getByRole("heading", { name: "Password" });
  assert.equal(
    section.querySelector(".gh-no-password")?.textContent,
    EXPLANATION,
  );
  absent(view.queryByRole("heading", { name: "Change password" }));
  absent(view.queryByLabelText("Current password"));
  absent(section.querySelector("form"));
  assertAccessible(section);
  await inSpanish(async () => {
    await waitFor(() =>
      assert.equal(
        passwordSection(view).querySelector(".gh-no-password")?.textContent,
        "Inicias sesión con el inicio de sesión único de tu organización, así que tu cuenta no tiene contraseña. Para tener una, pide un enlace de restablecimiento desde la página de inicio de sesión con «¿Olvidaste tu contraseña?», salvo que tu organización exija su inicio de sesión único.",
      )
    );
    within(passwordSection(view)).getByRole("heading", { name: "Contraseña" });
  });
});

Deno.test("AccountPanel shows the change-password form to an account with a password, and where the server does not say", async (t) => {
  for (
    const [label, user] of [
      ["hasPassword: true", { ...staff, hasPassword: true }],
      ["no hasPassword (an older server)", olderServer],
    ] as const
  ) {
    await t.step(label, () => {
      const view = renderWith(<AccountPanel />, user);
      view.getByRole("heading", { name: "Change password" });
      view.getByLabelText("Current password");
      absent(view.container.querySelector(".gh-no-password"));
      view.unmount();
    });
  }
});

/** Unlinks Acme from the panel past the window: the dialog that asks. */
async function askedToConfirm(
  user: SessionUser,
): Promise<HTMLDialogElement> {
  const view = renderWith(<AccountPanel />, user);
  fireEvent.click(
    await view.findByRole("button", { name: `Unlink ${acme.name}` }),
  );
  await waitFor(() => assert.ok(dialog("unlink-identity")));
  fireEvent.click(
    within(dialog("unlink-identity")!).getByRole("button", { name: "Unlink" }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  return dialog("reauthenticate")!;
}

Deno.test("the re-authentication dialog asks an account without a password for a code of its app, never for a password", async () => {
  env.use(
    testing.listSsoProvidersOk([acme]),
    testing.listSsoIdentitiesOk(),
    testing.unlinkSsoIdentityRefused("reauthentication_required", true),
    testing.unlinkSsoIdentityOk(),
    testing.reauthenticateOk(),
  );
  const recorder = recordRequests(env);
  const ask = await askedToConfirm({
    ...staff,
    secondFactor: { totp: true, passkeys: 0 },
  });
  absent(within(ask).queryByLabelText("Password"));
  absent(
    within(ask).queryByRole("button", { name: "Use your password instead" }),
  );
  fireEvent.click(
    within(ask).getByRole("button", { name: "Use a recovery code instead" }),
  );
  // From a recovery code, back to the app; still no password offered.
  fireEvent.click(
    within(ask).getByRole("button", {
      name: "Use a code from your app instead",
    }),
  );
  absent(
    within(ask).queryByRole("button", { name: "Use your password instead" }),
  );
  assertAccessible(ask);
  fireEvent.input(within(ask).getByLabelText("Code"), {
    target: { value: "123 456" },
  });
  fireEvent.click(within(ask).getByRole("button", { name: "Confirm" }));
  await waitFor(() => absent(dialog("reauthenticate")));
  recorder.stop();
  const proofs = (await recorder.requests())
    .filter((r) => r.url.pathname === "/api/auth/reauthenticate")
    .map((r) => r.body);
  assert.deepEqual(proofs, [{ code: "123456" }]);
});

Deno.test("the re-authentication dialog gives an account with neither password nor app only its provider: nothing to type", async () => {
  env.use(
    testing.listSsoProvidersOk([acme]),
    testing.listSsoIdentitiesOk(),
    testing.unlinkSsoIdentityRefused("reauthentication_required"),
  );
  history.replaceState(null, "", "/account");
  const went: URL[] = [];
  configureAuthTransport(
    restTransport({ navigate: (url) => went.push(new URL(url)) }),
  );
  const ask = await askedToConfirm(staff);
  const confirm = await within(ask).findByRole("button", {
    name: `Confirm with ${acme.name}`,
  });
  absent(within(ask).queryByRole("textbox"));
  absent(within(ask).queryByLabelText("Password"));
  // Nothing to confirm with but the provider: no Confirm button either.
  absent(within(ask).queryByRole("button", { name: "Confirm" }));
  within(ask).getByRole("button", { name: "Cancel" });
  assert.equal(
    ask.querySelector(".gh-sso-sign-in .gh-hint")?.textContent,
    "Confirm at your organisation's sign-in: you come back to this page, then do it again.",
  );
  assertAccessible(ask);
  fireEvent.click(confirm);
  await waitFor(() => assert.equal(went.length, 1));
  assert.equal(went[0]!.pathname, `/api/auth/sso/${acme.id}/start`);
  assert.equal(went[0]!.searchParams.get("reauthenticate"), "1");
});

Deno.test("the re-authentication dialog gives an account without a password its passkey, and the provider as the other way", async () => {
  const supported = webauthn.supported;
  webauthn.supported = () => true;
  try {
    env.use(
      testing.listSsoProvidersOk([acme]),
      testing.listSsoIdentitiesOk(),
      testing.listPasskeysOk([testing.samplePasskey]),
      testing.unlinkSsoIdentityRefused("reauthentication_required"),
    );
    const ask = await askedToConfirm({
      ...staff,
      secondFactor: { totp: false, passkeys: 1 },
    });
    within(ask).getByRole("button", { name: "Use a passkey" });
    await within(ask).findByRole("button", {
      name: `Confirm with ${acme.name}`,
    });
    absent(within(ask).queryByRole("textbox"));
    absent(within(ask).queryByLabelText("Password"));
    assert.equal(
      ask.querySelector(".gh-sso-sign-in .gh-hint")?.textContent,
      "Or confirm at your organisation's sign-in: you come back to this page, then do it again.",
    );
  } finally {
    webauthn.supported = supported;
  }
});
