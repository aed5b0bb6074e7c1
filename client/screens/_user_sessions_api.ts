// SEAM, to be pointed at the client's real call at merge: "Sign out
// everywhere" for another account (`DELETE /api/users/{id}/sessions`,
// DESIGN.md §8), which a later change adds to the server. No server can
// be asked whether it has the route without using it, so the row action
// stays hidden while `available` is false; the lead turns it on (or
// derives it from the contract) when the server and client have it. The
// call itself goes over REST with the client's error mapping meanwhile.

import { send } from "../_http.ts";

/** The seam: whether the server ends another account's sessions, and the call. */
export const userSessions: {
  available: boolean;
  revoke(id: string): Promise<void>;
} = {
  available: false,
  async revoke(id: string): Promise<void> {
    const response = await send({}, {
      // _http.ts's type predates DELETE; fetch takes any method.
      method: "DELETE" as "POST",
      path: `/api/users/${encodeURIComponent(id)}/sessions`,
      operation: "revokeUserSessions",
    });
    await response.body?.cancel();
  },
};
