// What the sign-in screens say when the server refuses (issue 26, items 9
// and 12), in English and in Spanish: a wrong code at the second step and a
// passkey the server did not accept are named as such, never "Email or
// password is incorrect" (the server answers all three with
// `credentials_invalid`); and every screen the login limiter can refuse
// says how long to wait, from the answer's Retry-After.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import {
  LoginScreen,
  RequestResetScreen,
  ResetPasswordScreen,
  SetPasswordScreen,
} from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import {
  fireEvent,
  render,
  type RenderResult,
  waitFor,
} from "@testing-library/preact";
import type { VNode } from "preact";
import { webauthn } from "../../../client/screens/_webauthn.ts";
import { alertText, inSpanish, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment();

const LANGUAGES = [
  {
    name: "English",
    run: (fn: () => Promise<void>) => fn(),
    wrongCode: "This code is not valid. Check it and try again.",
    passkey:
      "This passkey was not accepted. Try again, or sign in another way.",
    wrongPassword: "Email or password is incorrect.",
    twelveMinutes: "Too many attempts. Try again in 12 minutes.",
  },
  {
    name: "Spanish",
    run: inSpanish,
    wrongCode: "Este código no es válido. Revísalo y vuelve a intentarlo.",
    passkey:
      "No se ha aceptado esta llave de acceso. Vuelve a intentarlo o inicia sesión de otra forma.",
    wrongPassword: "El correo o la contraseña no son correctos.",
    twelveMinutes: "Demasiados intentos. Vuelve a intentarlo en 12 minutos.",
  },
];

// Fields and buttons by name and type, so one test reads in both languages.
function fill(view: RenderResult, name: string, value: string): void {
  const input = view.container.querySelector<HTMLInputElement>(
    `input[name="${name}"]`,
  );
  assert.ok(input, `a field named ${name}`);
  fireEvent.input(input, { target: { value } });
}

function submit(view: RenderResult): void {
  const button = view.container.querySelector<HTMLButtonElement>(
    'button[type="submit"]',
  );
  assert.ok(button, "a submit button");
  fireEvent.click(button);
}

// The field's own error text (its aria-describedby), or "".
function fieldError(view: RenderResult, name: string): string {
  const input = view.container.querySelector(`input[name="${name}"]`);
  const ids = input?.getAttribute("aria-describedby")?.split(/\s+/) ?? [];
  return ids.map((id) => document.getElementById(id))
    .filter((e) => e?.classList.contains("gh-field-error"))
    .map((e) => e!.textContent?.replace(/^⚠\s*/, "").trim() ?? "")
    .join(" ");
}

async function toSecondStep(
  view: RenderResult,
): Promise<void> {
  fill(view, "email", "ada@example.com");
  fill(view, "password", "the right password");
  submit(view);
  await waitFor(() =>
    assert.ok(view.container.querySelector('[data-gh-step="second-factor"]'))
  );
}

// happy-dom has no WebAuthn: the browser's side answers at once.
async function withPasskeys(fn: () => Promise<void>): Promise<void> {
  const saved = { ...webauthn };
  webauthn.supported = () => true;
  webauthn.autofill = () => Promise.resolve(false);
  webauthn.authenticate = () => Promise.resolve({ id: "credential" } as never);
  webauthn.cancel = () => {};
  try {
    await fn();
  } finally {
    Object.assign(webauthn, saved);
  }
}

for (const language of LANGUAGES) {
  Deno.test(`LoginScreen's second step says a wrong code is not valid, not that the password is wrong (${language.name})`, async () => {
    await language.run(async () => {
      env.use(
        testing.loginSecondFactor(),
        testing.verifySecondFactorInvalid(),
      );
      const view = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
      await toSecondStep(view);
      fill(view, "code", "000000");
      submit(view);
      await waitFor(() =>
        assert.equal(fieldError(view, "code"), language.wrongCode)
      );
      assert.equal(alertText(view.container), "", "no alert besides it");
      assert.ok(!view.container.textContent?.includes(language.wrongPassword));
      view.unmount();
    });
  });

  Deno.test(`a passkey the server refuses is named, at the first step and at the second (${language.name})`, async () => {
    await language.run(() =>
      withPasskeys(async () => {
        env.use(
          testing.passkeyLoginOptionsOk(),
          testing.loginWithPasskeyRefused(),
        );
        const first = render(<LoginScreen brand="Acme" onLogin={() => {}} />);
        const button = await waitFor(() => {
          const found = [...first.container.querySelectorAll("button")]
            .find((b) =>
              b.getAttribute("type") !== "submit" &&
              b.closest(".gh-actions") !== null &&
              !b.classList.contains("gh-button-link")
            );
          assert.ok(found, "the passkey button");
          return found;
        });
        fireEvent.click(button);
        await waitFor(() =>
          assert.equal(alertText(first.container), language.passkey)
        );
        first.unmount();

        env.use(
          testing.loginSecondFactor(["totp", "passkey"]),
          testing.verifySecondFactorInvalid(),
        );
        const second = render(
          <LoginScreen brand="Acme" onLogin={() => {}} />,
        );
        await toSecondStep(second);
        const usePasskey = [...second.container.querySelectorAll("button")]
          .find((b) =>
            b.getAttribute("type") !== "submit" &&
            !b.classList.contains("gh-button-link")
          );
        assert.ok(usePasskey, "the second step's passkey button");
        fireEvent.click(usePasskey);
        await waitFor(() =>
          assert.equal(alertText(second.container), language.passkey)
        );
        assert.equal(fieldError(second, "code"), "", "not the code's fault");
        second.unmount();
      })
    );
  });

  Deno.test(`every screen the login limiter refuses says how long to wait (${language.name})`, async (t) => {
    const limited = (operation: Parameters<typeof testing.refuse>[0]) =>
      testing.refuse(operation, "login_rate_limited", {
        retryAfter: 12 * 60,
      });
    const cases: Array<
      [
        string,
        Parameters<typeof env.use>,
        () => VNode,
        (v: RenderResult) => Promise<void>,
      ]
    > = [
      [
        "sign-in",
        [limited("login")],
        () => <LoginScreen brand="Acme" onLogin={() => {}} />,
        (view) => {
          fill(view, "email", "ada@example.com");
          fill(view, "password", "the right password");
          submit(view);
          return Promise.resolve();
        },
      ],
      [
        "second step",
        [testing.loginSecondFactor(), limited("verifySecondFactor")],
        () => <LoginScreen brand="Acme" onLogin={() => {}} />,
        async (view) => {
          await toSecondStep(view);
          fill(view, "code", "123456");
          submit(view);
        },
      ],
      [
        "reset request",
        [limited("requestPasswordReset")],
        () => <RequestResetScreen onBack={() => {}} />,
        (view) => {
          fill(view, "email", "ada@example.com");
          submit(view);
          return Promise.resolve();
        },
      ],
      [
        "reset confirm",
        [limited("resetPassword")],
        () => <ResetPasswordScreen token="reset-token" onDone={() => {}} />,
        (view) => {
          fill(view, "password", "a long new password");
          fill(view, "confirm", "a long new password");
          submit(view);
          return Promise.resolve();
        },
      ],
      [
        "invitation accept",
        [limited("acceptInvite")],
        () => (
          <SetPasswordScreen
            brand="Acme"
            token="invite-token"
            onAccepted={(_: SessionUser) => {}}
          />
        ),
        (view) => {
          fill(view, "password", "a long new password");
          fill(view, "confirm", "a long new password");
          submit(view);
          return Promise.resolve();
        },
      ],
    ];
    for (const [name, handlers, ui, act] of cases) {
      await t.step(name, async () => {
        await language.run(async () => {
          env.use(...handlers);
          const view = renderWith(ui(), null);
          await act(view);
          await waitFor(() =>
            assert.equal(alertText(view.container), language.twelveMinutes)
          );
          view.unmount();
        });
      });
    }
  });
}
