// The server side of an island: its first markup, rendered here, inside the
// marker the browser entry (islands/_hydrate.tsx) looks for. The props
// cross to the browser as JSON, so they must be plain data.

import { createAuthQueryClient } from "@gatehouse/client";
import { QueryClientProvider } from "@tanstack/preact-query";
import type { ComponentProps, ComponentType } from "preact";
import { type IslandName, ISLANDS } from "../islands/_islands.ts";

/** Props of {@linkcode Island}: which island, and its JSON-safe props. */
export interface IslandProps<N extends IslandName> {
  /** The island's name in islands/_islands.ts. */
  name: N;
  /** Its props; they are sent to the browser as JSON. */
  props: ComponentProps<(typeof ISLANDS)[N]>;
}

/**
 * Renders an island for the browser to take over. On the server no query
 * runs (TanStack Query does not fetch there), so the first markup is each
 * island's pending state.
 */
export function Island<N extends IslandName>(island: IslandProps<N>) {
  const Component = ISLANDS[island.name] as ComponentType<object>;
  return (
    <div data-island={island.name} data-props={JSON.stringify(island.props)}>
      <QueryClientProvider client={createAuthQueryClient()}>
        <Component {...(island.props as object)} />
      </QueryClientProvider>
    </div>
  );
}
