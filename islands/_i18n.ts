// The demo's own words (its frame, titles, links and the 404 page) under a
// text domain of its own beside the screens' `gatehouse` domain, with their
// Spanish, and the display names of the demo's roles in each language.

import { screensI18n, setScreensLocale } from "@gatehouse/client/screens";
import { createI18n, defaultI18n, type I18n } from "@wordpress/i18n";

/** The demo's text domain. */
export const DEMO = "gatehouse-demo";

/**
 * Translates the demo's `text` (of `domain`, the demo's by default) with the
 * instance the screens use now: the page render's own on the server, the
 * default one in the browser.
 *
 * @param text The English text.
 * @param domain The text domain.
 * @returns The translation, or `text`.
 */
export function __(text: string, domain: string = DEMO): string {
  return screensI18n().__(text, domain);
}

/** The demo's Spanish strings, in the Jed format @wordpress/i18n reads. */
export const DEMO_ES: Record<string, string[] | Record<string, string>> = {
  "": { domain: DEMO, lang: "es", plural_forms: "nplurals=2; plural=n != 1;" },
  "Account": ["Cuenta"],
  "Audit log": ["Registro de auditoría"],
  "Invite someone": ["Invitar a alguien"],
  "Loading…": ["Cargando…"],
  "Main navigation": ["Navegación principal"],
  "New user": ["Nuevo usuario"],
  "Skip to main content": ["Saltar al contenido principal"],
  "The Gatehouse demo needs JavaScript to sign in and to change anything.": [
    "La demo de Gatehouse necesita JavaScript para iniciar sesión y para cambiar cualquier cosa.",
  ],
  "Users": ["Usuarios"],
  "Set your password": ["Elige tu contraseña"],
  "Reset your password": ["Restablece tu contraseña"],
  "Forgot your password": ["¿Olvidaste tu contraseña?"],
  "Invite": ["Invitar"],
  "Page not found": ["Página no encontrada"],
  "There is no page at this address.": [
    "No hay ninguna página en esta dirección.",
  ],
  "Go to the start page": ["Ir a la página de inicio"],
};

/** How the demo's roles show, per language (the screens show role names through these). */
export const ROLE_LABELS: Readonly<
  Record<"en" | "es", Record<string, string>>
> = {
  en: { admin: "Administrator", member: "Member" },
  es: { admin: "Administrador", member: "Miembro" },
};

/**
 * Loads a language into an `@wordpress/i18n` instance: the screens' words
 * (with the roles' names) and the demo's own; English when none ships.
 * Either domain's earlier words are blanked first (setLocaleData merges),
 * so nothing of a previous language survives in the instance.
 *
 * @param language A tag such as `es-ES`, or `en`.
 * @param i18n The instance; the default one (the browser's) by default.
 * @returns True when the language is translated.
 */
export async function setDemoLocale(
  language: string,
  i18n: I18n = defaultI18n,
): Promise<boolean> {
  const spanish = /^es(?:-|$)/i.test(language);
  const translated = await setScreensLocale(language, {
    roleLabels: ROLE_LABELS[spanish ? "es" : "en"],
  }, i18n);
  const data: Record<string, string[] | Record<string, string>> = {};
  for (const key of Object.keys(i18n.getLocaleData(DEMO) ?? {})) {
    data[key] = [];
  }
  Object.assign(data, translated ? DEMO_ES : {});
  data[""] = translated ? DEMO_ES[""]! : { domain: DEMO, lang: "en" };
  i18n.setLocaleData(data, DEMO);
  return translated;
}

/**
 * A new `@wordpress/i18n` instance in a language, for one server render
 * (`withScreensI18n`): each page gets its own, so one visitor's language
 * never reaches another's page.
 *
 * @param language A tag such as `es-ES`, or `en`.
 * @returns The instance.
 */
export async function demoI18n(language: string): Promise<I18n> {
  const i18n = createI18n();
  await setDemoLocale(language, i18n);
  return i18n;
}
