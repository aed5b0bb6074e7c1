// `deno task demo` on a fresh clone installs every package deno.lock names,
// so deno.lock must name only what the demo and the published packages
// need; tests, benchmarks and tooling resolve with dev.lock (their tasks
// pass `--lock=dev.lock`, and their imports are scoped in deno.json). A
// command run without it writes test packages into deno.lock: this test
// catches that before it reaches a newcomer.

import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);

interface Lock {
  specifiers: Record<string, string>;
  npm: Record<string, unknown>;
}

const read = async (name: string): Promise<Lock> =>
  JSON.parse(await Deno.readTextFile(new URL(name, ROOT)));

// The root of each package's name in a lock key such as `@a/b@1.2.3_peer@4`.
const nameOf = (key: string) => key.slice(0, key.indexOf("@", 1));

const config = JSON.parse(
  await Deno.readTextFile(new URL("deno.json", ROOT)),
) as {
  imports: Record<string, string>;
  scopes: Record<string, Record<string, string>>;
};

Deno.test("deno.lock names no package that only tests, benchmarks or tooling import", async () => {
  const lock = await read("deno.lock");
  const devOnly = new Set(
    Object.values(config.scopes).flatMap((scope) => Object.keys(scope))
      .map((name) => name.replace(/\/$/, ""))
      .filter((name) => !(name in config.imports)),
  );
  assert.ok(devOnly.has("msw") && devOnly.has("better-auth"));
  const packages = Object.keys(lock.npm).map(nameOf);
  for (const name of devOnly) {
    assert.ok(
      !packages.includes(name),
      `deno.lock holds ${name}: run git checkout deno.lock`,
    );
  }
  for (const specifier of Object.keys(lock.specifiers)) {
    const name = specifier.slice(4, specifier.indexOf("@", 5));
    assert.ok(name in config.imports, `deno.lock resolves ${specifier}`);
  }
});

Deno.test("deno.lock and dev.lock resolve every shared package to the same version", async () => {
  const [demo, dev] = [await read("deno.lock"), await read("dev.lock")];
  for (const key of Object.keys(demo.npm)) {
    assert.ok(key in dev.npm, `dev.lock lacks ${key}`);
  }
  for (const [specifier, version] of Object.entries(demo.specifiers)) {
    assert.equal(dev.specifiers[specifier], version, specifier);
  }
});
