// The account lock on screen (DESIGN.md §15, issue 30), in English and in
// Spanish: the login screen says plainly that sign-in to this account is
// paused and when it can be tried again (or that a password reset is
// needed), apart from the address limiter's "too many attempts"; the users
// table marks a locked account with until when, and its row offers
// "Unlock", which clears the mark and says so.

import assert from "node:assert/strict";
import type { SessionUser } from "@gatehouse/client";
import type { User } from "../../../client/types.ts";
import { LoginScreen, UsersScreen } from "@gatehouse/client/screens";
import * as testing from "@gatehouse/client/testing";
import {
  fireEvent,
  type RenderResult,
  waitFor,
  within,
} from "@testing-library/preact";
import { admin, alertText, inSpanish, renderWith } from "./_screens.tsx";

const env = testing.installTestEnvironment({
  handlers: [testing.listInvitationsOk([])],
});

const LANGUAGES = [
  {
    name: "English",
    run: (fn: () => Promise<void>) => fn(),
    lang: "en",
    paused:
      "Sign-in to this account is paused after too many failed attempts. You can try again at ",
    reset:
      "Sign-in to this account is paused after too many failed attempts. Reset your password to sign in again, or ask an administrator to unlock the account.",
    limiter: "Too many attempts. Try again in 2 minutes.",
    pausedLater:
      "Sign-in to this account is paused after too many failed attempts. Try again later.",
    limiterLater: "Too many attempts. Try again later.",
    badge: "Locked until ",
    unlock: "Unlock",
    unlocked: "Ada can sign in again.",
  },
  {
    name: "Spanish",
    run: inSpanish,
    lang: "es",
    paused:
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Podrás volver a intentarlo desde ",
    reset:
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Restablece tu contraseña para volver a entrar, o pide a un administrador que desbloquee la cuenta.",
    limiter: "Demasiados intentos. Vuelve a intentarlo en 2 minutos.",
    pausedLater:
      "El inicio de sesión en esta cuenta está pausado tras demasiados intentos fallidos. Vuelve a intentarlo más tarde.",
    limiterLater: "Demasiados intentos. Vuelve a intentarlo más tarde.",
    badge: "Bloqueada hasta ",
    unlock: "Desbloquear",
    unlocked: "Ada ya puede volver a iniciar sesión.",
  },
];

/** The hour `seconds` from now as the screens say it today in `lang`. */
function hourIn(lang: string, seconds: number): string[] {
  // Either side of a minute's turn while the test runs.
  return [0, 60].map((slack) =>
    new Intl.DateTimeFormat(lang, { timeStyle: "short" }).format(
      new Date(Date.now() + (seconds + slack) * 1000),
    )
  );
}

async function signInRefused(): Promise<string> {
  const view = renderWith(
    <LoginScreen brand="Acme" onLogin={(_: SessionUser) => {}} />,
    null,
  );
  const field = (name: string) =>
    view.container.querySelector<HTMLInputElement>(`input[name="${name}"]`)!;
  fireEvent.input(field("email"), { target: { value: "ada@example.com" } });
  fireEvent.input(field("password"), { target: { value: "a guess" } });
  fireEvent.click(
    view.container.querySelector<HTMLButtonElement>('button[type="submit"]')!,
  );
  let text = "";
  await waitFor(() => {
    text = alertText(view.container);
    assert.notEqual(text, "");
  });
  view.unmount();
  return text;
}

for (const language of LANGUAGES) {
  Deno.test(`LoginScreen says sign-in to the account is paused, and until when (${language.name})`, async () => {
    await language.run(async () => {
      env.use(testing.loginAccountLocked(120));
      const text = await signInRefused();
      assert.ok(text.startsWith(language.paused), text);
      const hour = text.slice(language.paused.length, -1);
      assert.ok(hourIn(language.lang, 120).includes(hour), hour);
      assert.ok(text.endsWith("."));
    });
  });

  Deno.test(`LoginScreen says a reset lifts the lock past 100 failures (${language.name})`, async () => {
    await language.run(async () => {
      env.use(testing.loginAccountLocked(86_400 * 365, true));
      assert.equal(await signInRefused(), language.reset);
    });
  });

  // A Retry-After past what a date can hold (a proxy's or a buggy server's)
  // is as good as none: the sentence says "later", not "at ." or "in 0
  // minutes".
  Deno.test(`LoginScreen says "later" for a wait no date can hold (${language.name})`, async () => {
    await language.run(async () => {
      for (const seconds of [1e13, 2 ** 53 + 2]) {
        env.use(testing.loginAccountLocked(seconds));
        assert.equal(await signInRefused(), language.pausedLater, `${seconds}`);
        env.use(testing.loginRateLimited(seconds));
        assert.equal(
          await signInRefused(),
          language.limiterLater,
          `${seconds}`,
        );
      }
    });
  });

  Deno.test(`LoginScreen keeps the address limiter's words apart (${language.name})`, async () => {
    await language.run(async () => {
      env.use(testing.loginRateLimited(120));
      assert.equal(await signInRefused(), language.limiter);
    });
  });
}

const ada = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000a",
  name: "Ada",
  email: "ada@example.com",
  lockedUntil: new Date(Date.now() + 10 * 60_000).toISOString(),
});
const nia = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000c",
  name: "Nia",
  email: "nia@example.com",
  lockedUntil: null,
});
const pat = testing.accountOf(testing.userWithRole("member"), {
  id: "0190f0a0-0000-7000-8000-00000000000b",
  name: "Pat",
  email: "pat@example.com",
  // A lock whose time has passed is no lock.
  lockedUntil: new Date(Date.now() - 60_000).toISOString(),
});

function row(view: RenderResult, user: User): HTMLElement {
  const element = view.container.querySelector<HTMLElement>(
    `[data-user-id="${user.id}"]`,
  );
  assert.ok(element, `a row for ${user.name}`);
  return element;
}

function menuOf(view: RenderResult, user: User): HTMLElement[] {
  fireEvent.click(within(row(view, user)).getAllByRole("button")[0]!);
  return within(row(view, user)).getAllByRole("menuitem");
}

for (const language of LANGUAGES) {
  Deno.test(`UsersScreen marks a locked account until when, and unlocks it (${language.name})`, async () => {
    await language.run(async () => {
      env.use(testing.listUsersOk([ada, nia, pat]));
      const view = renderWith(<UsersScreen />, admin);
      await view.findByText(pat.email);
      const badge = row(view, ada).querySelector("[data-gh-locked]");
      assert.ok(badge?.textContent?.startsWith(language.badge));
      assert.equal(row(view, nia).querySelector("[data-gh-locked]"), null);
      assert.equal(row(view, pat).querySelector("[data-gh-locked]"), null);
      const names = (items: HTMLElement[]) =>
        items.map((item) => item.getAttribute("data-gh-action"));
      assert.ok(!names(menuOf(view, nia)).includes("unlock"));
      fireEvent.keyDown(within(row(view, nia)).getByRole("menu"), {
        key: "Escape",
      });

      env.use(testing.unlockUserOk());
      const unlock = menuOf(view, ada).find((item) =>
        item.getAttribute("data-gh-action") === "unlock"
      );
      assert.equal(unlock?.textContent, language.unlock);
      fireEvent.click(unlock!);
      await waitFor(() =>
        assert.ok(
          view.container.textContent?.includes(language.unlocked),
          "the outcome is said",
        )
      );
      await waitFor(() =>
        assert.equal(row(view, ada).querySelector("[data-gh-locked]"), null)
      );
      view.unmount();
    });
  });
}

Deno.test("UsersScreen shows a refused unlock in the table", async () => {
  env.use(testing.listUsersOk([ada]));
  const view = renderWith(<UsersScreen />, admin);
  await view.findByText(ada.email);
  env.use(testing.unlockUserRefused("role_beyond_reach"));
  const unlock = menuOf(view, ada).find((item) =>
    item.getAttribute("data-gh-action") === "unlock"
  )!;
  fireEvent.click(unlock);
  await waitFor(() =>
    assert.ok(
      [...view.container.querySelectorAll('[role="alert"]')].some((alert) =>
        alert.textContent ===
          "Ada: You may not give this role or change this account."
      ),
      "the refusal is shown",
    )
  );
  assert.ok(row(view, ada).querySelector("[data-gh-locked]"));
  view.unmount();
});
