// Translations: the Spanish catalogue holds every string of the source and
// nothing else; catalogFor() resolves it for every Spanish locale; switching
// language leaves the app's own text domain alone; and every screen, in
// every state, rendered in Spanish shows no English at all.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import type { PendingInvitation } from "../../../client/types.ts";
import {
  AccountPanel,
  catalogFor,
  DOMAIN,
  InviteScreen,
  LoginScreen,
  NewUserScreen,
  RequestResetScreen,
  ResetPasswordScreen,
  SetPasswordScreen,
  setScreensLocale,
  usersNavItem,
  UsersScreen,
} from "@gatehouse/client/screens";
import {
  acceptInviteOk,
  accountOf,
  checkLinkAccountExists,
  createUserOk,
  currentSession,
  installTestEnvironment,
  inviteDelivered,
  inviteUndelivered,
  listActivityOk,
  listInvitationsOk,
  listSessionsOk,
  listSsoIdentitiesOk,
  listSsoProvidersOk,
  listUsersOk,
  loginInvalid,
  loginRateLimited,
  networkFailure,
  refuse,
  requestPasswordResetOk,
  resetPasswordInvalidToken,
  resetPasswordOk,
  revokeInvitationNotFound,
  sampleSsoProvider,
  setUserDisabledOk,
  unlinkSsoIdentityRefused,
  userWithRole,
} from "@gatehouse/client/testing";
import {
  fireEvent,
  render,
  type RenderResult,
  waitFor,
  within,
} from "@testing-library/preact";
import { __, setLocaleData } from "@wordpress/i18n";
import { type SourceString, sourceStrings } from "./_strings.ts";
import { admin, inSpanish, member, renderWith, type } from "./_screens.tsx";

const env = installTestEnvironment({
  // The account panel lists its sessions and recent activity in every state.
  handlers: [
    listInvitationsOk([]),
    listSessionsOk([currentSession]),
    listActivityOk(),
  ],
});

const pendingOne: PendingInvitation = {
  id: "0190f0a0-0000-7000-8000-0000000000aa",
  email: "kate@example.com",
  name: "Kate",
  role: "member",
  invitedBy: { id: admin.id, email: admin.email, name: admin.name },
  createdAt: "2026-03-01T10:00:00.000Z",
  expiresAt: "2026-03-08T10:00:00.000Z",
};
const es = (await catalogFor("es"))!;
const { strings, unreadable } = await sourceStrings();
const PLACEHOLDER = /%[sd]/g;

function translations(source: SourceString): string[] {
  const entry = es[source.key];
  assert.ok(
    Array.isArray(entry),
    `"${source.key}" (${source.file}) is translated`,
  );
  return entry;
}

Deno.test("every translation call of the screens reads a string literal and DOMAIN", () => {
  assert.deepEqual(unreadable, []);
  assert.ok(strings.length > 100, `found ${strings.length} strings`);
  assert.equal(DOMAIN, "gatehouse");
});

Deno.test("the Spanish catalogue translates every string of every screen", () => {
  for (const source of strings) {
    const forms = translations(source);
    assert.equal(
      forms.length,
      source.plural === undefined ? 1 : 2,
      `"${source.key}": one form, or two for a plural`,
    );
    for (const form of forms) {
      assert.ok(form.trim() !== "", `"${source.key}" is not empty`);
      assert.notEqual(
        form,
        source.text,
        `"${source.key}" is not left in English`,
      );
      assert.deepEqual(
        form.match(PLACEHOLDER) ?? [],
        source.text.match(PLACEHOLDER) ?? [],
        `"${source.key}" keeps its placeholders`,
      );
    }
  }
});

Deno.test("the Spanish catalogue holds no string the screens do not use", () => {
  const used = new Set(strings.map((s) => s.key));
  const unused = Object.keys(es).filter((key) => key !== "" && !used.has(key));
  assert.deepEqual(unused, []);
  assert.deepEqual(es[""], {
    domain: "gatehouse",
    lang: "es",
    plural_forms: "nplurals=2; plural=n != 1;",
  });
});

Deno.test("catalogFor() resolves Spanish for every Spanish locale and undefined otherwise", async (t) => {
  const rows: Array<[string, boolean]> = [
    ["es", true],
    ["es-ES", true],
    ["es-MX", true],
    ["es-419", true],
    ["es_AR", true],
    ["es_ES.UTF-8", true],
    ["ES", true],
    ["en", false],
    ["en-US", false],
    ["fr", false],
    ["pt-BR", false],
    ["est", false],
    ["", false],
  ];
  for (const [locale, spanish] of rows) {
    await t.step(JSON.stringify(locale), async () => {
      const catalog = await catalogFor(locale);
      assert.equal(catalog === es, spanish);
      if (!spanish) assert.equal(catalog, undefined);
    });
  }
});

Deno.test("setScreensLocale() switches the screens' domain only, and back to English", async () => {
  setLocaleData({ "": { domain: "app" }, Users: ["Personas"] }, "app");
  try {
    assert.equal(await setScreensLocale("es-MX"), true);
    assert.equal(__("Users", DOMAIN), "Usuarios");
    assert.equal(__("Users", "app"), "Personas");
    assert.equal(__("Users"), "Users", "the default domain is untouched");
    assert.equal(await setScreensLocale("fr"), false);
    assert.equal(__("Users", DOMAIN), "Users", "English again");
    assert.equal(__("Sign in", DOMAIN), "Sign in");
    assert.equal(__("Users", "app"), "Personas");
  } finally {
    setLocaleData({ Users: [] }, "app");
  }
});

Deno.test("mounted screens re-render when the language changes", async () => {
  const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
  view.getByRole("heading", { name: "Sign in to Acme" });
  await inSpanish(async () => {
    await view.findByRole("heading", { name: "Inicia sesión en Acme" });
    view.getByLabelText("Correo electrónico");
  });
  await view.findByRole("heading", { name: "Sign in to Acme" });
});

// ---------------------------------------------------------------------------
// No English in Spanish screens

/** Everything a person or a screen reader gets from `container`. */
function shownTexts(container: Element): string[] {
  const texts: string[] = [];
  const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (text) texts.push(text);
  }
  for (const element of container.querySelectorAll("*")) {
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      const value = element.getAttribute(name);
      if (value) texts.push(value);
    }
  }
  return texts;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Pieces of English to look for: each string without its placeholders. */
const englishPieces: Array<[string, RegExp]> = strings
  .flatMap((s) => [s.text, s.plural ?? ""])
  .flatMap((text) => text.split(PLACEHOLDER))
  .map((piece) => piece.trim())
  .filter((piece, i, all) => piece.length >= 4 && all.indexOf(piece) === i)
  .map((piece) => [
    piece,
    new RegExp(`(?<![\\p{L}\\p{N}])${escape(piece)}(?![\\p{L}\\p{N}])`, "u"),
  ]);
const englishWhole = new Set(strings.map((s) => s.text));

function assertNoEnglish(container: Element, state: string): void {
  const texts = shownTexts(container);
  assert.ok(texts.length > 0, `${state} shows something`);
  for (const text of texts) {
    assert.ok(!englishWhole.has(text), `${state}: "${text}" is English`);
    for (const [piece, pattern] of englishPieces) {
      assert.ok(
        !pattern.test(text),
        `${state}: "${text}" holds the English "${piece}"`,
      );
    }
  }
}

const ada = accountOf(userWithRole("member"), {
  name: "Ada",
  email: "ada@example.com",
});
const grace = accountOf(userWithRole("editor"), {
  name: "Grace",
  email: "grace@example.com",
  disabled: true,
});

type Scenario = [string, () => Promise<RenderResult>];

const okta = { id: "okta", name: "Okta", domains: [], enforce: false };

const click = (view: RenderResult, name: string | RegExp) =>
  fireEvent.click(view.getByRole("button", { name }));

/** Waits until an element matching `selector` is there and says something. */
async function settled(view: RenderResult, selector: string) {
  await waitFor(() =>
    assert.ok(
      [...view.container.querySelectorAll(selector)].some((element) =>
        element.textContent?.trim()
      ),
      `waiting for ${selector}`,
    )
  );
  return view;
}

function listOf(actor: SessionUser) {
  return renderWith(
    <UsersScreen newUserRender={<a href="/users/new">+</a>} />,
    actor,
  );
}

const scenarios: Scenario[] = [
  ["LoginScreen", () =>
    Promise.resolve(
      render(
        <LoginScreen
          brand="Acme"
          onLogin={() => {}}
          onForgotPassword={() => {}}
        />,
      ),
    )],
  ["LoginScreen with empty fields", () => {
    const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
    click(view, "Iniciar sesión");
    return settled(view, ".gh-field-error");
  }],
  ["LoginScreen refused", () => {
    env.use(loginInvalid());
    const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
    type(view, "Correo electrónico", "ada@example.com");
    type(view, "Contraseña", "wrong");
    click(view, "Iniciar sesión");
    return settled(view, ".gh-alert p");
  }],
  ["LoginScreen rate limited", () => {
    env.use(loginRateLimited());
    const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
    type(view, "Correo electrónico", "ada@example.com");
    type(view, "Contraseña", "wrong");
    click(view, "Iniciar sesión");
    return settled(view, ".gh-alert p");
  }],
  ["LoginScreen with single sign-on providers", () => {
    env.use(listSsoProvidersOk([sampleSsoProvider, okta]));
    return settled(
      render(<LoginScreen brand="Acme" onLogin={() => {}} />),
      ".gh-sso-sign-in button",
    );
  }],
  ["LoginScreen for a domain that must use single sign-on", async () => {
    env.use(listSsoProvidersOk([{ ...sampleSsoProvider, enforce: true }]));
    const view = await settled(
      render(<LoginScreen brand="Acme" onLogin={() => {}} />),
      ".gh-sso-sign-in button",
    );
    type(view, "Correo electrónico", "ada@acme.example");
    return settled(view, ".gh-sso-sign-in .gh-hint");
  }],
  ["LoginScreen refused: the address must use single sign-on", async () => {
    env.use(
      listSsoProvidersOk([sampleSsoProvider]),
      refuse("login", "sso_required", { meta: { provider: "acme" } }),
    );
    const view = await settled(
      render(<LoginScreen brand="Acme" onLogin={() => {}} />),
      ".gh-sso-sign-in button",
    );
    type(view, "Correo electrónico", "ada@corp.example");
    type(view, "Contraseña", "a password");
    click(view, "Iniciar sesión");
    return settled(view, ".gh-alert p");
  }],
  ["LoginScreen back from a failed single sign-on", () => {
    history.replaceState(null, "", "/?sso_error=sso_email_unverified");
    return settled(
      render(<LoginScreen brand="Acme" onLogin={() => {}} />),
      ".gh-alert p",
    );
  }],
  ["AccountPanel with linked identities", () => {
    env.use(listSsoProvidersOk([sampleSsoProvider]), listSsoIdentitiesOk());
    return settled(
      renderWith(<AccountPanel />, admin),
      ".gh-identity-list .gh-list-item",
    );
  }],
  ["AccountPanel keeping the last way to sign in", async () => {
    env.use(
      listSsoProvidersOk([sampleSsoProvider]),
      listSsoIdentitiesOk(),
      unlinkSsoIdentityRefused("last_sign_in_method"),
    );
    const view = await settled(
      renderWith(<AccountPanel />, admin),
      ".gh-identity-list .gh-list-item",
    );
    click(view, `Desvincular ${sampleSsoProvider.name}`);
    await settled(
      view,
      'dialog[data-gh-dialog="unlink-identity"]',
    );
    fireEvent.click(
      within(
        view.container.querySelector<HTMLElement>(
          'dialog[data-gh-dialog="unlink-identity"]',
        )!,
      ).getByRole("button", { name: "Desvincular" }),
    );
    return settled(
      view,
      'dialog[data-gh-dialog="unlink-identity"] .gh-alert p',
    );
  }],
  ["AccountPanel asking to confirm at the provider", async () => {
    env.use(
      listSsoProvidersOk([sampleSsoProvider]),
      listSsoIdentitiesOk(),
      unlinkSsoIdentityRefused("reauthentication_required"),
    );
    const view = await settled(
      renderWith(<AccountPanel />, admin),
      ".gh-identity-list .gh-list-item",
    );
    click(view, `Desvincular ${sampleSsoProvider.name}`);
    await settled(view, 'dialog[data-gh-dialog="unlink-identity"]');
    fireEvent.click(
      within(
        view.container.querySelector<HTMLElement>(
          'dialog[data-gh-dialog="unlink-identity"]',
        )!,
      ).getByRole("button", { name: "Desvincular" }),
    );
    return settled(
      view,
      'dialog[data-gh-dialog="reauthenticate"] .gh-sso-sign-in button',
    );
  }],
  ["AccountPanel of an account without a password", () =>
    Promise.resolve(
      renderWith(<AccountPanel />, { ...admin, hasPassword: false }),
    )],
  [
    "AccountPanel asking an account without a password to confirm at the provider",
    async () => {
      env.use(
        listSsoProvidersOk([sampleSsoProvider]),
        listSsoIdentitiesOk(),
        unlinkSsoIdentityRefused("reauthentication_required"),
      );
      const view = await settled(
        renderWith(<AccountPanel />, { ...admin, hasPassword: false }),
        ".gh-identity-list .gh-list-item",
      );
      click(view, `Desvincular ${sampleSsoProvider.name}`);
      await settled(view, 'dialog[data-gh-dialog="unlink-identity"]');
      fireEvent.click(
        within(
          view.container.querySelector<HTMLElement>(
            'dialog[data-gh-dialog="unlink-identity"]',
          )!,
        ).getByRole("button", { name: "Desvincular" }),
      );
      return settled(
        view,
        'dialog[data-gh-dialog="reauthenticate"] .gh-sso-sign-in button',
      );
    },
  ],
  ["AccountPanel", () => Promise.resolve(renderWith(<AccountPanel />, admin))],
  [
    "AccountPanel without a role",
    () => Promise.resolve(renderWith(<AccountPanel />, userWithRole(""))),
  ],
  ["AccountPanel failing to sign out", () => {
    env.use(networkFailure("logout"));
    const view = renderWith(<AccountPanel />, admin);
    click(view, "Cerrar sesión");
    return settled(view, ".gh-alert p");
  }],
  ["UsersScreen", () => {
    env.use(listUsersOk([accountOf(admin), ada, grace], "next"));
    return settled(listOf(admin), ".gh-pager");
  }],
  ["UsersScreen loading", () => {
    env.use(listUsersOk([ada]));
    return Promise.resolve(listOf(admin));
  }],
  ["UsersScreen with a row's menu open", async () => {
    env.use(listUsersOk([ada]));
    const view = await settled(listOf(admin), ".gh-row");
    click(view, "Acciones de Ada");
    return settled(view, '[role="menu"]');
  }],
  ["UsersScreen's role dialog", async () => {
    env.use(listUsersOk([ada]));
    const view = await settled(listOf(admin), ".gh-row");
    click(view, "Acciones de Ada");
    fireEvent.click(view.getByRole("menuitem", { name: "Cambiar rol…" }));
    return settled(view, 'dialog[data-gh-dialog="role"]');
  }],
  ["UsersScreen after a change", async () => {
    env.use(listUsersOk([ada]), setUserDisabledOk(ada));
    const view = await settled(listOf(admin), ".gh-row");
    click(view, "Acciones de Ada");
    fireEvent.click(view.getByRole("menuitem", { name: "Desactivar…" }));
    click(view, "Desactivar cuenta");
    return settled(view, ".gh-users-table > .gh-status");
  }],
  ["UsersScreen after a refusal", async () => {
    env.use(listUsersOk([ada]), refuse("setUserDisabled", "role_changed"));
    const view = await settled(listOf(admin), ".gh-row");
    click(view, "Acciones de Ada");
    fireEvent.click(view.getByRole("menuitem", { name: "Desactivar…" }));
    click(view, "Desactivar cuenta");
    return settled(view, "dialog .gh-alert p");
  }],
  ["UsersScreen with nothing found", async () => {
    env.use(listUsersOk([]));
    const view = listOf(admin);
    type(view, "Buscar por nombre o correo", "zed");
    click(view, "Buscar");
    return await settled(view, ".gh-summary");
  }],
  ["UsersScreen with pending invitations and a revoke dialog", async () => {
    env.use(listUsersOk([ada]), listInvitationsOk([pendingOne]));
    const view = await settled(listOf(admin), ".gh-invitation");
    click(view, "Revocar la invitación para kate@example.com");
    return settled(view, 'dialog[data-gh-dialog="revoke"]');
  }],
  ["UsersScreen with an invitation no longer pending", async () => {
    env.use(
      listUsersOk([ada]),
      listInvitationsOk([pendingOne]),
      revokeInvitationNotFound(),
    );
    const view = await settled(listOf(admin), ".gh-invitation");
    click(view, "Revocar la invitación para kate@example.com");
    click(view, "Revocar invitación");
    return settled(view, 'dialog[data-gh-dialog="revoke"] .gh-alert p');
  }],
  ["UsersScreen without pending invitations", () => {
    env.use(listUsersOk([ada]), listInvitationsOk([]));
    return settled(listOf(admin), ".gh-invitations .gh-empty");
  }],
  ["UsersScreen failing", () => {
    env.use(refuse("listUsers", "internal"));
    return settled(listOf(admin), ".gh-alert p");
  }],
  ["UsersScreen for a member", () => Promise.resolve(listOf(member))],
  ["NewUserScreen", () =>
    Promise.resolve(
      renderWith(
        <NewUserScreen onCreated={() => {}} onCancel={() => {}} />,
        admin,
      ),
    )],
  ["NewUserScreen with empty fields", () => {
    const view = renderWith(<NewUserScreen onCreated={() => {}} />, admin);
    click(view, "Crear cuenta");
    return settled(view, ".gh-field-error");
  }],
  ["NewUserScreen done", () => {
    env.use(createUserOk());
    const view = renderWith(<NewUserScreen onCreated={() => {}} />, admin);
    type(view, "Nombre", "Grace");
    type(view, "Correo electrónico", "grace@example.com");
    type(view, "Contraseña", "a long enough password");
    click(view, "Crear cuenta");
    return settled(view, ".gh-status");
  }],
  [
    "NewUserScreen for a member",
    () =>
      Promise.resolve(
        renderWith(<NewUserScreen onCreated={() => {}} />, member),
      ),
  ],
  [
    "InviteScreen",
    () =>
      Promise.resolve(renderWith(<InviteScreen onCancel={() => {}} />, admin)),
  ],
  ["InviteScreen delivered", () => {
    env.use(inviteDelivered());
    const view = renderWith(<InviteScreen />, admin);
    type(view, "Correo electrónico", "ada@example.com");
    type(view, "Nombre", "Ada");
    click(view, "Enviar invitación");
    return settled(view, ".gh-invite-result");
  }],
  ["InviteScreen with the link, copy refused", async () => {
    env.use(inviteUndelivered("http://localhost/invite#token=t"));
    const view = renderWith(<InviteScreen />, admin);
    type(view, "Correo electrónico", "ada@example.com");
    type(view, "Nombre", "Ada");
    click(view, "Enviar invitación");
    await settled(view, ".gh-copy");
    Object.defineProperty(navigator, "clipboard", {
      value: { writeText: () => Promise.reject(new Error("no")) },
      configurable: true,
    });
    click(view, "Copiar enlace");
    return settled(view, ".gh-copy-status");
  }],
  ["SetPasswordScreen", () =>
    Promise.resolve(
      renderWith(
        <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
        null,
      ),
    )],
  ["SetPasswordScreen after a failure (retry)", () => {
    env.use(networkFailure("acceptInvite"));
    const view = renderWith(
      <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
      null,
    );
    type(view, "Contraseña nueva", "a long new password");
    type(view, "Repite la contraseña", "a long new password");
    click(view, /Guardar contraseña/);
    return settled(view, ".gh-alert p");
  }],
  ["SetPasswordScreen with passwords that differ", () => {
    const view = renderWith(
      <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
      null,
    );
    type(view, "Contraseña nueva", "a long new password");
    type(view, "Repite la contraseña", "another");
    click(view, /Guardar contraseña/);
    return settled(view, ".gh-field-error");
  }],
  ["SetPasswordScreen with a dead link", () => {
    env.use(refuse("acceptInvite", "token_invalid"));
    const view = renderWith(
      <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
      null,
    );
    type(view, "Contraseña nueva", "a long new password");
    type(view, "Repite la contraseña", "a long new password");
    click(view, /Guardar contraseña/);
    return settled(view, '[data-gh-state="invalid-link"]');
  }],
  ["SetPasswordScreen for an address that has an account", () => {
    env.use(checkLinkAccountExists());
    const view = renderWith(
      <SetPasswordScreen
        brand="Acme"
        token="t"
        signInHref="/"
        forgotPasswordHref="/forgot"
        onAccepted={() => {}}
      />,
      null,
    );
    return settled(view, '[data-gh-state="account-exists"]');
  }],
  ["SetPasswordScreen signing in", () => {
    env.use(acceptInviteOk(admin));
    return Promise.resolve(
      renderWith(
        <SetPasswordScreen brand="Acme" token="t" onAccepted={() => {}} />,
        null,
      ),
    );
  }],
  [
    "RequestResetScreen",
    () => Promise.resolve(render(<RequestResetScreen onBack={() => {}} />)),
  ],
  ["RequestResetScreen sent", () => {
    env.use(requestPasswordResetOk());
    const view = render(<RequestResetScreen onBack={() => {}} />);
    type(view, "Correo electrónico", "ada@example.com");
    click(view, "Enviar enlace");
    return settled(view, '[data-gh-state="sent"]');
  }],
  ["RequestResetScreen rate limited", () => {
    env.use(
      refuse("requestPasswordReset", "login_rate_limited", {
        retryAfter: 30,
      }),
    );
    const view = render(<RequestResetScreen />);
    type(view, "Correo electrónico", "ada@example.com");
    click(view, "Enviar enlace");
    return settled(view, ".gh-alert p");
  }],
  [
    "ResetPasswordScreen",
    () =>
      Promise.resolve(
        render(<ResetPasswordScreen token="t" onDone={() => {}} />),
      ),
  ],
  ["ResetPasswordScreen done", () => {
    env.use(resetPasswordOk());
    const view = render(<ResetPasswordScreen token="t" onDone={() => {}} />);
    type(view, "Contraseña nueva", "a long new password");
    type(view, "Repite la contraseña", "a long new password");
    click(view, "Cambiar contraseña");
    return settled(view, '[data-gh-state="done"]');
  }],
  ["ResetPasswordScreen with a dead link", () => {
    env.use(resetPasswordInvalidToken());
    const view = render(
      <ResetPasswordScreen
        token="t"
        onDone={() => {}}
        onRequestNew={() => {}}
      />,
    );
    type(view, "Contraseña nueva", "a long new password");
    type(view, "Repite la contraseña", "a long new password");
    click(view, "Cambiar contraseña");
    return settled(view, '[data-gh-state="invalid-link"]');
  }],
  [
    "usersNavItem",
    () =>
      Promise.resolve(
        render(<nav>{usersNavItem(admin, { href: "/users" })}</nav>),
      ),
  ],
];

Deno.test("every screen in every state shows no English when in Spanish", async (t) => {
  await inSpanish(async () => {
    for (const [state, show] of scenarios) {
      await t.step(state, async () => {
        try {
          const view = await show();
          assertNoEnglish(view.container, state);
        } finally {
          env.cleanup(); // unmounts, empties the document, drops handlers
          delete (navigator as { clipboard?: unknown }).clipboard;
        }
      });
    }
  });
});

Deno.test("the English check finds English when the screens are in English", async () => {
  // Without this, a check that never matches would pass every state above.
  const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
  assert.throws(() => assertNoEnglish(view.container, "English login"));
  view.unmount();
  await inSpanish(async () => {
    const spanish = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
    assertNoEnglish(spanish.container, "Spanish login");
    within(spanish.container as HTMLElement).getByText("Iniciar sesión");
    spanish.unmount();
    await Promise.resolve();
  });
});
