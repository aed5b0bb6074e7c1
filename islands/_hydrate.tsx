// The browser entry, bundled by `deno bundle` (demo/bundle.ts): picks the
// catalogue for the browser's language, then brings every island marker the
// server rendered (`<div data-island=… data-props=…>`) to life, all under one
// query client so they share the session.

import { createAuthQueryClient, sessionQueryKey } from "@gatehouse/client";
import { QueryClientProvider } from "@tanstack/preact-query";
import { type ComponentType, render } from "preact";
import { type IslandName, ISLANDS } from "./_islands.ts";
import { applyLocale } from "./_locale.ts";

const settings = document.body.dataset;
const sessionCheck = Number(settings.sessionCheck) || 60_000;

const client = createAuthQueryClient();
// A signed-in page asks again whether its session still lives: every
// `sessionCheck` ms, and whenever the tab becomes visible again. An account
// disabled elsewhere (or a session ended elsewhere) then gets the login
// screen in place, without a reload.
client.setQueryDefaults(sessionQueryKey, {
  refetchInterval: (query) => query.state.data ? sessionCheck : false,
  refetchOnWindowFocus: "always",
});

await applyLocale(navigator.languages);

for (const marker of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = marker.dataset.island as IslandName;
  const Island = ISLANDS[name] as ComponentType<object> | undefined;
  if (Island === undefined) continue;
  const props = JSON.parse(marker.dataset.props ?? "{}");
  // render() rather than hydrate(): the server drew the island in English
  // and in its pending state; render() reconciles that markup with the
  // browser's (text, attributes and all) instead of trusting it.
  render(
    <QueryClientProvider client={client}>
      <Island {...props} />
    </QueryClientProvider>,
    marker,
  );
}
document.documentElement.dataset.hydrated = "";
