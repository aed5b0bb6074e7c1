// Libraries a session check does not need (WebAuthn, TOTP, OpenID Connect)
// are imported by the first call that needs one, not at start-up: a cold
// start (a Deno Deploy isolate waking for one request) pays only for what
// that request uses.
//
// `import()` must be written with a literal specifier in the wrapping
// module, so that `deno info`, the lock file and Deno Deploy still see the
// dependency; this only remembers the import it is handed.

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
