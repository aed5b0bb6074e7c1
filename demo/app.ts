/**
 * The demo site as one handler: the auth API under `/api`, the pages of
 * routes/ rendered on the server, the island bundle and static/ files,
 * behind `crossOriginGuard` and the security headers. main.ts serves it;
 * tests start it in process on a port of their own.
 *
 * @module
 */

import {
  argon2Hasher,
  createAccountLinks,
  createAdmin,
  createAuth,
  crossOriginGuard,
  defaultLogger,
  developmentMailer,
  type Handler,
  type Logger,
  type PasswordHasher,
  type Store,
} from "@gatehouse/server";
import { PRIVILEGED, ROLES } from "../demo_config.ts";
import { apiNotFound, apiRoutes } from "./api.ts";
import type { IslandBundle } from "./bundle.ts";
import { securityHeaders } from "./headers.ts";
import { NOT_FOUND, PAGES } from "./pages.ts";
import { type Assets, type ClientSettings, renderPage } from "./render.tsx";
import { route, router } from "./router.ts";
import { readStatic } from "./static.ts";
import { SCREENS_CSS } from "./styles.ts";

/** Options of {@linkcode createDemoApp}. */
export interface DemoOptions {
  /** The migrated store. */
  store: Store;
  /** The island bundle (`buildIslands()` or `loadIslands()`). */
  islands: IslandBundle;
  /**
   * The site's public origin, e.g. `https://demo.example`: the origin of
   * invitation and reset links. With it, the development mailer prints reset
   * links to the log; without it, an invitation link uses the request's
   * origin and no reset link is sent.
   */
  publicUrl?: string;
  /** Where refusals, failures and the development mailer's reset links go; console by default. */
  logger?: Logger;
  /** Password hasher; argon2id (native, or WebAssembly where addons cannot load) by default. */
  hasher?: PasswordHasher;
  /** How often a signed-in page re-checks its session, in ms; a minute by default. */
  sessionCheckInterval?: number;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Builds the demo's handler.
 *
 * @param options Store, island bundle and the rest.
 * @returns The handler; serve it with `Deno.serve((req, info) => handler(req, undefined, info))`.
 */
export async function createDemoApp(options: DemoOptions): Promise<Handler> {
  const { store, islands } = options;
  const logger = options.logger ?? defaultLogger;
  const hasher = options.hasher ?? argon2Hasher({ logger });
  const publicUrl = options.publicUrl === undefined
    ? {}
    : { publicUrl: options.publicUrl };
  const common = {
    store,
    logger,
    hasher,
    privileged: PRIVILEGED,
    capabilities: ROLES,
  };
  const auth = createAuth(common);
  const admin = createAdmin({ ...common, ...publicUrl });
  // The demo has no mail system: reset links go to the log through the
  // development mailer, wired here on purpose (the library never logs a
  // link). Invitations keep no mailer, so the administrator sees the link.
  const links = createAccountLinks({
    auth,
    store,
    logger,
    hasher,
    ...publicUrl,
    ...(options.publicUrl === undefined
      ? {}
      : { mailer: developmentMailer({ logger }) }),
  });
  const api = router(
    apiRoutes({ auth, admin, links, store, logger }),
    apiNotFound,
  );

  const files = await readStatic();
  const css = await SCREENS_CSS;
  const assets: Assets = {
    script: islands.path,
    styles: [css.path, "/demo.css"],
  };
  const settings: ClientSettings = {
    sessionCheckInterval: options.sessionCheckInterval ?? 60_000,
  };
  const page = (module: (typeof PAGES)[number][1]): Handler => (req) =>
    renderPage(module, new URL(req.url), assets, settings);
  const asset = (text: string, type: string): Handler => () =>
    new Response(text, {
      headers: { "content-type": type, "cache-control": IMMUTABLE },
    });
  const notFound: Handler = (req) => {
    const file = req.method === "GET" || req.method === "HEAD"
      ? files.get(new URL(req.url).pathname)
      : undefined;
    if (file !== undefined) {
      return new Response(file.body, {
        headers: { "content-type": file.type, "cache-control": "no-cache" },
      });
    }
    return renderPage(NOT_FOUND, new URL(req.url), assets, settings, 404);
  };
  const site = router([
    ...PAGES.map(([path, module]) => route("GET", path, page(module))),
    route(
      "GET",
      islands.path,
      asset(islands.text, "text/javascript; charset=utf-8"),
    ),
    route("GET", css.path, asset(css.text, "text/css; charset=utf-8")),
  ], notFound);

  const app: Handler = function demo(req, params, info) {
    const { pathname } = new URL(req.url);
    return pathname === "/api" || pathname.startsWith("/api/")
      ? api(req, params, info)
      : site(req, params, info);
  };
  return securityHeaders(crossOriginGuard(logger)(app));
}
