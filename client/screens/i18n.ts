/**
 * Translation of the screens: every string goes through `@wordpress/i18n`
 * under the text domain {@linkcode DOMAIN}. In a browser that is the
 * library's default instance, the one your app shares (keep one copy of the
 * library: see the README). {@linkcode catalogFor} finds a shipped
 * catalogue for a locale; {@linkcode setScreensLocale} loads it (or goes
 * back to English), and the mounted screens re-render in the new language.
 *
 * A server renders many visitors' pages in one process, each in its own
 * language: it gives each render an instance of its own
 * (`createI18n()`, loaded with {@linkcode setScreensLocale}) through
 * {@linkcode withScreensI18n}. The screens translate with this module's
 * functions, which follow {@linkcode screensI18n} (the render's instance,
 * else the default one), so no render ever sees another's language.
 *
 * @module
 */

import { defaultI18n, sprintf as formatText } from "@wordpress/i18n";
import { isolatedText } from "@gatehouse/contract/bidi";
import type { I18n } from "../_peer_types.ts";
import { DOMAIN } from "../_i18n.ts";
import type { Catalog, CatalogHeader } from "./catalogs/catalog.ts";
import { es } from "./catalogs/es.ts";

export type { Catalog, CatalogHeader };
// The translation functions and the render's instance live beside the gate,
// whose default states speak the screens' language without their catalogues.
export { __, _n, _x, DOMAIN, screensI18n, withScreensI18n } from "../_i18n.ts";

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
 * {@linkcode DOMAIN} into an `@wordpress/i18n` instance (the default one
 * unless you pass another, such as a server render's own), replacing the
 * screens' previous language, or goes back to English when none ships.
 * Strings of other text domains (your app's) are left alone. Mounted screens
 * re-render in the new language. Role names are your app's: give their
 * display names in this language as `roleLabels` (or put them in a
 * catalogue of your own under {@linkcode DOMAIN} with the context `role`).
 *
 * @param locale A BCP 47 tag such as `es-ES`; `en` for English.
 * @param options The display names of your roles in this language.
 * @param i18n The instance to load; `@wordpress/i18n`'s default one by default.
 * @returns True when a catalogue was loaded, false when the screens are now in English.
 *
 * @example Spanish, then English again, with the roles' names
 * ```ts
 * import { setScreensLocale } from "@gatehouse/client/screens";
 *
 * console.assert(await setScreensLocale("es-ES", { roleLabels: { admin: "Administrador" } }));
 * console.assert(!(await setScreensLocale("en", { roleLabels: { admin: "Administrator" } })));
 * ```
 *
 * @example An instance of its own, for one server render
 * ```ts
 * import { DOMAIN, setScreensLocale } from "@gatehouse/client/screens";
 * import { createI18n } from "@wordpress/i18n";
 *
 * const i18n = createI18n();
 * console.assert(await setScreensLocale("es", {}, i18n));
 * const header = i18n.getLocaleData(DOMAIN)[""] as { lang?: string };
 * console.assert(header.lang === "es");
 * ```
 */
export async function setScreensLocale(
  locale: string,
  options: ScreensLocaleOptions = {},
  i18n: I18n = defaultI18n,
): Promise<boolean> {
  const catalog = await catalogFor(locale);
  // setLocaleData merges: blank every string the previous catalogue had, so
  // none of its words survive a change of language.
  const data: Catalog = {};
  for (const key of Object.keys(i18n.getLocaleData(DOMAIN) ?? {})) {
    data[key] = [];
  }
  Object.assign(data, catalog ?? {});
  for (const [role, label] of Object.entries(options.roleLabels ?? {})) {
    data[`${ROLE_CONTEXT}\u0004${role}`] = [label];
  }
  data[""] = { ...(catalog?.[""] ?? { lang: "en" }), domain: DOMAIN };
  i18n.setLocaleData(data, DOMAIN);
  return catalog !== undefined;
}

/**
 * `@wordpress/i18n`'s `sprintf` (it holds no language), beside the others;
 * a text argument holding right-to-left text or bidirectional controls is
 * isolated, so it cannot reorder the sentence it is put in.
 */
export const sprintf: typeof formatText = ((
  format: string,
  ...args: unknown[]
) =>
  (formatText as (format: string, ...args: unknown[]) => string)(
    format,
    ...args.map((arg) => typeof arg === "string" ? isolatedText(arg) : arg),
  )) as typeof formatText;
