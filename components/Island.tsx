// The server side of an island: its first markup, rendered here, inside the
// marker the browser entry (islands/_hydrate.tsx) looks for. The props
// cross to the browser as JSON, so they must be plain data. The session the
// request carries is in the query client from the start, so the first
// markup is the page as the person will see it (signed in or not).

import {
  createAuthQueryClient,
  sessionQueryKey,
  type SessionUser,
} from "@gatehouse/client";
import { QueryClientProvider } from "@tanstack/preact-query";
import type { ComponentProps, ComponentType } from "preact";
import { type IslandName, ISLANDS } from "../islands/_islands.ts";

/** Props of {@linkcode Island}: which island, its JSON-safe props, and the session. */
export interface IslandProps<N extends IslandName> {
  /** The island's name in islands/_islands.ts. */
  name: N;
  /** Its props; they are sent to the browser as JSON. */
  props: ComponentProps<(typeof ISLANDS)[N]>;
  /** The signed-in account, or null. */
  session: SessionUser | null;
}

/**
 * Renders an island for the browser to take over. On the server no query
 * runs (TanStack Query does not fetch there), so lists show their loading
 * state; the session is known.
 */
export function Island<N extends IslandName>(island: IslandProps<N>) {
  const Component = ISLANDS[island.name] as ComponentType<object>;
  const client = createAuthQueryClient();
  client.setQueryData(sessionQueryKey, island.session);
  return (
    <div data-island={island.name} data-props={JSON.stringify(island.props)}>
      <QueryClientProvider client={client}>
        <Component {...(island.props as object)} />
      </QueryClientProvider>
    </div>
  );
}
