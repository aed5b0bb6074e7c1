/**
 * The login rate limiter: failed sign-ins (and password-reset requests,
 * attempts with dead links, and WebAuthn challenges written for anyone) are
 * counted per client IP in the store, so every instance sharing the store
 * shares the counts. Past the threshold the client gets 429
 * `login_rate_limited` with `Retry-After` until its window ends.
 *
 * Each attempt is reserved in the store before the handler runs (an atomic
 * increment that refuses at the threshold) and given back when its answer
 * does not count, so the threshold holds under any burst and across
 * instances (DESIGN.md §5). The give-back is written after the answer; the
 * next request of the same client on the instance waits for it.
 *
 * A successful sign-in neither adds to the count nor resets it: a reset
 * would let someone who owns one account keep guessing the passwords of
 * others from the same address.
 *
 * @module
 */

import { answerWritten, inBackground } from "../http/_background.ts";
import { addressBucket } from "../http/_ip.ts";
import {
  prepareProxy,
  resolveClient,
  type TrustedProxy,
} from "../http/client_address.ts";
import {
  answerError,
  answeringErrors,
  type Middleware,
  retryLater,
} from "../http/respond.ts";
import { defaultLogger, type Logger } from "../http/logger.ts";
import type { Store } from "./store.ts";

/** Options of {@linkcode loginRateLimiter}. */
export interface LoginRateLimiterOptions {
  /** Where counts live; share it between instances to share the counts. */
  store: Store;
  /** Counted requests allowed per window before 429; 10 by default. */
  maxFailures?: number;
  /** Window length in ms, from the first counted request; 15 minutes by default. */
  window?: number;
  /**
   * Read the client address from a proxy header. Without it the address is
   * the connection's peer (`info.remoteAddr`) and headers are ignored.
   */
  trustedProxy?: TrustedProxy;
  /**
   * Which answers count against the client. By default 401 (a failed login)
   * and 202 (the password-reset request handler's answer to every request,
   * so each reset request counts). An answer that does not count gives its
   * reserved attempt back. Successes should never count.
   */
  counts?: (response: Response) => boolean;
  /**
   * Which errors the handler throws count against the client, besides the
   * answer `counts` judges: the limiter answers a thrown error itself (as
   * `answeringErrors` does) and asks this of the error, so a refusal that
   * is a guess (a wrong code) counts where its answer alone could not say
   * so. None by default.
   */
  countsRefusal?: (error: unknown) => boolean;
  /**
   * Prefix of the counter keys; `login` by default. Limiters with the same
   * namespace share counts: give reset requests their own to count them
   * apart from sign-ins.
   */
  namespace?: string;
  /** Where misconfiguration and store failures are logged; `console` by default. */
  logger?: Logger;
  /** The clock, in ms since the epoch; `Date.now` by default. */
  now?: () => number;
  /**
   * Told of each request the limiter refuses (429); e.g. to record a
   * `login.rate_limited` audit event. Must not throw. With
   * `reportFirstRefusalOnly` it is told after the answer, when the server
   * has closed the request: it then gets copies of the request (URL,
   * method, headers; no body) and of the connection info, taken before the
   * answer.
   */
  onRefusal?: (request: Request, info?: Deno.ServeHandlerInfo) => void;
  /**
   * Tell `onRefusal` of the first refusal of each client's window only,
   * not of every refused request, so that a flood past the threshold makes
   * no write per request (an audit event per refusal would be the very
   * growth the limiter stops). Instances sharing the store report once
   * between them: a refusal reserves a marker counter that ends with the
   * window, and only its first reservation is reported; each instance asks
   * the store once per client and window, and remembers the answer. False
   * by default.
   */
  reportFirstRefusalOnly?: boolean;
}

const DEFAULT_MAX_FAILURES = 10;
const DEFAULT_WINDOW = 15 * 60 * 1000;
// Windows an instance remembers having reported (reportFirstRefusalOnly);
// past this many the memory starts over and the store's marker decides.
const MAX_REMEMBERED_REPORTS = 1024;

const countFailures = (response: Response) =>
  response.status === 401 || response.status === 202;

/**
 * Builds the login rate limiter middleware. Mount it on the login handler,
 * on the password-reset request handler, (counting 410) on the
 * invitation-accept and reset-confirm handlers, and (counting every answer,
 * with a threshold of its own) on the passkey options handler, which writes
 * a challenge for anyone who asks.
 *
 * Before the handler runs, the request reserves one attempt in the store,
 * atomically: a client whose window already counts `maxFailures` gets 429
 * `login_rate_limited` with `Retry-After` (whole seconds until its window
 * ends) and the handler is not called. After it, an answer `counts` does
 * not accept gives its attempt back. So at most `maxFailures` counted
 * answers per window, whatever the concurrency: a burst of 1000 requests
 * from one address runs at most `maxFailures` handlers that fail, and the
 * count in the store afterwards is exact, on every store and across
 * instances sharing it.
 *
 * Requests with no known address (no `info`, e.g. a framework that does not
 * pass it) share one bucket, and a warning is logged once: pass `info` or
 * configure a trusted proxy.
 *
 * @param options The store and the limits.
 * @returns The middleware.
 *
 * @example Guarding sign-in with 5 failures per 10 minutes
 * ```ts
 * import { createAuth, loginRateLimiter } from "@gatehouse/server";
 * import { KvStore } from "@gatehouse/server/kv";
 *
 * const kv = await Deno.openKv(":memory:");
 * const store = new KvStore(kv);
 * await store.migrate();
 * const auth = createAuth({ store });
 * const limited = loginRateLimiter({ store, maxFailures: 5, window: 10 * 60 * 1000 });
 * const login = limited(auth.login);
 * kv.close();
 * ```
 */
export function loginRateLimiter(options: LoginRateLimiterOptions): Middleware {
  const {
    store,
    maxFailures = DEFAULT_MAX_FAILURES,
    window = DEFAULT_WINDOW,
    counts = countFailures,
    countsRefusal,
    namespace = "login",
  } = options;
  if (store === undefined || store === null) {
    throw new TypeError("Invalid rate limiter options: a store is required");
  }
  if (!Number.isInteger(maxFailures) || maxFailures < 1) {
    throw new RangeError(
      `Invalid rate limiter threshold: ${maxFailures} (use a positive integer)`,
    );
  }
  if (!Number.isFinite(window) || window < 1000) {
    throw new RangeError(
      `Invalid rate limiter window: ${window} (use at least 1000 ms)`,
    );
  }
  if (namespace === "") {
    throw new TypeError("Invalid rate limiter namespace: it is empty");
  }
  const proxy = options.trustedProxy === undefined
    ? undefined
    : prepareProxy(options.trustedProxy);
  const logger = options.logger ?? defaultLogger;
  const now = options.now ?? Date.now;
  let warned = false;

  const keyOf = (request: Request, info?: Deno.ServeHandlerInfo) => {
    const address = resolveClient(request, info, proxy);
    if (address === null && !warned) {
      warned = true;
      logger.warn("rate limiter sees no client address", {
        hint:
          "pass the connection info to the handler; all such requests share one count",
      });
    }
    return `${namespace}:ip:${
      address === null ? "unknown" : addressBucket(address)
    }`;
  };

  const giveBack = async (key: string, resetAt: number) => {
    try {
      await store.releaseAttempt(key, resetAt);
    } catch (err) {
      // The count stays one too high: the safe side.
      logger.error("rate limiter could not give an attempt back", {
        error: err,
      });
    }
  };

  // Attempts being given back, by key. The give-back (a store read and
  // write) starts once the answer is written, so the answer neither waits
  // for it nor shares the event loop with it; the next request of the same
  // key on this instance waits for it, so a client's requests one after
  // another see their counts exactly as if it had been awaited. Entries
  // leave once written.
  const givingBack = new Map<string, Set<Promise<void>>>();
  const giveBackLater = (
    key: string,
    resetAt: number,
    info: Deno.ServeHandlerInfo | undefined,
  ) => {
    let set = givingBack.get(key);
    if (set === undefined) givingBack.set(key, set = new Set());
    const done: Promise<void> = answerWritten(info).then(() =>
      giveBack(key, resetAt)
    ).finally(() => {
      set.delete(done);
      if (set.size === 0 && givingBack.get(key) === set) givingBack.delete(key);
    });
    set.add(done);
    // Tracked so that `settled()` also waits for it; giveBack never throws.
    inBackground(store, done, () => {});
  };
  const givenBack = async (key: string) => {
    const set = givingBack.get(key);
    if (set !== undefined) await Promise.all([...set]);
  };

  const { onRefusal } = options;
  const firstOnly = options.reportFirstRefusalOnly === true;
  // key → end of the window this instance reported a refusal of.
  const reported = new Map<string, number>();
  const report = (
    key: string,
    resetAt: number,
    request: Request,
    info?: Deno.ServeHandlerInfo,
  ) => {
    if (onRefusal === undefined) return;
    if (!firstOnly) return onRefusal(request, info);
    if (reported.get(key) === resetAt) return;
    if (reported.size >= MAX_REMEMBERED_REPORTS) reported.clear();
    reported.set(key, resetAt);
    // The report comes after the answer, when the server has closed the
    // request: its headers and the connection's address can no longer be
    // read (Deno throws "Request closed"). So onRefusal gets copies, taken
    // now.
    const seen = detached(request, info);
    // One marker per window, across instances: only its first reservation
    // is admitted, and it ends when the window does.
    const at = now();
    inBackground(
      store,
      store.reserveAttempt(`${key}:refused`, {
        now: at,
        windowMs: Math.max(1, resetAt - at),
        limit: 1,
      }).then((marker) => {
        if (marker.admitted) onRefusal(seen.request, seen.info);
      }),
      (error) =>
        logger.error("rate limiter could not report a refusal", { error }),
    );
  };

  const answering = answeringErrors(logger);
  return (next) =>
    answering(async function loginRateLimited(request, params, info) {
      const key = keyOf(request, info);
      await givenBack(key);
      const reservation = await store.reserveAttempt(key, {
        now: now(),
        windowMs: window,
        limit: maxFailures,
      });
      if (!reservation.admitted) {
        report(key, reservation.resetAt, request, info);
        return retryLater(reservation.resetAt - now());
      }
      let counted = false;
      try {
        let response: Response;
        try {
          response = await next(request, params, info);
        } catch (err) {
          // Answered here, where the error is still in hand: whether it
          // counts is the error's to say, not its answer's.
          response = answerError(err, logger);
          counted = countsRefusal?.(err) === true;
        }
        counted ||= counts(response);
        return response;
      } finally {
        // An answer that does not count (or a throw) gives its attempt
        // back, after the answer.
        if (!counted) giveBackLater(key, reservation.resetAt, info);
      }
    });
}

// What onRefusal may read of a request, copied while it is open: the URL,
// method and headers (no body), and the connection's addresses.
function detached(
  request: Request,
  info: Deno.ServeHandlerInfo | undefined,
): { request: Request; info: Deno.ServeHandlerInfo | undefined } {
  let copy: Request;
  try {
    copy = new Request(request.url, {
      method: request.method,
      headers: request.headers,
    });
  } catch {
    // A method fetch forbids in a Request (TRACE, CONNECT): the copy is a GET.
    copy = new Request(request.url, { headers: request.headers });
  }
  return {
    request: copy,
    info: info === undefined
      ? undefined
      : { remoteAddr: info.remoteAddr, completed: info.completed },
  };
}
