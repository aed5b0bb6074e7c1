// Re-rendering on a change of language: every screen calls
// useLocaleUpdates() once, so a catalogue loaded after mount shows at once.

import { subscribe } from "@wordpress/i18n";
import { useEffect, useState } from "preact/hooks";

/** Re-renders the calling component whenever `@wordpress/i18n`'s locale data changes. */
export function useLocaleUpdates(): void {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const unsubscribe = subscribe(() => setVersion((version) => version + 1));
    return () => void unsubscribe();
  }, []);
}
