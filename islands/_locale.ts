// The browser's language picks the catalogue: the first of the browser's
// languages that is English or has a shipped catalogue wins, and the
// screens and the demo's own words switch to it before anything renders.

import { catalogFor, setScreensLocale } from "@gatehouse/client/screens";
import { setDemoLocale } from "./_i18n.ts";

/**
 * Switches the screens and the demo to the first supported language.
 *
 * @param languages The browser's languages, preferred first (`navigator.languages`).
 * @returns The language chosen, e.g. `es-ES`, or `en`.
 */
export async function applyLocale(
  languages: readonly string[],
): Promise<string> {
  let chosen = "en";
  for (const language of languages) {
    if (/^en(?:[-_]|$)/i.test(language)) break;
    if (await catalogFor(language)) {
      chosen = language;
      break;
    }
  }
  const translated = await setScreensLocale(chosen);
  setDemoLocale(translated);
  document.documentElement.lang = chosen;
  return chosen;
}
