/**
 * The shape of a catalogue of the screens' strings (the Jed locale data of
 * @wordpress/i18n), apart from the shipped catalogues and the code that
 * loads them, so that each can name it without importing the other.
 *
 * @module
 */

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
