// The calls that change how many recovery codes are left (enrolment,
// regeneration, removal, a sign-in or a re-authentication with a recovery
// code) say so here once they succeed, whatever the transport; each
// `useRecoveryCodeCount` listening invalidates its query in its own query
// client. So the count refreshes after an app's own calls too, without the
// app knowing a cache key.

type Listener = () => void;

const listeners = new Set<Listener>();

/** Tells every listener that the count may have changed. */
export function recoveryCodesChanged(): void {
  for (const listener of [...listeners]) listener();
}

/** Listens for changes of the count; returns the stop. */
export function onRecoveryCodesChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Passes `result` on, telling the listeners first. */
export async function changingRecoveryCodes<T>(result: Promise<T>): Promise<T> {
  const value = await result;
  recoveryCodesChanged();
  return value;
}
