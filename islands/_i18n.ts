// The demo's own words (its frame, titles, links and the 404 page) under a
// text domain of its own beside the screens' `gatehouse` domain, with their
// Spanish, and the display names of the demo's roles in each language.

import { setScreensLocale } from "@gatehouse/client/screens";
import { setLocaleData } from "@wordpress/i18n";

/** The demo's text domain. */
export const DEMO = "gatehouse-demo";

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
 * Switches the screens (with the roles' names) and the demo's own words to
 * a language; English when none ships.
 *
 * @param language A tag such as `es-ES`, or `en`.
 * @returns True when the language is translated.
 */
export async function setDemoLocale(language: string): Promise<boolean> {
  const spanish = /^es(?:-|$)/i.test(language);
  const translated = await setScreensLocale(language, {
    roleLabels: ROLE_LABELS[spanish ? "es" : "en"],
  });
  setLocaleData(translated ? DEMO_ES : { "": { domain: DEMO } }, DEMO);
  return translated;
}
