/**
 * `installTestEnvironment()`: a DOM, a fake HTTP server (msw) and cleanup
 * between tests, for one test file. The file is a browser of its own: its
 * `BroadcastChannel`s (the tabs' channel among them) hear only each other,
 * not another file's run beside it by `deno test --parallel`.
 *
 * @module
 */

import { setupServer } from "msw/node";
import type { RequestHandler, SetupServer, Window } from "../_peer_types.ts";
import { resetAuthTransport } from "../transport.ts";
import { installDom, type InstalledDom } from "./_dom.ts";
import { checkLinkReady } from "./link_handlers.ts";
import { listSsoProvidersOk } from "./sso_handlers.ts";

/**
 * Options of {@linkcode installTestEnvironment}.
 *
 * @example Signed out unless a test says otherwise
 * ```ts
 * import { installTestEnvironment, sessionAnonymous, type TestEnvironmentOptions } from "@gatehouse/client/testing";
 *
 * const options: TestEnvironmentOptions = {
 *   handlers: [sessionAnonymous],
 *   url: "http://localhost/app/",
 * };
 * const env = installTestEnvironment(options);
 *
 * Deno.test("the page is at /app/", () => {
 *   if (location.pathname !== "/app/") throw new Error(location.href);
 * });
 * ```
 */
export interface TestEnvironmentOptions {
  /** Handlers every test of the file starts with; `env.use()` adds more per test. */
  readonly handlers?: readonly RequestHandler[];
  /** The page's URL, which relative `/api/...` requests resolve against. `http://localhost/` by default. */
  readonly url?: string;
  /** What a request no handler answers does: fail it (`"error"`, the default), `"warn"` or `"bypass"`. */
  readonly onUnhandledRequest?: "error" | "warn" | "bypass";
}

/**
 * The environment of a test file: the fake server and the DOM.
 *
 * @example Adding handlers in one test
 * ```ts
 * import { installTestEnvironment, type TestEnvironment, sessionAnonymous } from "@gatehouse/client/testing";
 *
 * const env: TestEnvironment = installTestEnvironment();
 * Deno.test("a test", () => {
 *   env.use(sessionAnonymous);
 * });
 * ```
 */
export interface TestEnvironment {
  /** The msw server; handlers passed to `use()` last until the end of the test. */
  readonly server: SetupServer;
  /** The happy-dom window whose document, navigator and location are the globals. */
  readonly window: Window;
  /** Adds handlers for the current test, ahead of the file's. */
  use(...handlers: RequestHandler[]): void;
  /**
   * What runs after each test: unmounts Preact trees, empties the document,
   * returns to the start URL, drops the test's handlers and restores the REST
   * transport; then throws the first error a handler threw since the last
   * cleanup (e.g. an `answer()` outside the contract), so the test fails
   * with it.
   */
  cleanup(): void;
  /** Stops the server and removes the DOM (after the last test). */
  close(): Promise<void>;
}

type Hook = (fn: () => void | Promise<void>) => void;

interface Hooks {
  beforeAll: Hook;
  afterEach: Hook;
  afterAll: Hook;
}

/** Deno's test hooks, or the global ones of Jest-like runners, or none. */
function testHooks(): Hooks | undefined {
  const deno = (globalThis as { Deno?: { test?: Partial<Hooks> } }).Deno?.test;
  if (deno?.beforeAll && deno.afterEach && deno.afterAll) {
    return deno as Hooks;
  }
  const global = globalThis as unknown as Partial<Hooks>;
  if (global.beforeAll && global.afterEach && global.afterAll) {
    return global as Hooks;
  }
  return undefined;
}

/**
 * Installs a DOM (happy-dom: `document`, `window`, `navigator`, `location`
 * and the element classes become globals) and a fake HTTP server (msw) for
 * the test file, and registers the test runner's hooks: the server listens
 * before the first test; after each test the DOM is cleaned (rendered
 * Preact trees unmounted), per-test handlers dropped and the REST transport
 * restored, and a test during which a handler threw fails with that error
 * (msw turns it into a 500, which the client could take in its stride);
 * after the last test everything is removed. Call it once, at the
 * top of the file. The check a link's page makes when it opens
 * (`checkLink`) answers `ready`, and the single sign-on providers the login
 * screen asks for (`listSsoProviders`) are none, unless a handler of the
 * test says otherwise.
 *
 * The REST transport's `/api/...` paths resolve against the DOM's location
 * (`http://localhost/` unless `url` says otherwise). Testing Library's
 * `screen` binds to the document present when it is first imported, so use
 * the queries `render()` returns (or `within(document.body)`).
 *
 * @param options The file's handlers, the page URL and what unhandled requests do.
 * @returns The environment.
 *
 * @example A test file
 * ```ts
 * import { fetchSession } from "@gatehouse/client";
 * import { defaultUser, fetchSessionAnonymous, fetchSessionOk, installTestEnvironment } from "@gatehouse/client/testing";
 *
 * const env = installTestEnvironment({ handlers: [fetchSessionAnonymous()] });
 *
 * Deno.test("fetchSession() answers null when signed out", async () => {
 *   if ((await fetchSession()) !== null) throw new Error("expected null");
 * });
 *
 * Deno.test("fetchSession() answers the account when signed in", async () => {
 *   env.use(fetchSessionOk());
 *   if ((await fetchSession())?.id !== defaultUser.id) throw new Error("expected the user");
 * });
 * ```
 */
export function installTestEnvironment(
  options: TestEnvironmentOptions = {},
): TestEnvironment {
  const url = options.url ?? "http://localhost/";
  const dom: InstalledDom = installDom(url);
  // The link pages check their link when they open, and the login screen
  // asks for the single sign-on providers: unless a test says otherwise,
  // the link works and there are no providers, so a test of a form needs
  // no handler for a request it does not care about.
  const server = setupServer(
    ...(options.handlers ?? []),
    checkLinkReady(),
    listSsoProvidersOk([]),
  );
  const listen = () =>
    server.listen({
      onUnhandledRequest: options.onUnhandledRequest ?? "error",
    });
  // What handlers threw (msw answered each with a 500): the test that saw
  // it fails with it, not with whatever the client made of the 500.
  const thrown: unknown[] = [];
  server.events.on("unhandledException", ({ error }) => thrown.push(error));
  let closed = false;

  const env: TestEnvironment = {
    server,
    window: dom.window,
    use: (...handlers) => server.use(...handlers),
    cleanup() {
      dom.clear();
      server.resetHandlers();
      resetAuthTransport();
      const [first] = thrown.splice(0);
      if (first !== undefined) throw first;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        env.cleanup();
      } finally {
        server.close();
        await dom.uninstall();
      }
    },
  };

  const hooks = testHooks();
  if (hooks === undefined) {
    // No runner hooks: serve now; the caller runs cleanup() and close().
    listen();
  } else {
    hooks.beforeAll(listen);
    hooks.afterEach(() => env.cleanup());
    hooks.afterAll(() => env.close());
  }
  return env;
}
