// The cached pages of the account list: one key prefix for all of them, so
// a change (creation, disable, role) can refresh or patch every page.

import type { QueryClient } from "../_peer_types.ts";
import type { User, UserPage } from "../types.ts";

/** The prefix of every cached page of the account list. */
export const USERS_KEY = ["gatehouse", "users"] as const;

/** Puts the account as the server answered it in every cached page that lists it. */
export function patchUser(client: QueryClient, user: User): void {
  client.setQueriesData<UserPage>(
    { queryKey: USERS_KEY },
    (page) =>
      page === undefined ? page : {
        ...page,
        users: page.users.map((listed) =>
          listed.id === user.id ? user : listed
        ),
      },
  );
}
