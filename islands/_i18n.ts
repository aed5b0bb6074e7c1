// The demo's own few words (its navigation and links), under a text domain
// of its own beside the screens' `gatehouse` domain, with their Spanish.

import { setLocaleData } from "@wordpress/i18n";

/** The demo's text domain. */
export const DEMO = "gatehouse-demo";

/** The demo's Spanish strings, in the Jed format @wordpress/i18n reads. */
export const DEMO_ES: Record<string, string[] | Record<string, string>> = {
  "": { domain: DEMO, lang: "es", plural_forms: "nplurals=2; plural=n != 1;" },
  "Account": ["Cuenta"],
  "Back to sign in": ["Volver a iniciar sesión"],
  "Invite someone": ["Invitar a alguien"],
  "Loading…": ["Cargando…"],
  "Main navigation": ["Navegación principal"],
  "New user": ["Nuevo usuario"],
};

/** Loads the demo's Spanish strings (or, for English, none). */
export function setDemoLocale(spanish: boolean): void {
  setLocaleData(spanish ? DEMO_ES : { "": { domain: DEMO } }, DEMO);
}
