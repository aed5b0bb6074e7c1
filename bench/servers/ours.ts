// Gatehouse as an application mounts it: createAuth over the real store
// with the demo's role registry (identities carry capabilities and
// grantable roles), routed through a URLPattern table behind
// crossOriginGuard, like the README and tests/fixtures/app.ts.
//
// With `sweep: true` it also answers `POST /bench/sweep` by running one
// Reaper sweep in this process, so session checks and the sweep share the
// event loop as they would in production. With `reset: true` it mounts the
// password-reset request handler (no limiter, a mailer that drops the mail).

import {
  createAccountLinks,
  createAuth,
  crossOriginGuard,
  type Handler,
  respond,
} from "../../mod.ts";
import { COOKIE_NAME, registry } from "../_fixtures.ts";
import { config, listen } from "./_listen.ts";
import { openStore, type StoreConfig } from "./_open_store.ts";

const options = config<StoreConfig & { sweep?: boolean; reset?: boolean }>();
const opened = await openStore(options);
const auth = createAuth({
  store: opened.store,
  cookieName: COOKIE_NAME,
  privileged: ["admin"],
  capabilities: registry(),
});

const routes: Array<{ method: string; pattern: URLPattern; handler: Handler }> =
  [
    { method: "POST", path: "/api/auth/login", handler: auth.login },
    { method: "POST", path: "/api/auth/logout", handler: auth.logout },
    { method: "GET", path: "/api/auth/session", handler: auth.session },
  ].map(({ method, path, handler }) => ({
    method,
    pattern: new URLPattern({ pathname: path }),
    handler,
  }));

if (options.reset) {
  const links = createAccountLinks({
    auth,
    store: opened.store,
    publicUrl: "http://127.0.0.1",
    mailer: { send: () => Promise.resolve() },
  });
  routes.push({
    method: "POST",
    pattern: new URLPattern({ pathname: "/api/auth/password-reset" }),
    handler: links.requestReset,
  });
}

if (options.sweep) {
  const { sweepHandler } = await import("./_sweep.ts");
  routes.push({
    method: "POST",
    pattern: new URLPattern({ pathname: "/bench/sweep" }),
    handler: sweepHandler(opened.store),
  });
}

const app: Handler = (req, _params, info) => {
  for (const route of routes) {
    if (route.method !== req.method) continue;
    const match = route.pattern.exec(req.url);
    if (match) return route.handler(req, match, info);
  }
  return respond({ error: "Not found", code: "not_found" }, { status: 404 });
};
const handler = crossOriginGuard()(app);

listen((req, info) => handler(req, undefined, info));
