// The session in the query cache: its key, its query (what `AuthGate` and
// `useSession` read) and the moves on it (drop, clear the rest, follow what
// the other tabs say). Public
// functions in query.ts and hooks.ts are built from these.

import type { QueryClient } from "./_peer_types.ts";
import { fetchSession, isSessionRevoked } from "./session_calls.ts";
import { listenToOtherTabs, tellOtherTabs } from "./_tabs.ts";
import type { SessionUser } from "./types.ts";

/**
 * The cache key of the session query. Its data is the signed-in
 * `SessionUser`, or null when signed out.
 *
 * @example Reading the session from the cache
 * ```ts
 * import { createAuthQueryClient, type SessionUser, sessionQueryKey } from "@gatehouse/client";
 *
 * const client = createAuthQueryClient();
 * const user = client.getQueryData<SessionUser | null>(sessionQueryKey);
 * console.assert(user === undefined); // nothing fetched yet
 * ```
 */
export const sessionQueryKey: readonly ["gatehouse", "session"] = Object
  .freeze(["gatehouse", "session"] as const);

/**
 * Marks, in the cache, that the session ended on the server (a call found it
 * gone) rather than by signing out here; the login screen then says so.
 * Signing in or out removes the mark with every other query.
 */
export const sessionEndedKey: readonly ["gatehouse", "session-ended"] = Object
  .freeze(["gatehouse", "session-ended"] as const);

/** The session ended on the server: mark it, then drop the session. */
export function endSession(client: QueryClient): void {
  client.setQueryData(sessionEndedKey, true);
  dropSession(client);
}

// How many sign-ins each client has taken (its own, or another tab's): a
// call that went out under an earlier count went out under the session a
// later sign-in replaced. A count, not a time: a wall clock set back after
// a sign-in made a call sent under the new session look older than it, and
// its 401 (a real revocation) ended nothing.
const signIns = new WeakMap<QueryClient, number>();

/** Notes that `client` has taken a sign-in (`signInCount` moves on). */
export function noteSignIn(client: QueryClient): void {
  signIns.set(client, signInCount(client) + 1);
}

/**
 * How many sign-ins `client` has taken: what a call notes as it goes out,
 * and gives `endSessionIfRevoked` if it fails.
 */
export function signInCount(client: QueryClient): number {
  return signIns.get(client) ?? 0;
}

/**
 * What every failed call does (DESIGN.md §4: a 401 means "you are not
 * signed in"): when `error` says the session is gone (`isSessionRevoked`),
 * ends it here and, if this tab was signed in, tells the other tabs.
 * Returns whether it did. The query client's caches run it for each query
 * and mutation; the screens run it for the calls they make themselves (a
 * form's submit, the re-authentication dialog). A call sent under an
 * earlier `signInCount` (`sentUnder`) than the client's now speaks of the
 * session a sign-in this tab has taken since replaced: nothing ends, and
 * it answers true (its failure is nobody's to show), so a slow answer
 * cannot sign every tab out of the session just begun.
 */
export function endSessionIfRevoked(
  client: QueryClient,
  error: unknown,
  sentUnder?: number,
): boolean {
  if (!isSessionRevoked(error)) return false;
  if (sentUnder !== undefined && sentUnder !== signInCount(client)) {
    return true;
  }
  const signedIn = Boolean(client.getQueryData(sessionQueryKey));
  endSession(client);
  if (signedIn) tellOtherTabs({ type: "session-ended" });
  return true;
}

/**
 * The cached session takes `user`, an answer about the signed-in account
 * (its own change saved), only while it is still that account's: an answer
 * that outlived a sign-out, or a sign-in of another account in another
 * tab, would put the previous account back on screen over the session
 * the browser holds now.
 */
export function updateSession(client: QueryClient, user: SessionUser): void {
  client.setQueryData<SessionUser | null>(
    sessionQueryKey,
    (current) => current?.id === user.id ? user : current,
  );
}

/** Signs out in the cache: the session becomes null, every other query goes. */
export function forgetSession(client: QueryClient): void {
  dropSession(client);
  clearAllButSession(client);
}

/** The session becomes null (signed out); an in-flight session fetch is cancelled first. */
export function dropSession(client: QueryClient): void {
  void client.cancelQueries({ queryKey: sessionQueryKey, exact: true });
  client.setQueryData<SessionUser | null>(sessionQueryKey, null);
}

/** Removes (and cancels) every query but the session. */
export function clearAllButSession(client: QueryClient): void {
  client.removeQueries({
    predicate: (query) => !isSessionKey(query.queryKey),
  });
}

function isSessionKey(key: readonly unknown[]): boolean {
  return key.length === sessionQueryKey.length &&
    key.every((part, i) => part === sessionQueryKey[i]);
}

/** The session query: `fetchSession`, with failures other than "signed out" turned into the query's error. */
export const sessionQuery = {
  queryKey: sessionQueryKey,
  queryFn: readSession,
  staleTime: 60_000,
} as const;

async function readSession(
  context: { client: QueryClient; signal: AbortSignal },
): Promise<SessionUser | null> {
  const { client, signal } = context;
  const before = client.getQueryData<SessionUser | null>(sessionQueryKey);
  let failed = false;
  let failure: unknown;
  const user = await fetchSession({
    onFailure: (error) => {
      failed = true;
      failure = error;
    },
  });
  if (failed) throw failure;
  // A read given up for a newer one (another tab's sign-in asked for it, or
  // a sign-in or out here): its answer may be older than theirs, so it
  // tells nobody anything.
  if (signal.aborted) return user;
  // Signed in a moment ago, signed out now without signing out here: the
  // session expired, idled out or was ended elsewhere. Say so.
  if (before && user === null) {
    client.setQueryData(sessionEndedKey, true);
    tellOtherTabs({ type: "session-ended" });
  }
  return user;
}

/**
 * Follows the other tabs in `client`: their sign-out or lost session ends
 * this one ("Your session has ended" on the login screen); their sign-in
 * clears what this tab held and reads the session again. Returns the stop.
 */
export function followOtherTabs(client: QueryClient): () => void {
  return listenToOtherTabs((message) => {
    if (message.type === "signed-in") {
      noteSignIn(client);
      clearAllButSession(client);
      void client.invalidateQueries({ queryKey: sessionQueryKey });
    } else if (client.getQueryData(sessionQueryKey)) {
      endSession(client);
    } else if (client.isFetching({ queryKey: sessionQueryKey, exact: true })) {
      // A first read on its way may have been answered before the other
      // tab's sign-out: give it up and read again.
      const filters = { queryKey: sessionQueryKey, exact: true } as const;
      void client.cancelQueries(filters).then(() =>
        client.refetchQueries(filters)
      );
    }
  });
}
