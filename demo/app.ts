/**
 * The demo site as one handler: the auth API under `/api` (the routes of
 * `createGatehouse`), the pages of
 * routes/ rendered on the server, the island bundle and static/ files,
 * behind `crossOriginGuard` and the security headers. main.ts serves it;
 * tests start it in process on a port of their own.
 *
 * @module
 */

import {
  createGatehouse,
  type Handler,
  type Logger,
  type PasswordHasher,
  type Reaper,
  respondError,
  type Store,
  type TrustedProxy,
} from "@gatehouse/server";
import type { GatehouseSsoOptions } from "@gatehouse/server/sso";
import { defaultLogger } from "../server/http/logger.ts";
import { restTransport } from "@gatehouse/client";
import { ROLES } from "../demo_config.ts";
import type { IslandBundle } from "./bundle.ts";
import { securityHeaders } from "./headers.ts";
import { NOT_FOUND, PAGES } from "./pages.ts";
import {
  type Assets,
  type ClientSettings,
  type PageRequest,
  renderPage,
} from "./render.tsx";
import { type Route, route, router } from "./router.ts";
import { readStatic } from "./static.ts";
import { SCREENS_CSS } from "./styles.ts";
import { type DemoMail, demoMailFromEnv } from "./mail.ts";
import { BRAND } from "../islands/_shell.tsx";
import { devMailPage, isDevMailRequest } from "./dev_mail.ts";

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
  /**
   * Where mail goes (`demoMailFromEnv`): SMTP, or the development mailer
   * and, on a loopback address, its mailbox at `/dev/mail`. By default the
   * development mailer alone, with `publicUrl`.
   */
  mail?: DemoMail;
  /** Password hasher; argon2id (native, or WebAssembly where addons cannot load) by default. */
  hasher?: PasswordHasher;
  /** How often a signed-in page re-checks its session, in ms; a minute by default. */
  sessionCheckInterval?: number;
  /** Idle timeout of a session, ms (`GATEHOUSE_IDLE_TIMEOUT`); 24 h by default. */
  idleTimeout?: number;
  /** Re-authentication window, ms (`GATEHOUSE_REAUTH_WINDOW`); 30 min by default. */
  reauthenticationWindow?: number;
  /** Roles that must have a second factor (`GATEHOUSE_REQUIRE_SECOND_FACTOR`). */
  requireSecondFactor?: readonly string[];
  /** Keys that seal TOTP secrets at rest (`GATEHOUSE_TOTP_KEYS`). */
  totpKeys?: readonly string[];
  /** Keys that sign the trusted-device cookie (`GATEHOUSE_DEVICE_KEYS`). */
  deviceKeys?: readonly string[];
  /** The reverse proxy whose client-address header is believed (`GATEHOUSE_TRUSTED_PROXY`). */
  trustedProxy?: TrustedProxy;
  /** The clock, in ms since the epoch; `Date.now` by default (tests move their own). */
  now?: () => number;
  /** Single sign-on providers (`GATEHOUSE_OIDC_*`, `ssoFromEnv`); none by default. */
  sso?: GatehouseSsoOptions;
}

/** What {@linkcode createDemoApp} builds. */
export interface DemoApp {
  /** The whole site; serve it with `Deno.serve((req, info) => handler(req, undefined, info))`. */
  handler: Handler;
  /**
   * The gatehouse's own reaper, built from the demo's settings (clock,
   * logger): the one to sweep with, not started. main.ts runs its sweep
   * from the Deploy cron.
   */
  reaper: Reaper;
}

const IMMUTABLE = "public, max-age=31536000, immutable";

// Anything under /api that no route answers: 405 with `Allow` for a path
// the API has under other methods, 404 otherwise. JSON like every API
// answer, and never stored (`respondError` sets no-store): a cache must not
// keep an API refusal any more than an API answer.
function apiFallback(routes: readonly Route[]): Handler {
  return (req) => {
    const methods = new Set(
      routes.filter((entry) => entry.pattern.test(req.url))
        .flatMap((entry) =>
          entry.method === "GET" ? ["GET", "HEAD"] : [entry.method]
        ),
    );
    if (methods.size === 0) {
      return respondError(404, { error: "Not found", code: "not_found" });
    }
    return respondError(405, {
      error: "Method not allowed",
      code: "method_not_allowed",
    }, { headers: { allow: [...methods].join(", ") } });
  };
}

/**
 * Builds the demo's handler.
 *
 * @param options Store, island bundle and the rest.
 * @returns The handler and the reaper of its gatehouse.
 */
export async function createDemoApp(options: DemoOptions): Promise<DemoApp> {
  const { store, islands } = options;
  const logger = options.logger ?? defaultLogger;
  const mail = options.mail ?? demoMailFromEnv({}, {
    listening: "",
    logger,
    ...(options.publicUrl === undefined
      ? {}
      : { publicUrl: options.publicUrl }),
  });
  const gatehouse = createGatehouse({
    store,
    roles: ROLES,
    logger,
    ...(options.hasher === undefined ? {} : { hasher: options.hasher }),
    ...(options.idleTimeout === undefined
      ? {}
      : { idleTimeout: options.idleTimeout }),
    ...(options.reauthenticationWindow === undefined
      ? {}
      : { reauthenticationWindow: options.reauthenticationWindow }),
    ...(options.requireSecondFactor === undefined
      ? {}
      : { requireSecondFactor: options.requireSecondFactor }),
    ...(options.totpKeys === undefined ? {} : { totpKeys: options.totpKeys }),
    ...(options.deviceKeys === undefined
      ? {}
      : { deviceKeys: options.deviceKeys }),
    ...(options.trustedProxy === undefined
      ? {}
      : { trustedProxy: options.trustedProxy }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.sso === undefined ? {} : { sso: options.sso }),
    // Without SMTP the demo has no mail system: reset links and notices go
    // to the log through the development mailer, wired here on purpose
    // (the library never logs a link). It delivers no invitations, so the
    // administrator sees their link on the screen.
    ...(options.publicUrl === undefined
      ? {}
      : { publicUrl: options.publicUrl }),
    ...(mail.mailer === undefined ? {} : { mailer: mail.mailer }),
    // Mail names the product the screens name.
    productName: BRAND,
  });
  // Every route of the API, as Gatehouse hands them out, each behind its own
  // cross-origin guard; anything else under /api is a JSON 404 (or 405),
  // behind the same guard, so a write meets exactly one guard wherever it
  // goes.
  const crossOrigin = gatehouse.guards.crossOrigin;
  const api = router(
    gatehouse.routes,
    crossOrigin(apiFallback(gatehouse.routes)),
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
  // Pages are rendered with the session the request carries, asked of the
  // session handler itself (so the browser need not ask again) through the
  // client's own transport: the Identity JSON is read by the one reader the
  // browser uses, into the shape the screens read (`secondFactor`, not the
  // wire's `second_factor`). A failure reads as signed out; the handler has
  // logged it.
  const request = async (req: Request): Promise<PageRequest> => {
    const cookie = req.headers.get("cookie") ?? "";
    const transport = restTransport({
      baseUrl: req.url,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("cookie", cookie);
        return await gatehouse.auth.fetchSession(
          new Request(input, { ...init, headers }),
        );
      },
    });
    return {
      url: new URL(req.url),
      acceptLanguage: req.headers.get("accept-language"),
      session: await transport.fetchSession(),
    };
  };
  const page = (module: (typeof PAGES)[number][1]): Handler => async (req) =>
    renderPage(module, await request(req), assets, settings);
  const asset = (text: string, type: string): Handler => () =>
    new Response(text, {
      headers: { "content-type": type, "cache-control": IMMUTABLE },
    });
  const notFound: Handler = async (req) => {
    const file = req.method === "GET" || req.method === "HEAD"
      ? files.get(new URL(req.url).pathname)
      : undefined;
    if (file !== undefined) {
      return new Response(file.body, {
        headers: { "content-type": file.type, "cache-control": "no-cache" },
      });
    }
    return renderPage(NOT_FOUND, await request(req), assets, settings, 404);
  };
  const site = crossOrigin(router([
    ...PAGES.map(([path, module]) => route("GET", path, page(module))),
    route(
      "GET",
      islands.path,
      asset(islands.text, "text/javascript; charset=utf-8"),
    ),
    route("GET", css.path, asset(css.text, "text/css; charset=utf-8")),
  ], notFound));

  const app: Handler = function demo(req, params, info) {
    const { pathname } = new URL(req.url);
    return pathname === "/api" || pathname.startsWith("/api/")
      ? api(req, params, info)
      : site(req, params, info);
  };
  const handler = securityHeaders(app);
  // The development mailbox answers apart, with a policy of its own: the
  // pages' policy would refuse the mail's inline styles. Under a host not
  // this machine's, the page does not exist (`isDevMailRequest`).
  const mailbox = mail.mailbox;
  if (mailbox === undefined) return { handler, reaper: gatehouse.reaper };
  const devMail = devMailPage(mailbox);
  return {
    handler: (req, params, info) =>
      isDevMailRequest(new URL(req.url), options.publicUrl)
        ? devMail(req, params, info)
        : handler(req, params, info),
    reaper: gatehouse.reaper,
  };
}
