// Whether the session ended under the person's feet (a call answered 401,
// e.g. after signing out in another tab), so the login screen can say so
// instead of appearing silently; and the same ending for the calls a
// screen makes itself, outside the query client's caches. The query client
// keeps the mark (_session_cache.ts); signing in or out clears it. The
// login screen works without a query client, and then simply has no mark
// to read and no session to end.

import { QueryClientContext } from "@tanstack/preact-query";
import { useCallback, useContext } from "preact/hooks";
import {
  endSessionIfRevoked,
  sessionEndedKey,
  signInCount,
} from "../_session_cache.ts";

/** True when the session of this page ended on the server. */
export function useSessionEnded(): boolean {
  const client = useContext(QueryClientContext);
  return client?.getQueryData(sessionEndedKey) === true;
}

/**
 * The failure handler of a screen's own calls: a failure that says the
 * session is gone ends it, as the query client does for its queries and
 * mutations, so the gate shows the login screen ("Your session has
 * ended"), and the other tabs follow. Returns whether it did; without a
 * query client there is no session to end, and it never does. `sentUnder`
 * is what `useSignInCount` answered as the failed call went out: one sent
 * before a sign-in this tab has taken since ends nothing (and is handled:
 * true).
 */
export function useEndSessionIfRevoked(): (
  error: unknown,
  sentUnder?: number,
) => boolean {
  const client = useContext(QueryClientContext);
  return useCallback(
    (error: unknown, sentUnder?: number) =>
      client !== undefined && endSessionIfRevoked(client, error, sentUnder),
    [client],
  );
}

/**
 * How many sign-ins this tab has taken, read as a screen's call goes out
 * (undefined without a query client): given back with its failure to
 * `useEndSessionIfRevoked`'s handler.
 */
export function useSignInCount(): () => number | undefined {
  const client = useContext(QueryClientContext);
  return useCallback(
    () => client === undefined ? undefined : signInCount(client),
    [client],
  );
}
