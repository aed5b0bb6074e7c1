// Re-rendering on a change of language: every screen calls
// useLocaleUpdates() once, so a catalogue loaded after mount shows at once.

import { useEffect, useState } from "preact/hooks";
import { screensI18n } from "./i18n.ts";

/** Re-renders the calling component whenever the screens' locale data changes. */
export function useLocaleUpdates(): void {
  const [, setVersion] = useState(0);
  useEffect(() => {
    // Effects run in a browser only, where the screens' instance is the
    // default one that setScreensLocale loads.
    const unsubscribe = screensI18n().subscribe(() =>
      setVersion((version) => version + 1)
    );
    return () => void unsubscribe();
  }, []);
}
