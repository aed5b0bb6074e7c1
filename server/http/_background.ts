// Work Gatehouse does after an answer (refusal events, last-seen touches,
// limiter give-backs, reset mail), tracked per store so that
// `Gatehouse.settled()` (tests, a graceful shutdown) can wait for it. A
// failure is reported to `onError` and never reaches a request.
//
// Such work takes only values captured before the answer: once Deno has
// written it, the request is closed, and reading its headers or
// `info.remoteAddr` throws "Request closed".

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

/**
 * Runs `work` once the answer to the request of `info` has been written,
 * tracked under `owner` like {@linkcode inBackground}.
 *
 * Not in a microtask: Deno.serve writes the answer only once the
 * handler's promise has settled and the microtasks queued by then have run,
 * so a microtask's synchronous work (a mailer's logging, building a
 * message) is paid before the answer goes out, and only by the requests
 * that queue it (a reset request for a known address, not an unknown one).
 * Nor as soon as `info.completed` settles: Deno settles it when the answer
 * is handed to the connection, and the bytes leave at the event loop's next
 * turn (measured on Deno 2.9: work that blocks in a `completed` callback
 * holds the answer back as long as it runs, work in a timer set from there
 * does not). So: `info.completed` (which rejects when the client went away
 * first: the work runs all the same), then a macrotask. Without `info` (a
 * handler called directly, a server that passes none) the macrotask alone.
 * Only `info.completed` is read, so work scheduled from a value captured
 * earlier (a notice after a commit) passes `{completed}` alone.
 */
export function afterAnswer(
  owner: object,
  info: Pick<Deno.ServeHandlerInfo, "completed"> | undefined,
  work: () => unknown,
  onError: (error: unknown) => void,
): void {
  inBackground(owner, answerWritten(info).then(work), onError);
}

/**
 * Settles once the answer to the request of `info` has been written (see
 * {@linkcode afterAnswer}); never rejects.
 */
export function answerWritten(
  info: Pick<Deno.ServeHandlerInfo, "completed"> | undefined,
): Promise<void> {
  const completed: Promise<void> | undefined = info?.completed;
  const handedOver = completed === undefined
    ? Promise.resolve()
    : Promise.resolve(completed).catch(() => {});
  return handedOver.then(() =>
    new Promise<void>((resolve) => setTimeout(resolve, 0))
  );
}
