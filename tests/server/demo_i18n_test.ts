// The demo renders every page in its own visitor's language (issue 26,
// item 4): a Spanish page never turns a later English one Spanish, and
// pages rendered at the same time in different languages stay apart. Each
// render has an @wordpress/i18n instance of its own; the process's default
// instance is never touched by a server render.

import assert from "node:assert/strict";
import { DOMAIN } from "@gatehouse/client/screens";
import { __ } from "@wordpress/i18n";
import type { Handler } from "../../mod.ts";
import { INFO, ORIGIN, withSignedInDemo } from "../fixtures/demo_in_process.ts";

type Language = "en" | "es";
const ACCEPT: Record<Language, string> = { en: "en-US", es: "es-ES,es;q=0.9" };

/** What each page shows, in English and in Spanish. */
const WORDS: Record<string, ReadonlyArray<Record<Language, string>>> = {
  "/nope": [
    {
      en: "<title>Page not found · Gatehouse",
      es: "<title>Página no encontrada · Gatehouse",
    },
    {
      en: "There is no page at this address.",
      es: "No hay ninguna página en esta dirección.",
    },
    { en: "Go to the start page", es: "Ir a la página de inicio" },
    { en: "Skip to main content", es: "Saltar al contenido principal" },
  ],
  // Signed out: the login screen of the AppGate island.
  "/": [
    { en: "<title>Account · Gatehouse", es: "<title>Cuenta · Gatehouse" },
    { en: ">Sign in<", es: ">Iniciar sesión<" },
    { en: "Skip to main content", es: "Saltar al contenido principal" },
  ],
  "/forgot": [
    {
      en: "<title>Forgot your password · Gatehouse",
      es: "<title>¿Olvidaste tu contraseña? · Gatehouse",
    },
  ],
  // Signed in: the frame and the account panel of the AppGate island.
  "/ (signed in)": [
    { en: "<title>Account · Gatehouse", es: "<title>Cuenta · Gatehouse" },
    {
      en: 'aria-label="Main navigation"',
      es: 'aria-label="Navegación principal"',
    },
    { en: ">Administrator<", es: ">Administrador<" },
    { en: ">Users<", es: ">Usuarios<" },
  ],
  "/users (signed in)": [
    { en: "<title>Users · Gatehouse", es: "<title>Usuarios · Gatehouse" },
    { en: ">Invite someone<", es: ">Invitar a alguien<" },
    { en: ">Audit log<", es: ">Registro de auditoría<" },
  ],
};

async function page(
  app: Handler,
  cookie: string,
  which: string,
  language: Language,
): Promise<string> {
  const signedIn = which.endsWith(" (signed in)");
  const path = which.replace(" (signed in)", "");
  const res = await app(
    new Request(`${ORIGIN}${path}`, {
      headers: {
        "accept-language": ACCEPT[language],
        ...(signedIn ? { cookie } : {}),
      },
    }),
    undefined,
    INFO,
  );
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  return await res.text();
}

function assertLanguage(html: string, which: string, language: Language) {
  const other: Language = language === "en" ? "es" : "en";
  assert.match(
    html,
    new RegExp(`<html lang="${language === "en" ? "en" : "es-ES"}"`),
    `${which} in ${language}`,
  );
  for (const words of WORDS[which]!) {
    assert.ok(
      html.includes(words[language]),
      `${which} in ${language} shows "${words[language]}"`,
    );
    assert.ok(
      !html.includes(words[other]),
      `${which} in ${language} does not show "${words[other]}"`,
    );
  }
}

Deno.test("demo: a page in Spanish, then the same page in English, each in its own language", async () => {
  await withSignedInDemo({}, async (app, cookie) => {
    for (const which of Object.keys(WORDS)) {
      for (const language of ["es", "en", "es", "en"] as const) {
        assertLanguage(
          await page(app, cookie, which, language),
          which,
          language,
        );
      }
    }
    // The process's default instance (a browser's) was never switched.
    assert.equal(__("Sign in", DOMAIN), "Sign in");
  });
});

Deno.test("demo: pages rendered concurrently in English and Spanish do not mix", async () => {
  await withSignedInDemo({}, async (app, cookie) => {
    const renders = Array.from({ length: 60 }, (_, i) => {
      const which = Object.keys(WORDS)[i % Object.keys(WORDS).length]!;
      const language: Language = i % 2 === 0 ? "es" : "en";
      return { which, language };
    });
    const pages = await Promise.all(
      renders.map(({ which, language }) => page(app, cookie, which, language)),
    );
    renders.forEach(({ which, language }, i) =>
      assertLanguage(pages[i]!, which, language)
    );
  });
});
