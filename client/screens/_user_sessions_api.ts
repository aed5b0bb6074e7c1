// SEAM, the one place that knows whether "Sign out everywhere" exists for
// another account (`DELETE /api/users/{id}/sessions`, DESIGN.md §8). The
// route is not in the contract yet (a later change adds it to the server,
// the contract and the client's calls). No server can be asked whether it
// has the route without using it, so the row action stays hidden while
// `available` is false. When the operation lands: set `available` from it
// and point `revoke` at the client's call; until then `revoke` goes over
// REST with the client's error mapping.

import { sendTo } from "../_http.ts";

/** Whether the server ends another account's sessions, and the call. */
export const userSessions: {
  available: boolean;
  revoke(id: string): Promise<void>;
} = {
  available: false,
  async revoke(id: string): Promise<void> {
    const response = await sendTo({}, {
      method: "DELETE",
      path: `/api/users/${encodeURIComponent(id)}/sessions`,
    }, { operation: "revokeUserSessions" });
    await response.body?.cancel();
  },
};
