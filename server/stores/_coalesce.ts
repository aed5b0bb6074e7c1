// Coalesced reads for the hot path. Every guarded request reads its
// session; under load many such reads wait at once, and each costs a round
// trip whose fixed part (a statement to parse, bind and execute, a socket
// write, a KV operation) dwarfs the work of the read itself. A coalescing
// reader keeps at most `maxInFlight` reads going; a read asked for while
// they are all busy waits, and the next read to go carries every waiting
// request it can (one query for many sessions).
//
// Nothing is cached: every answer comes from a read that started after it
// was asked for, so a session ended or an account disabled before a
// request arrived is refused for that request, whichever instance ended it.
// Alone, a read goes at once: coalescing adds no wait when there is no load.
// With `sameTurn`, it goes at the end of the turn instead (a microtask, no
// timer), so the reads a request starts together (on KV: the account, the
// account lock's counters, the session's early reads) share one.

/**
 * Session reads a store keeps in flight by default. Two keep the database
 * busy while one read's answer travels back, and let each read carry every
 * check that arrived meanwhile (bench: on two cores, two read at about
 * twice the rate of ten unbatched queries).
 */
export const DEFAULT_SESSION_READS_IN_FLIGHT = 2;

/** How a store reads many keys at once. */
export interface CoalescingOptions<Q, A> {
  /** Reads the answers of `queries`, in the same order. */
  readMany(queries: readonly Q[]): Promise<readonly A[]>;
  /**
   * How many of the waiting queries (at least one) the next read takes, so
   * a store can stay within its own limits (e.g. KV's ten keys a read).
   */
  take(waiting: readonly Q[]): number;
  /** Reads in flight at most. */
  maxInFlight: number;
  /**
   * Whether a read begun with a slot free waits for the end of the turn
   * (a microtask), so that every query asked in the same turn joins it;
   * false by default: it goes at once.
   */
  sameTurn?: boolean;
}

interface Waiter<Q, A> {
  query: Q;
  resolve(answer: A): void;
  reject(error: unknown): void;
}

/**
 * A function that answers one query at a time to its callers, and reads
 * many at once underneath when callers wait.
 */
export function coalescing<Q, A>(
  options: CoalescingOptions<Q, A>,
): (query: Q) => Promise<A> {
  const { readMany, take, maxInFlight, sameTurn = false } = options;
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1) {
    throw new RangeError(
      `Invalid maxInFlight: ${maxInFlight} (use a whole number of at least 1)`,
    );
  }
  let waiting: Waiter<Q, A>[] = [];
  let inFlight = 0;
  // Whether a flush at the end of this turn is queued (`sameTurn`).
  let queued = false;

  // Sends what waits while slots are free: the end of a `sameTurn` turn.
  function flush(): void {
    queued = false;
    while (waiting.length > 0 && inFlight < maxInFlight) send();
  }

  async function send(): Promise<void> {
    const count = Math.max(1, take(waiting.map((w) => w.query)));
    const batch = waiting.length <= count ? waiting : waiting.slice(0, count);
    waiting = waiting.length <= count ? [] : waiting.slice(count);
    inFlight++;
    try {
      const answers = await readMany(batch.map((w) => w.query));
      if (answers.length !== batch.length) {
        throw new Error(
          `Coalesced read answered ${answers.length} of ${batch.length} queries`,
        );
      }
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(answers[i]!);
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      inFlight--;
      if (waiting.length > 0) send();
    }
  }

  return (query) =>
    new Promise<A>((resolve, reject) => {
      waiting.push({ query, resolve, reject });
      if (inFlight >= maxInFlight || queued) return;
      if (!sameTurn) send();
      else {
        queued = true;
        queueMicrotask(flush);
      }
    });
}

/**
 * A function that answers one query at a time to its callers, and reads
 * together every query asked for in the same turn of the event loop (up
 * to `maxBatch` a read): several reads started at once (`Promise.all`)
 * cost one round trip's fixed part, not one each. Unlike
 * {@linkcode coalescing}, the first query waits for the end of the turn (a
 * microtask, no timer), so this suits reads that come in groups, such as
 * the account lock's counters.
 */
export function batching<Q, A>(
  readMany: (queries: readonly Q[]) => Promise<readonly A[]>,
  maxBatch: number,
): (query: Q) => Promise<A> {
  let waiting: Waiter<Q, A>[] = [];

  async function send(batch: Waiter<Q, A>[]): Promise<void> {
    try {
      const answers = await readMany(batch.map((w) => w.query));
      for (let i = 0; i < batch.length; i++) batch[i]!.resolve(answers[i]!);
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }

  function flush(): void {
    const all = waiting;
    waiting = [];
    for (let i = 0; i < all.length; i += maxBatch) {
      send(all.slice(i, i + maxBatch));
    }
  }

  return (query) =>
    new Promise<A>((resolve, reject) => {
      if (waiting.length === 0) queueMicrotask(flush);
      waiting.push({ query, resolve, reject });
    });
}
