// Libraries a session check does not need (WebAuthn, TOTP, OpenID Connect)
// are imported by the first call that needs one, not at start-up: a cold
// start (a Deno Deploy isolate waking for one request) pays only for what
// that request uses.
//
// `import()` must be written with a literal specifier in the wrapping
// module, so that `deno info`, the lock file and Deno Deploy still see the
// dependency; this only remembers the import it is handed.

import type { Handler, Middleware } from "./respond.ts";

/**
 * Memoizes `load` (a dynamic `import()` of a literal specifier): concurrent
 * first calls share one import, later calls get the loaded module, and a
 * failed import is tried again by the next call, so a transient failure
 * (e.g. a cache being written) is not kept for the life of the process.
 */
export function lazyImport<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    loading ??= load().catch((error) => {
      loading = undefined;
      throw error;
    });
}

/**
 * A middleware made by the first request it handles, not when the routes
 * are built: for one whose making constructs an `Error` (a guard's
 * prepared refusal). V8 records where an `Error` was made; made at
 * start-up, with the application's module on the stack, that has V8 parse
 * the whole module again for its source positions (about 0.8 ms for the
 * bench server's 29 KiB bundle, more for a larger application), while in a
 * request only the small functions on the stack are parsed again.
 */
export function madeOnFirstUse(make: () => Middleware): Middleware {
  let middleware: Middleware | undefined;
  return (next) => {
    let handler: Handler | undefined;
    return (req, params, info) =>
      (handler ??= (middleware ??= make())(next))(req, params, info);
  };
}
