// Writes Gatehouse makes after an answer (refusal events, last-seen
// touches), tracked per store so that `Gatehouse.settled()` (tests, a
// graceful shutdown) can wait for them. A failure is reported to `onError`
// and never reaches a request.

const pending = new WeakMap<object, Set<Promise<unknown>>>();

/** Runs `work` off the critical path, tracked under `owner`. */
export function inBackground(
  owner: object,
  work: Promise<unknown>,
  onError: (error: unknown) => void,
): void {
  let set = pending.get(owner);
  if (set === undefined) pending.set(owner, set = new Set());
  const tracked = work.catch(onError).finally(() => set.delete(tracked));
  set.add(tracked);
}

/** Resolves once every write started under `owner` so far has landed. */
export async function settled(owner: object): Promise<void> {
  const set = pending.get(owner);
  while (set !== undefined && set.size > 0) {
    await Promise.allSettled([...set]);
  }
}
