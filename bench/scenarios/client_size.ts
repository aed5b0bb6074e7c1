// Client size: each entry of @gatehouse/client bundled for the browser
// (`deno bundle --platform browser --minify`) with its peer dependencies
// marked external, as an application that already ships Preact would see
// it, then gzipped (CompressionStream, default level). Sizes, not timings:
// one pass, no rounds.

import type { BenchContext, Scenario, ScenarioResult } from "../_scenario.ts";

const CLIENT = new URL("../../client/", import.meta.url);

/** Peers an application brings itself; never counted in our size. */
export const PEERS = [
  "preact",
  "preact/*",
  "@preact/signals",
  "@tanstack/preact-query",
  "@wordpress/i18n",
] as const;

/**
 * What the `./testing` entry drives (a fake server, a DOM, Testing
 * Library). It runs in tests, not in a browser bundle, so these count as
 * the test setup's, not ours; no other entry imports them.
 */
export const TEST_DEPS = [
  "msw",
  "msw/*",
  "happy-dom",
  "@testing-library/preact",
  "@testing-library/*",
] as const;

const EXTERNAL = [...PEERS, ...TEST_DEPS];

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes as BlobPart]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** Gzipped size of each client entry, peers external. */
export const clientSize: Scenario = {
  name: "client-size",
  description: "gzipped size of each client entry, peers external",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const manifest = JSON.parse(
      await Deno.readTextFile(new URL("deno.json", CLIENT)),
    ) as { exports?: Record<string, string> };
    const entries = Object.entries(manifest.exports ?? {});
    if (entries.length === 0) {
      return {
        scenario: "client-size",
        skipped: "client/deno.json has no exports",
      };
    }
    const metrics: Record<string, number> = {};
    for (const [entry, file] of entries) {
      const out = `${ctx.tmpDir}/client${entry.replace(/\W+/g, "_")}.js`;
      const result = await new Deno.Command(Deno.execPath(), {
        args: [
          "bundle",
          "--lock=../dev.lock",
          "--quiet",
          "--platform",
          "browser",
          "--minify",
          ...EXTERNAL.flatMap((name) => ["--external", name]),
          "--output",
          out,
          file,
        ],
        cwd: CLIENT.pathname,
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!result.success) {
        throw new Error(
          `deno bundle ${file} failed:\n${
            new TextDecoder().decode(result.stderr)
          }`,
        );
      }
      const bytes = await Deno.readFile(out);
      const name = `@gatehouse/client${entry === "." ? "" : entry.slice(1)}`;
      metrics[`${name} minified bytes`] = bytes.byteLength;
      metrics[`${name} gzip bytes`] = await gzipSize(bytes);
      ctx.progress(
        `client-size: ${name} ${metrics[`${name} gzip bytes`]} bytes gzipped`,
      );
    }
    return {
      scenario: "client-size",
      metrics,
      notes: [
        `peers external: ${PEERS.join(", ")}`,
        `./testing also leaves out what it drives: ${TEST_DEPS.join(", ")}`,
      ],
    };
  },
};
