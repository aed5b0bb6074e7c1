// A bundle of the client with an app (tests/fixtures/client_app.tsx) holds
// exactly one copy of preact, of @tanstack/query-core and
// @tanstack/preact-query, of @wordpress/i18n, and of the client itself.
// Each library is found twice over: by a string only its code contains, and
// by the versions of its modules the bundler names in its comments.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const FIXTURE = "tests/fixtures/client_app.tsx";

/** A string each library's code holds once (string literals survive bundling). */
const MARKERS: Record<string, string> = {
  "preact": "acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera",
  "preact/hooks": "typeof requestAnimationFrame",
  "@tanstack/query-core": "No mutationFn found",
  "@tanstack/preact-query":
    "No QueryClient set, use QueryClientProvider to set one",
  "@wordpress/i18n": "text direction",
  "@gatehouse/client": "Server too old for ",
};

/** The packages whose module paths must all carry one version. */
const PACKAGES = [
  "preact",
  "@tanstack+query-core",
  "@tanstack+preact-query",
  "@wordpress+i18n",
];

function count(text: string, marker: string): number {
  return text.split(marker).length - 1;
}

/** The versions of `name` whose modules the bundle contains. */
function versions(text: string, name: string): Set<string> {
  const found = new Set<string>();
  const escaped = name.replace(/[+.]/g, "\\$&");
  const comment = new RegExp(
    `^// node_modules/\\.deno/${escaped}@([^/_]+)`,
    "gm",
  );
  for (const match of text.matchAll(comment)) found.add(match[1]!);
  return found;
}

async function bundle(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_bundle_" });
  try {
    const output = `${dir}/app.js`;
    const { code, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--lock=dev.lock",
        "--platform",
        "browser",
        "--output",
        output,
        FIXTURE,
      ],
      cwd: ROOT,
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    return await Deno.readTextFile(output);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a bundle of the client with an app holds one copy of each shared library", async () => {
  const text = await bundle();
  for (const [library, marker] of Object.entries(MARKERS)) {
    assert.equal(count(text, marker), 1, `copies of ${library}`);
  }
  for (const name of PACKAGES) {
    assert.equal(
      versions(text, name).size,
      1,
      `versions of ${name}: ${[...versions(text, name)]}`,
    );
  }
  // The check can see a second copy: the same text twice holds two.
  for (const [library, marker] of Object.entries(MARKERS)) {
    assert.equal(count(text + text, marker), 2, `marker of ${library}`);
  }
});
