// The screens' language, without their catalogues: the text domain, the
// instance a string is translated by (a server render's own, else the
// default one) and the translation functions. The screens (through
// screens/i18n.ts, which re-exports them) and the gate's default states
// translate here, so the main entry never carries a catalogue.

import { defaultI18n } from "@wordpress/i18n";
import { useLayoutEffect, useState } from "preact/hooks";
import type { I18n } from "./_peer_types.ts";

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

// The instance of the render in progress, if any. A render to a string is
// synchronous, so no other render can run while this one is set: two
// visitors' pages, rendered concurrently in different languages, each see
// their own (an asynchronous render would let another start in between,
// which is why withScreensI18n refuses one).
let rendering: I18n | undefined;

/**
 * The `@wordpress/i18n` instance the screens translate with now: the one
 * {@linkcode withScreensI18n} gave the render in progress, or else the
 * library's default instance (a browser's, which
 * {@linkcode setScreensLocale} loads).
 *
 * @returns The instance.
 *
 * @example Inside and outside a render
 * ```ts
 * import { screensI18n, withScreensI18n } from "@gatehouse/client/screens";
 * import { createI18n, defaultI18n } from "@wordpress/i18n";
 *
 * const own = createI18n();
 * console.assert(withScreensI18n(own, () => screensI18n()) === own);
 * console.assert(screensI18n() === defaultI18n);
 * ```
 */
export function screensI18n(): I18n {
  return rendering ?? defaultI18n;
}

/**
 * Runs a synchronous render (`renderToString`) with its own
 * `@wordpress/i18n` instance: every string the screens (and your code,
 * through {@linkcode screensI18n}) translate during it comes from `i18n`,
 * whatever other renders of the process use. This is how a server
 * renders each request in its visitor's language. A render that returns a
 * promise is refused: other renders could run while it waits.
 *
 * @param i18n The render's instance, e.g. `createI18n()` loaded with {@linkcode setScreensLocale}.
 * @param render The render; called at once.
 * @returns What `render` returns.
 *
 * @example One render with its own instance, whatever the process's default
 * ```ts
 * import { screensI18n, setScreensLocale, withScreensI18n } from "@gatehouse/client/screens";
 * import { createI18n } from "@wordpress/i18n";
 *
 * const i18n = createI18n();
 * await setScreensLocale("es-ES", {}, i18n);
 * // A server: withScreensI18n(i18n, () => renderToString(<Page />)).
 * const inside = withScreensI18n(i18n, () => screensI18n());
 * console.assert(inside === i18n && screensI18n() !== i18n);
 * ```
 */
export function withScreensI18n<T>(i18n: I18n, render: () => T): T {
  const outer = rendering;
  rendering = i18n;
  try {
    const result = render();
    if (result instanceof Promise) {
      result.catch(() => {});
      throw new TypeError(
        "withScreensI18n() takes a synchronous render (renderToString)",
      );
    }
    return result;
  } finally {
    rendering = outer;
  }
}

// The screens' translation functions: each asks screensI18n() at call time,
// so a string is translated by the render in progress (or the browser's
// default instance), never by whichever instance was current at import.
function follow<K extends "__" | "_x" | "_n">(name: K): I18n[K] {
  const call = (...args: unknown[]) =>
    (screensI18n()[name] as (...args: unknown[]) => string)(...args);
  return call as I18n[K];
}

/** `@wordpress/i18n`'s `__`, translated by {@linkcode screensI18n}. */
export const __: I18n["__"] = follow("__");

/** `@wordpress/i18n`'s `_x`, translated by {@linkcode screensI18n}. */
export const _x: I18n["_x"] = follow("_x");

/** `@wordpress/i18n`'s `_n`, translated by {@linkcode screensI18n}. */
export const _n: I18n["_n"] = follow("_n");

/** Re-renders the calling component whenever the screens' locale data changes. */
export function useLocaleUpdates(): void {
  const [, setVersion] = useState(0);
  // A layout effect: it subscribes as the component is committed, so a
  // language loaded before the next frame (when a plain effect would run)
  // is not missed. Effects run in a browser only, where the screens'
  // instance is the default one that setScreensLocale loads.
  useLayoutEffect(() => {
    const unsubscribe = screensI18n().subscribe(() =>
      setVersion((version) => version + 1)
    );
    return () => void unsubscribe();
  }, []);
}
