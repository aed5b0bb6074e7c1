/**
 * Translation of the screens: every string goes through `@wordpress/i18n`
 * under the text domain {@linkcode DOMAIN}, in the library's default
 * instance, the one your app shares (keep one copy of the library: see the
 * README). {@linkcode catalogFor} finds a shipped catalogue for a locale;
 * {@linkcode setScreensLocale} loads it (or goes back to English), and the
 * mounted screens re-render in the new language.
 *
 * @module
 */

import { getLocaleData, setLocaleData } from "@wordpress/i18n";
import { es } from "./catalogs/es.ts";

/**
 * The text domain of every string of the screens. Load a catalogue under it
 * with `setLocaleData(catalog, DOMAIN)` of `@wordpress/i18n` (or simply call
 * {@linkcode setScreensLocale}); filters such as `i18n.gettext_gatehouse`
 * can override single strings.
 *
 * @example Loading the Spanish catalogue by hand
 * ```ts
 * import { catalogFor, DOMAIN } from "@gatehouse/client/screens";
 * import { setLocaleData } from "@wordpress/i18n";
 *
 * const catalog = await catalogFor("es");
 * if (catalog) setLocaleData(catalog, DOMAIN);
 * ```
 */
export const DOMAIN = "gatehouse";

/**
 * The header of a catalogue (the entry under the empty key), as
 * `@wordpress/i18n` reads it.
 *
 * @example The Spanish header
 * ```ts
 * import type { CatalogHeader } from "@gatehouse/client/screens";
 *
 * const header: CatalogHeader = { domain: "gatehouse", lang: "es", plural_forms: "nplurals=2; plural=n != 1;" };
 * ```
 */
export type CatalogHeader = {
  /** The text domain. */
  domain?: string;
  /** The language, e.g. `es`. */
  lang?: string;
  /** The gettext plural rule, e.g. `nplurals=2; plural=n != 1;`. */
  plural_forms?: string;
};

/**
 * A catalogue in the Jed locale-data format `@wordpress/i18n` takes: the
 * header under `""`, then each English string (prefixed by its context and
 * `\u0004` when it has one) mapped to its translations, one per plural form.
 *
 * @example A two-string catalogue
 * ```ts
 * import type { Catalog } from "@gatehouse/client/screens";
 *
 * const catalog: Catalog = {
 *   "": { domain: "gatehouse", lang: "es" },
 *   "Sign in": ["Iniciar sesión"],
 *   "Try again in %d minute.": ["Vuelve a intentarlo en %d minuto.", "Vuelve a intentarlo en %d minutos."],
 * };
 * ```
 */
export type Catalog = Record<string, CatalogHeader | string[]>;

const SHIPPED: Readonly<Record<string, Catalog>> = { es };

/** The gettext context of role names in the catalogue (`role\u0004admin`). */
export const ROLE_CONTEXT = "role";

/**
 * Options of {@linkcode setScreensLocale}.
 *
 * @example Display names of the app's roles, in Spanish
 * ```ts
 * import type { ScreensLocaleOptions } from "@gatehouse/client/screens";
 *
 * const options: ScreensLocaleOptions = {
 *   roleLabels: { admin: "Administrador", member: "Miembro" },
 * };
 * ```
 */
export interface ScreensLocaleOptions {
  /**
   * How each of your roles shows in this language, by role name (the
   * screens show the name itself otherwise). "No role" is the screens' own.
   */
  readonly roleLabels?: Readonly<Record<string, string>>;
}

/** The language part of a BCP 47 tag or POSIX locale: `es-MX`, `es_MX.UTF-8` → `es`. */
function languageOf(locale: string): string {
  return locale.trim().toLowerCase().split(/[-_.@]/)[0] ?? "";
}

/**
 * The shipped catalogue for a locale: Spanish for `es` and every regional
 * variant (`es-ES`, `es-MX`, `es_AR`...), undefined for a language without
 * one (the screens then stay in English).
 *
 * @param locale A BCP 47 tag such as `es-MX` (or a POSIX locale).
 * @returns The catalogue, or undefined.
 *
 * @example Following the browser's language
 * ```ts
 * import { catalogFor, DOMAIN } from "@gatehouse/client/screens";
 * import { setLocaleData } from "@wordpress/i18n";
 *
 * const catalog = await catalogFor("es-MX");
 * console.assert(catalog !== undefined);
 * console.assert((await catalogFor("fr")) === undefined);
 * if (catalog) setLocaleData(catalog, DOMAIN);
 * ```
 */
export function catalogFor(locale: string): Promise<Catalog | undefined> {
  return Promise.resolve(SHIPPED[languageOf(locale)]);
}

/**
 * Switches the screens to a locale: loads its shipped catalogue under
 * {@linkcode DOMAIN} into `@wordpress/i18n`'s default instance, replacing
 * the screens' previous language, or goes back to English when none ships.
 * Strings of other text domains (your app's) are left alone. Mounted screens
 * re-render in the new language. Role names are your app's: give their
 * display names in this language as `roleLabels` (or put them in a
 * catalogue of your own under {@linkcode DOMAIN} with the context `role`).
 *
 * @param locale A BCP 47 tag such as `es-ES`; `en` for English.
 * @param options The display names of your roles in this language.
 * @returns True when a catalogue was loaded, false when the screens are now in English.
 *
 * @example Spanish, then English again, with the roles' names
 * ```ts
 * import { setScreensLocale } from "@gatehouse/client/screens";
 *
 * console.assert(await setScreensLocale("es-ES", { roleLabels: { admin: "Administrador" } }));
 * console.assert(!(await setScreensLocale("en", { roleLabels: { admin: "Administrator" } })));
 * ```
 */
export async function setScreensLocale(
  locale: string,
  options: ScreensLocaleOptions = {},
): Promise<boolean> {
  const catalog = await catalogFor(locale);
  // setLocaleData merges: blank every string the previous catalogue had, so
  // none of its words survive a change of language.
  const data: Catalog = {};
  for (const key of Object.keys(getLocaleData(DOMAIN) ?? {})) data[key] = [];
  Object.assign(data, catalog ?? {});
  for (const [role, label] of Object.entries(options.roleLabels ?? {})) {
    data[`${ROLE_CONTEXT}\u0004${role}`] = [label];
  }
  data[""] = { ...(catalog?.[""] ?? { lang: "en" }), domain: DOMAIN };
  setLocaleData(data, DOMAIN);
  return catalog !== undefined;
}
