// The browser entry, bundled by `deno bundle` (demo/bundle.ts): switches to
// the language the server rendered the page in, takes the session the page
// was rendered with, then brings every island marker the server rendered
// (`<div data-island=… data-props=…>`) to life, all under one query client
// so they share the session.

import {
  createAuthQueryClient,
  sessionQueryKey,
  type SessionUser,
} from "@gatehouse/client";
import { QueryClientProvider } from "@tanstack/preact-query";
import { type ComponentType, render } from "preact";
import { setDemoLocale } from "./_i18n.ts";
import { type IslandName, ISLANDS } from "./_islands.ts";

const settings = document.body.dataset;
const sessionCheck = Number(settings.sessionCheck) || 60_000;

const client = createAuthQueryClient();
// A signed-in page asks again whether its session still lives: every
// `sessionCheck` ms, and whenever the tab becomes visible again. An account
// disabled or demoted elsewhere (or a session ended elsewhere) then gets
// the right screen in place, without a reload. A signed-out page asks
// nothing (it would only get a 401).
client.setQueryDefaults(sessionQueryKey, {
  refetchInterval: (query) => query.state.data ? sessionCheck : false,
  refetchOnWindowFocus: (query) => query.state.data ? "always" : false,
});
client.setQueryData<SessionUser | null>(
  sessionQueryKey,
  JSON.parse(settings.session ?? "null"),
);

await setDemoLocale(document.documentElement.lang || "en");

for (const marker of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const name = marker.dataset.island as IslandName;
  const Island = ISLANDS[name] as ComponentType<object>;
  if (Island === undefined) continue;
  const props = JSON.parse(marker.dataset.props ?? "{}");
  // The server drew the island in this language with this session.
  // render() rather than hydrate(): ids from useId() differ between the
  // server's tree and the island's, and render() reconciles every
  // attribute of the markup instead of trusting it.
  render(
    <QueryClientProvider client={client}>
      <Island {...props} />
    </QueryClientProvider>,
    marker,
  );
}
document.documentElement.dataset.hydrated = "";
