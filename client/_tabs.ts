// The other tabs of this origin (DESIGN.md §8 "Cross-tab"): a sign-in, a
// sign-out or a session found gone in one tab is posted on a
// BroadcastChannel, and every other tab's gate updates at once. Each
// message carries this tab's own id, so a tab ignores its own (the channel
// objects are short-lived, and the channel only spares the sending object);
// and what a tab does on hearing one is never posted again, so two tabs
// cannot echo each other.

/** The channel's name; one per origin. */
export const TAB_CHANNEL = "gatehouse-session";

/** What one tab tells the others. */
export type TabMessage =
  | { readonly type: "signed-in"; readonly userId: string }
  | { readonly type: "signed-out" }
  | { readonly type: "session-ended" };

const TYPES: ReadonlySet<string> = new Set([
  "signed-in",
  "signed-out",
  "session-ended",
]);

// This tab (this copy of the module in this page). Not a secret, and
// crypto.randomUUID() needs a secure context, which a page may not be.
const TAB = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

function channel(): BroadcastChannel | null {
  return typeof BroadcastChannel === "undefined"
    ? null
    : new BroadcastChannel(TAB_CHANNEL);
}

/** Tells the other tabs. Without BroadcastChannel, nothing happens. */
export function tellOtherTabs(message: TabMessage): void {
  const out = channel();
  if (out === null) return;
  try {
    out.postMessage({ ...message, tab: TAB });
  } finally {
    out.close();
  }
}

/**
 * Hands each message of another tab to `onMessage` (never this tab's own,
 * never a malformed one). Returns the stop. Without BroadcastChannel,
 * nothing is ever heard.
 */
export function listenToOtherTabs(
  onMessage: (message: TabMessage) => void,
): () => void {
  const input = channel();
  if (input === null) return () => {};
  input.onmessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; tab?: unknown } | null;
    if (typeof data?.type !== "string" || !TYPES.has(data.type)) return;
    if (data.tab === TAB) return;
    onMessage(data as TabMessage);
  };
  return () => input.close();
}
