// A bench server bundled as an application would bundle it for a
// serverless host: `deno bundle --code-splitting`, one file for what the
// server imports at start-up and one chunk per lazily imported library,
// loaded by the first request that needs it. Only @node-rs/argon2 stays
// outside (a native addon cannot be bundled); its import is lazy anyway.
//
// The output goes to bench/servers/_bundled/ (ignored by git), inside the
// project, so the bundle's one bare import resolves through deno.json like
// the source's.

import { runDeno } from "./_servers.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** Where bundles are written, relative to bench/servers/. */
export const BUNDLED_DIR = "_bundled";

/**
 * Bundles `bench/servers/{name}.ts` and answers the server name that
 * `startServer` runs it by (`_bundled/{name}.js`).
 */
export async function bundleServer(name: string): Promise<string> {
  const outdir = `${ROOT}bench/servers/${BUNDLED_DIR}`;
  await Deno.remove(outdir, { recursive: true }).catch(() => {});
  await runDeno([
    "bundle",
    "--lock=dev.lock",
    "--code-splitting",
    "--external=@node-rs/argon2",
    `--outdir=${outdir}`,
    `bench/servers/${name}.ts`,
  ]);
  return `${BUNDLED_DIR}/${name}.js`;
}
