// The demo's island bundle (islands/_hydrate.tsx, built as `deno task demo`
// builds it) holds exactly one copy of each library the islands share with
// the client package: preact, @preact/signals, @tanstack/query-core and
// @tanstack/preact-query, @wordpress/i18n, and the client itself. Same
// method as tests/client/bundle_test.ts: a string only each library's code
// holds, counted in the minified bundle the demo serves, and the versions of
// each package's modules named in an unminified build's comments.

import assert from "node:assert/strict";
import { buildIslands } from "../../demo/bundle.ts";

/** A string each library's code holds once (string literals survive minifying). */
const MARKERS: Record<string, string> = {
  "preact": "acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera",
  "preact/hooks": "typeof requestAnimationFrame",
  "@preact/signals-core": 'Symbol.for("preact-signals")',
  "@preact/signals": "__PREACT_SIGNALS_DEVTOOLS__",
  "@tanstack/query-core": "No mutationFn found",
  "@tanstack/preact-query":
    "No QueryClient set, use QueryClientProvider to set one",
  "@wordpress/i18n": "text direction",
  "@gatehouse/client": "Server too old for ",
};

/** Packages whose modules must all come from one version. */
const PACKAGES = [
  "preact",
  "@preact+signals",
  "@preact+signals-core",
  "@tanstack+query-core",
  "@tanstack+preact-query",
  "@wordpress+i18n",
];

function count(text: string, marker: string): number {
  return text.split(marker).length - 1;
}

function versions(text: string, name: string): Set<string> {
  const escaped = name.replace(/[+.]/g, "\\$&");
  const comment = new RegExp(
    `^// node_modules/\\.deno/${escaped}@([^/_]+)`,
    "gm",
  );
  return new Set([...text.matchAll(comment)].map((match) => match[1]!));
}

async function build(minify: boolean): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_demo_bundle_" });
  try {
    const bundle = await buildIslands({ minify, output: `${dir}/islands.js` });
    return bundle.text;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("the demo's island bundle holds one copy of each shared library", async () => {
  const [minified, readable] = await Promise.all([build(true), build(false)]);
  for (const [library, marker] of Object.entries(MARKERS)) {
    assert.equal(count(minified, marker), 1, `copies of ${library}`);
    assert.equal(count(readable, marker), 1, `copies of ${library}`);
    // The check can see a second copy: the same text twice holds two.
    assert.equal(count(minified + minified, marker), 2, `marker of ${library}`);
  }
  for (const name of PACKAGES) {
    const found = versions(readable, name);
    assert.equal(found.size, 1, `versions of ${name}: ${[...found]}`);
  }
});
