// Whether the session ended under the person's feet (a call answered 401,
// e.g. after signing out in another tab), so the login screen can say so
// instead of appearing silently. The query client keeps the mark
// (_session_cache.ts); signing in or out clears it. The login screen works
// without a query client, and then simply has no mark to read.

import { QueryClientContext } from "@tanstack/preact-query";
import { useContext } from "preact/hooks";
import { sessionEndedKey } from "../_session_cache.ts";

/** True when the session of this page ended on the server. */
export function useSessionEnded(): boolean {
  const client = useContext(QueryClientContext);
  return client?.getQueryData(sessionEndedKey) === true;
}
