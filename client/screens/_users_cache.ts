// The cached lists of the administration screens. The account list's pages
// share one key prefix, so a change (creation, disable, role) can refresh or
// patch every page; the pending invitations have one key, refreshed by an
// invitation sent or revoked.

import type { QueryClient } from "../_peer_types.ts";
import type { User, UserPage } from "../types.ts";

/** The prefix of every cached page of the account list. */
export const USERS_KEY = ["gatehouse", "users"] as const;

/** The key of the pending invitations. */
export const INVITATIONS_KEY = ["gatehouse", "invitations"] as const;

/**
 * Puts the account as the server answered it in every cached page that
 * lists it. What only the list tells (`secondFactor`) stays when the answer
 * of a change leaves it out.
 */
export function patchUser(client: QueryClient, user: User): void {
  client.setQueriesData<UserPage>(
    { queryKey: USERS_KEY },
    (page) =>
      page === undefined ? page : {
        ...page,
        users: page.users.map((listed) =>
          listed.id === user.id ? { ...listed, ...user } : listed
        ),
      },
  );
}
