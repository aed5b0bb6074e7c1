// Hands a failure to the caller's `onFailure` without letting a throwing
// callback break `fetchSession`'s "never throws" rule: the callback's own
// error is reported (as an uncaught error would be) instead of thrown.

/** Calls `onFailure(error)`; a throwing callback is reported, not rethrown. */
export function reportFailure(
  onFailure: ((error: unknown) => void) | undefined,
  error: unknown,
): void {
  try {
    onFailure?.(error);
  } catch (callbackError) {
    globalThis.reportError?.(callbackError);
  }
}
