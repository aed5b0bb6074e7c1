// Re-rendering on a change of language: every screen calls
// useLocaleUpdates() once, so a catalogue loaded after mount shows at once.
// It lives beside the gate, whose default states use it too.

export { useLocaleUpdates } from "../_i18n.ts";
