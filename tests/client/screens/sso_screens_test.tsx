// The screens of single sign-on (DESIGN.md §13): the login screen's
// "Sign in with {name}" buttons (only the enforcing provider for its
// domain, only the provider a refusal names), every `?sso_error=CODE` as a
// sentence in English and Spanish, the account panel's linked identities
// (list, unlink, the last way to sign in kept and explained), and "Confirm
// with {name}" in the re-authentication dialog.

import assert from "node:assert/strict";
import {
  configureAuthTransport,
  restTransport,
  type SessionUser,
} from "@gatehouse/client";
import type { SsoStartOptions } from "@gatehouse/client/sso";
import {
  AccountPanel,
  LoginScreen,
  ResetPasswordScreen,
  SetPasswordScreen,
} from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import { SSO_ERROR_CODES } from "@gatehouse/contract";
import {
  fireEvent,
  render,
  type RenderResult,
  waitFor,
  within,
} from "@testing-library/preact";
import { formatDay } from "../../../client/screens/_format.ts";
import { recordRequests } from "../_support.ts";
import {
  alertText,
  assertAccessible,
  assertNoFieldErrors,
  inSpanish,
  renderWith,
  type,
} from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [
    testing.listSessionsOk(),
    testing.listActivityOk(),
    testing.listPasskeysOk([]),
  ],
});

const acme = testing.sampleSsoProvider;
const okta = { id: "okta", name: "Okta", domains: [], enforce: false };
const enforcingAcme = { ...acme, enforce: true };
// An account made by single sign-on: no app, no passkey.
const staff: SessionUser = {
  ...testing.userWithRole("member"),
  email: "ada@acme.example",
  secondFactor: { totp: false, passkeys: 0 },
};
const dialog = (name: string) =>
  document.querySelector<HTMLDialogElement>(`dialog[data-gh-dialog="${name}"]`);

/** Where the screens sent the page (the REST transport, navigations recorded). */
function navigations(): URL[] {
  const went: URL[] = [];
  configureAuthTransport(
    restTransport({ navigate: (url) => went.push(new URL(url)) }),
  );
  return went;
}

/** The start calls made, with the transport's `startSso` replaced. */
function starts(): Array<[string, SsoStartOptions | undefined]> {
  const made: Array<[string, SsoStartOptions | undefined]> = [];
  configureAuthTransport({
    startSso: (provider, options) => {
      made.push([provider, options]);
      return Promise.resolve();
    },
  });
  return made;
}

function renderLogin(): RenderResult {
  return render(<LoginScreen brand="Acme" onLogin={() => {}} />);
}

/** The names of the "Sign in with …" buttons. */
function ssoButtons(view: RenderResult): string[] {
  return view.queryAllByRole("button", { name: /^Sign in with (?!a passkey)/ })
    .map((button) => button.textContent ?? "");
}

Deno.test("LoginScreen offers no single sign-on where the server has no providers", async () => {
  const recorder = recordRequests(env);
  const view = renderLogin();
  await waitFor(async () =>
    assert.equal((await recorder.requests()).length, 1)
  );
  // Let the (empty) answer reach the screen.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(ssoButtons(view), []);
  assert.equal(view.container.querySelector(".gh-sso-sign-in"), null);
});

Deno.test("LoginScreen offers no single sign-on, and signs in with a password, when the providers cannot be read", async () => {
  env.use(testing.serverTooOld("listSsoProviders"), testing.loginOk());
  const signedIn: SessionUser[] = [];
  const view = render(
    <LoginScreen brand="Acme" onLogin={(user) => signedIn.push(user)} />,
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(ssoButtons(view), []);
  assert.equal(alertText(view.container), "");
  type(view, "Email", "ada@example.com");
  type(view, "Password", "a password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await waitFor(() => assert.equal(signedIn.length, 1));
});

Deno.test("LoginScreen shows a button per provider; one leaves the page for that provider's start, to come back here", async () => {
  env.use(testing.listSsoProvidersOk([acme, okta]));
  history.replaceState(null, "", "/users?page=2");
  const went = navigations();
  const view = renderLogin();
  await view.findByRole("button", { name: "Sign in with Acme SSO" });
  assert.deepEqual(ssoButtons(view), [
    "Sign in with Acme SSO",
    "Sign in with Okta",
  ]);
  assertAccessible(view.container);
  fireEvent.click(view.getByRole("button", { name: "Sign in with Okta" }));
  await waitFor(() => assert.equal(went.length, 1));
  assert.equal(went[0]!.pathname, "/api/auth/sso/okta/start");
  assert.deepEqual(Object.fromEntries(went[0]!.searchParams), {
    return_to: "/users?page=2",
  });
  assertNoFieldErrors(view.container);
});

Deno.test("LoginScreen offers only the enforcing provider for an address of its domain, and says why", async () => {
  env.use(testing.listSsoProvidersOk([enforcingAcme, okta]));
  const view = renderLogin();
  await view.findByRole("button", { name: "Sign in with Okta" });
  assert.equal(view.container.querySelector(".gh-sso-sign-in .gh-hint"), null);
  type(view, "Email", " Ada@ACME.example ");
  await waitFor(() =>
    assert.deepEqual(ssoButtons(view), ["Sign in with Acme SSO"])
  );
  const hint = view.container.querySelector(".gh-sso-sign-in .gh-hint")!;
  assert.equal(
    hint.textContent,
    "Addresses at acme.example sign in with Acme SSO.",
  );
  const button = view.getByRole("button", { name: "Sign in with Acme SSO" });
  assert.ok(
    (button.getAttribute("aria-describedby") ?? "").split(" ").includes(
      hint.id,
    ),
    "the button is described by the hint",
  );
  assertAccessible(view.container);
  // Another domain, or a subdomain: every provider again.
  for (const other of ["ada@other.example", "ada@eu.acme.example", "ada@"]) {
    type(view, "Email", other);
    await waitFor(() =>
      assert.deepEqual(ssoButtons(view), [
        "Sign in with Acme SSO",
        "Sign in with Okta",
      ])
    );
  }
  // A provider that speaks for the domain without enforcing: all stay.
  env.use(testing.listSsoProvidersOk([acme, okta]));
  view.unmount();
  const relaxed = renderLogin();
  await relaxed.findByRole("button", { name: "Sign in with Okta" });
  type(relaxed, "Email", "ada@acme.example");
  assert.deepEqual(ssoButtons(relaxed), [
    "Sign in with Acme SSO",
    "Sign in with Okta",
  ]);
});

Deno.test("LoginScreen knows an enforced domain however it is typed, as the server does (its ASCII form)", async (t) => {
  // The server compares an address's domain in its ASCII form (UTS #46);
  // its providers' domains are written so.
  const international = {
    ...enforcingAcme,
    domains: ["xn--bcher-kva.example", "acme.example"],
  };
  env.use(testing.listSsoProvidersOk([international, okta]));
  for (const typed of ["ada@bücher.example", "ada@ａｃｍｅ.example"]) {
    await t.step(typed, async () => {
      const view = renderLogin();
      try {
        await view.findByRole("button", { name: "Sign in with Okta" });
        type(view, "Email", typed);
        await waitFor(() =>
          assert.deepEqual(ssoButtons(view), ["Sign in with Acme SSO"])
        );
      } finally {
        view.unmount();
      }
    });
  }
});

Deno.test("LoginScreen: a password refused with sso_required names the provider and offers only its button", async () => {
  env.use(
    testing.listSsoProvidersOk([acme, okta]),
    testing.refuse("login", "sso_required", { meta: { provider: "okta" } }),
  );
  const made = starts();
  const view = renderLogin();
  await view.findByRole("button", { name: "Sign in with Okta" });
  type(view, "Email", "ada@corp.example");
  type(view, "Password", "a password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This address must sign in with Okta.",
    )
  );
  assert.deepEqual(ssoButtons(view), ["Sign in with Okta"]);
  assertNoFieldErrors(view.container);
  fireEvent.click(view.getByRole("button", { name: "Sign in with Okta" }));
  await waitFor(() => assert.deepEqual(made, [["okta", undefined]]));
});

Deno.test("LoginScreen: sso_required from a server whose providers it cannot name says so in general words", async () => {
  env.use(testing.refuse("login", "sso_required"));
  const view = renderLogin();
  type(view, "Email", "ada@corp.example");
  type(view, "Password", "a password");
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      "This address must sign in with its organisation's single sign-on.",
    )
  );
});

// Every failure the callback can send back, in English and in Spanish.
const SENTENCES: Record<string, [string, string]> = {
  sso_state_invalid: [
    "Signing in with your organisation took too long or was interrupted. Try again.",
    "El inicio de sesión con tu organización tardó demasiado o se interrumpió. Vuelve a intentarlo.",
  ],
  sso_denied: [
    "Your organisation's sign-in was cancelled or refused. Try again, or ask your administrator.",
    "El inicio de sesión de tu organización se canceló o se rechazó. Vuelve a intentarlo o consulta a tu administrador.",
  ],
  sso_token_invalid: [
    "The answer from your organisation's sign-in could not be verified. Try again; if it keeps happening, tell your administrator.",
    "No se pudo verificar la respuesta del inicio de sesión de tu organización. Vuelve a intentarlo; si sigue ocurriendo, avisa a tu administrador.",
  ],
  sso_email_unverified: [
    "Your organisation's sign-in has not confirmed your email address, so it cannot sign you in here. Confirm it there, or ask your administrator.",
    "El inicio de sesión de tu organización no ha confirmado tu dirección de correo, así que no puede iniciar tu sesión aquí. Confírmala allí o consulta a tu administrador.",
  ],
  sso_account_unknown: [
    "No account here belongs to the identity you used. Ask an administrator to invite you, or use the identity linked to your account.",
    "Ninguna cuenta de aquí corresponde a la identidad que usaste. Pide a un administrador que te invite o usa la identidad vinculada a tu cuenta.",
  ],
  sso_account_disabled: [
    "This account is disabled. Ask an administrator to enable it.",
    "Esta cuenta está desactivada. Pide a un administrador que la active.",
  ],
  sso_domain_refused: [
    "This sign-in provider may not sign in addresses of your email's domain here. Sign in another way, or ask your administrator.",
    "Este proveedor de inicio de sesión no puede iniciar sesión aquí con direcciones del dominio de tu correo. Inicia sesión de otra forma o consulta a tu administrador.",
  ],
  from_a_newer_server: [
    "Signing in with your organisation did not work. Try again.",
    "No se pudo iniciar sesión con tu organización. Vuelve a intentarlo.",
  ],
};

Deno.test("LoginScreen says every sso_error code in a sentence, in English and Spanish, and takes it out of the address", async (t) => {
  assert.deepEqual(
    Object.keys(SENTENCES).filter((code) => code !== "from_a_newer_server"),
    [...SSO_ERROR_CODES],
    "every code of the contract is here",
  );
  const distinct = new Set(Object.values(SENTENCES).map(([en]) => en));
  assert.equal(distinct.size, Object.keys(SENTENCES).length);
  for (const [code, [english, spanish]] of Object.entries(SENTENCES)) {
    await t.step(code, async () => {
      const rows: Array<[string, string]> = [["en", english], ["es", spanish]];
      for (const [words, expected] of rows) {
        history.replaceState(null, "", `/users?page=2&sso_error=${code}`);
        const show = async () => {
          const view = renderLogin();
          await waitFor(() =>
            assert.equal(alertText(view.container), expected, words)
          );
          assert.equal(location.pathname + location.search, "/users?page=2");
          view.unmount();
        };
        if (words === "es") await inSpanish(show);
        else await show();
      }
    });
  }
});

Deno.test("LoginScreen stops showing an sso_error once the person tries again", async () => {
  history.replaceState(null, "", "/?sso_error=sso_denied");
  const view = renderLogin();
  await waitFor(() =>
    assert.equal(
      alertText(view.container),
      SENTENCES.sso_denied![0],
    )
  );
  fireEvent.click(view.getByRole("button", { name: "Sign in" }));
  await waitFor(() => assert.equal(alertText(view.container), ""));
  assert.equal(location.search, "");
  // A new render of the screen (the address no longer has it) says nothing.
  view.unmount();
  const again = renderLogin();
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(alertText(again.container), "");
});

Deno.test("AccountPanel shows no single sign-on section, and asks for no identities, where the server has no providers", async () => {
  const recorder = recordRequests(env);
  const view = renderWith(<AccountPanel />, staff);
  await view.findByRole("heading", { name: "Passkeys" });
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(
    view.queryByRole("heading", { name: "Single sign-on" }),
    null,
  );
  const asked = (await recorder.requests()).map((r) => r.url.pathname);
  assert.ok(asked.includes("/api/auth/sso"));
  assert.ok(!asked.includes("/api/auth/sso/identities"));
});

Deno.test("AccountPanel lists the linked identities and unlinks one after a confirmation", async () => {
  const second = {
    ...testing.sampleSsoIdentity,
    id: "0190f0a0-0000-7000-8000-0000000000e2",
    provider: "okta",
    email: "",
    name: "Ada L.",
  };
  env.use(
    testing.listSsoProvidersOk([acme, okta]),
    testing.listSsoIdentitiesOk([testing.sampleSsoIdentity, second]),
    testing.unlinkSsoIdentityOk(),
  );
  const recorder = recordRequests(env);
  const view = renderWith(<AccountPanel />, staff);
  const section = (await view.findByRole("heading", {
    name: "Single sign-on",
  })).closest("section")!;
  await waitFor(() =>
    assert.equal(section.querySelectorAll(".gh-list-item").length, 2)
  );
  const items = [...section.querySelectorAll(".gh-list-item")];
  assert.deepEqual(
    items.map((item) => item.querySelector(".gh-list-name")?.textContent),
    ["Acme SSO", "Okta"],
  );
  const day = formatDay(testing.sampleSsoIdentity.linkedAt);
  assert.deepEqual(
    items.map((item) => item.querySelector(".gh-list-facts")?.textContent),
    [`ada@acme.example · Linked ${day}`, `Ada L. · Linked ${day}`],
  );
  assertAccessible(section);
  env.use(testing.listSsoIdentitiesOk([second]));
  fireEvent.click(view.getByRole("button", { name: "Unlink Acme SSO" }));
  await waitFor(() => assert.ok(dialog("unlink-identity")));
  const ask = dialog("unlink-identity")!;
  within(ask).getByText(
    "You will no longer sign in to this account with Acme SSO.",
  );
  fireEvent.click(within(ask).getByRole("button", { name: "Unlink" }));
  await view.findByText("Your identity at Acme SSO is unlinked.");
  await waitFor(() =>
    assert.equal(section.querySelectorAll(".gh-list-item").length, 1)
  );
  assert.equal(dialog("unlink-identity"), null);
  const deletes = (await recorder.requests())
    .filter((r) => r.method === "DELETE")
    .map((r) => r.url.pathname);
  assert.deepEqual(deletes, [
    `/api/auth/sso/identities/${testing.sampleSsoIdentity.id}`,
  ]);
});

Deno.test("AccountPanel keeps the last way to sign in and says what to do first", async () => {
  env.use(
    testing.listSsoProvidersOk([acme]),
    testing.listSsoIdentitiesOk(),
    testing.unlinkSsoIdentityRefused("last_sign_in_method"),
  );
  const view = renderWith(<AccountPanel />, staff);
  fireEvent.click(
    await view.findByRole("button", { name: "Unlink Acme SSO" }),
  );
  await waitFor(() => assert.ok(dialog("unlink-identity")));
  const ask = dialog("unlink-identity")!;
  fireEvent.click(within(ask).getByRole("button", { name: "Unlink" }));
  await waitFor(() =>
    assert.equal(
      alertText(ask),
      "This is the only way left to sign in to your account, so it stays linked. Add a passkey or a password first.",
    )
  );
  assert.ok(dialog("unlink-identity"), "the dialog stays open");
  await inSpanish(async () => {
    await waitFor(() =>
      assert.equal(
        alertText(ask),
        "Es la única forma que le queda a tu cuenta para iniciar sesión, así que sigue vinculada. Añade antes una llave de acceso o una contraseña.",
      )
    );
  });
  assert.equal(
    view.container.querySelectorAll(".gh-identity-list .gh-list-item").length,
    1,
  );
});

Deno.test("AccountPanel says an empty list, and why a re-authentication at the provider came back", async () => {
  env.use(
    testing.listSsoProvidersOk([acme]),
    testing.listSsoIdentitiesOk([]),
  );
  history.replaceState(null, "", "/?sso_error=sso_account_unknown");
  const view = renderWith(<AccountPanel />, staff);
  await view.findByText(
    "No identity at your organisation's sign-in is linked to this account.",
  );
  const section = view.getByRole("heading", { name: "Single sign-on" })
    .closest("section")!;
  await waitFor(() =>
    assert.equal(alertText(section), SENTENCES.sso_account_unknown![0])
  );
  assert.equal(location.search, "");
});

Deno.test("the re-authentication dialog offers Confirm with {name} for a linked provider: a start with reauthenticate, back to this page", async () => {
  env.use(
    testing.listSsoProvidersOk([acme, okta]),
    testing.listSsoIdentitiesOk(),
    testing.unlinkSsoIdentityRefused("reauthentication_required"),
  );
  history.replaceState(null, "", "/account");
  const went = navigations();
  const view = renderWith(<AccountPanel />, staff);
  fireEvent.click(
    await view.findByRole("button", { name: "Unlink Acme SSO" }),
  );
  await waitFor(() => assert.ok(dialog("unlink-identity")));
  fireEvent.click(
    within(dialog("unlink-identity")!).getByRole("button", { name: "Unlink" }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  const ask = dialog("reauthenticate")!;
  // Only the provider the account has an identity at.
  const confirm = await within(ask).findByRole("button", {
    name: "Confirm with Acme SSO",
  });
  assert.equal(
    within(ask).queryByRole("button", { name: "Confirm with Okta" }),
    null,
  );
  assertAccessible(ask);
  fireEvent.click(confirm);
  await waitFor(() => assert.equal(went.length, 1));
  assert.equal(went[0]!.pathname, "/api/auth/sso/acme/start");
  assert.deepEqual(Object.fromEntries(went[0]!.searchParams), {
    return_to: "/account",
    reauthenticate: "1",
  });
  // The page is leaving: nothing else may start meanwhile.
  assert.equal(confirm.getAttribute("aria-disabled"), "true");
});

Deno.test("the re-authentication dialog offers no provider to an account linked to none", async () => {
  env.use(
    testing.listSsoProvidersOk([acme]),
    testing.listSsoIdentitiesOk([]),
    testing.listPasskeysOk([testing.samplePasskey]),
    testing.removePasskeyRefused("reauthentication_required"),
  );
  const view = renderWith(<AccountPanel />, {
    ...staff,
    secondFactor: { totp: false, passkeys: 1 },
  });
  await view.findByText(
    "No identity at your organisation's sign-in is linked to this account.",
  );
  fireEvent.click(
    await view.findByRole("button", {
      name: `Remove ${testing.samplePasskey.name}`,
    }),
  );
  await waitFor(() => assert.ok(dialog("remove-passkey")));
  fireEvent.click(
    within(dialog("remove-passkey")!).getByRole("button", {
      name: "Remove passkey",
    }),
  );
  await waitFor(() => assert.ok(dialog("reauthenticate")));
  const ask = dialog("reauthenticate")!;
  within(ask).getByLabelText("Password");
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(
    within(ask).queryByRole("button", { name: /^Confirm with/ }),
    null,
  );
});

Deno.test("AccountPanel names the provider a session was signed in through", async () => {
  env.use(
    testing.listSessionsOk([
      { ...testing.currentSession, via: "Acme SSO" },
      { ...testing.otherSession, via: null },
    ]),
  );
  const facts = (view: RenderResult, id: string) =>
    view.container.querySelector(`[data-session-id="${id}"] .gh-list-facts`)
      ?.textContent ?? "";
  const view = renderWith(<AccountPanel />, staff);
  await waitFor(() =>
    assert.match(
      facts(view, testing.currentSession.id),
      / · Through Acme SSO · /,
    )
  );
  assert.doesNotMatch(facts(view, testing.otherSession.id), /Through/);
  view.unmount();
  await inSpanish(async () => {
    const spanish = renderWith(<AccountPanel />, staff);
    await waitFor(() =>
      assert.match(
        facts(spanish, testing.currentSession.id),
        / · A través de Acme SSO · /,
      )
    );
  });
});

Deno.test("an invitation or a reset link refused for an address that must use single sign-on says so", async () => {
  env.use(
    testing.refuse("acceptInvite", "sso_required", {
      meta: { provider: "acme" },
    }),
    testing.refuse("resetPassword", "sso_required", {
      meta: { provider: "acme" },
    }),
  );
  const words =
    "This address must sign in with its organisation's single sign-on.";
  const invited = renderWith(
    <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
    null,
  );
  type(invited, "New password", "a long new password");
  type(invited, "Repeat the password", "a long new password");
  fireEvent.click(invited.getByRole("button", { name: /Set password/ }));
  await waitFor(() => assert.equal(alertText(invited.container), words));
  invited.unmount();
  const reset = render(<ResetPasswordScreen token="t" onDone={() => {}} />);
  type(reset, "New password", "a long new password");
  type(reset, "Repeat the password", "a long new password");
  fireEvent.click(reset.getByRole("button", { name: "Change password" }));
  await waitFor(() => assert.equal(alertText(reset.container), words));
});
