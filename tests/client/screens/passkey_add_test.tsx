// The account panel's "Add a passkey" (issue 26, item 10): when the browser
// refuses because this device already holds one of the account's passkeys
// (the server excluded them; WebAuthn's InvalidStateError), the panel says
// so, in English and Spanish, instead of "Something went wrong"; and a
// registration that works still says it is added. happy-dom has no
// WebAuthn: the browser's side is replaced for each test.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import { AccountPanel } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { webauthn } from "../../../client/screens/_webauthn.ts";
import { recordRequests } from "../_support.ts";
import {
  admin,
  alertText,
  assertAccessible,
  inSpanish,
  renderWith,
} from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([testing.samplePasskey]),
    testing.passkeyRegistrationOptionsOk(),
  ],
});

// An account with a passkey already, so the panel shows its passkeys.
const withPasskey: SessionUser = {
  ...admin,
  secondFactor: { totp: false, passkeys: 1 },
};

// What @simplewebauthn/browser throws when navigator.credentials.create()
// meets an excluded credential: its WebAuthnError keeps the DOMException's
// name.
function previouslyRegistered(): Error {
  const error = new Error("The authenticator was previously registered");
  error.name = "InvalidStateError";
  Object.assign(error, { code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" });
  return error;
}

async function withRegister(
  register: typeof webauthn.register,
  fn: () => Promise<void>,
) {
  const saved = { ...webauthn };
  webauthn.supported = () => true;
  webauthn.register = register;
  try {
    await fn();
  } finally {
    Object.assign(webauthn, saved);
  }
}

// Renders the panel, opens its passkeys section and presses `button`
// (adding a passkey without a name).
async function addPasskey(button: string) {
  const view = renderWith(<AccountPanel />, withPasskey);
  const section = view.container.querySelector<HTMLElement>(".gh-passkeys")!;
  await within(section).findByText(testing.samplePasskey.name);
  fireEvent.click(within(section).getByRole("button", { name: button }));
  // The form's own alert (the list above has one for its loading).
  return { view, section, form: section.querySelector("form")! };
}

const ALREADY =
  "This device already holds a passkey for your account. Use it to sign in, or add a passkey from another device.";

Deno.test("adding a passkey from a device that holds one of the account's says so, not that something went wrong", async () => {
  let tries = 0;
  await withRegister(() => {
    tries++;
    return Promise.reject(previouslyRegistered());
  }, async () => {
    const { view, form } = await addPasskey("Add a passkey");
    await waitFor(() => assert.equal(alertText(form), ALREADY));
    assert.equal(tries, 1);
    assertAccessible(view.container);
    view.unmount();
  });
});

Deno.test("in Spanish, a device that already holds a passkey of the account says so in Spanish", async () => {
  await inSpanish(async () => {
    await withRegister(
      () => Promise.reject(previouslyRegistered()),
      async () => {
        const { view, form } = await addPasskey(
          "Añadir una llave de acceso",
        );
        await waitFor(() =>
          assert.equal(
            alertText(form),
            "Este dispositivo ya tiene una llave de acceso de tu cuenta. Úsala para iniciar sesión o añade una llave de acceso desde otro dispositivo.",
          )
        );
        view.unmount();
      },
    );
  });
});

Deno.test("other refusals of the browser keep their own words; a passkey that registers is added", async () => {
  await withRegister(() => {
    const error = new Error("cancelled");
    error.name = "NotAllowedError";
    return Promise.reject(error);
  }, async () => {
    const { view, form } = await addPasskey("Add a passkey");
    await waitFor(() =>
      assert.equal(
        alertText(form),
        "The passkey was not used: the request was cancelled or timed out, or your device could not confirm it is you. Try again.",
      )
    );
    view.unmount();
  });
  env.use(testing.registerPasskeyOk(), testing.fetchSessionOk(withPasskey));
  await withRegister(() => Promise.resolve({ id: "credential" }), async () => {
    const { view, section, form } = await addPasskey("Add a passkey");
    // Added without a name: the screen names it.
    await within(section).findByText("The passkey Passkey is added.");
    assert.equal(alertText(form), "");
    view.unmount();
  });
});

Deno.test("a passkey added without a name is named in the reader's language", async () => {
  env.use(testing.registerPasskeyOk(), testing.fetchSessionOk(withPasskey));
  for (
    const [button, expected, run] of [
      ["Add a passkey", "Passkey", (fn: () => Promise<void>) => fn()],
      ["Añadir una llave de acceso", "Llave de acceso", inSpanish],
    ] as const
  ) {
    const recorder = recordRequests(env);
    await run(() =>
      withRegister(() => Promise.resolve({ id: "credential" }), async () => {
        const { view } = await addPasskey(button);
        await waitFor(async () => {
          const sent = (await recorder.requests()).find((r) =>
            r.method === "POST" && r.url.pathname === "/api/auth/passkeys"
          );
          assert.equal((sent?.body as { name?: string })?.name, expected);
        });
        view.unmount();
      })
    );
    recorder.stop();
  }
});
