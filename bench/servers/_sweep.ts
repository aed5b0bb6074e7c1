// `POST /bench/sweep` for the reaper scenario: runs one Reaper sweep in the
// server's own process (sharing its event loop with session checks, as in
// production) and answers how long it took and what it deleted.

import type { Handler } from "../../server/http/respond.ts";
import { Reaper } from "../../server/features/reaper.ts";
import type { Store } from "../../server/core/store.ts";

/** The sweep handler over `store`, with the Reaper's default batch size. */
export function sweepHandler(store: Store): Handler {
  const reaper = new Reaper(store);
  return async function sweep() {
    const started = performance.now();
    const deleted = await reaper.sweep();
    const ms = performance.now() - started;
    return Response.json({ ms, ...deleted });
  };
}
