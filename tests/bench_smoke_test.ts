// Benchmarks are not tests: nothing here checks a figure. This runs the
// bench CLI with a tiny duration on cheap scenarios so that the script
// itself cannot rot unnoticed (DEVELOPERS.md: performance targets live in
// `deno task bench`, never in tests).

import assert from "node:assert/strict";

const MAIN = new URL("../bench/main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;

async function bench(args: string[], env: Record<string, string> = {}) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--lock=dev.lock", "--allow-all", MAIN, ...args],
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return {
    code: out.code,
    stdout: decode(out.stdout),
    stderr: decode(out.stderr),
  };
}

Deno.test("deno task bench --help lists every scenario", async () => {
  const { code, stdout } = await bench(["--help"]);
  assert.equal(code, 0);
  for (
    const name of [
      "session-kv",
      "session-pg",
      "idle-timeout",
      "audit-trail",
      "sessions-list",
      "login",
      "two-step",
      "reset",
      "scale",
      "reaper",
      "client-size",
      "loadgen",
      "reshape",
      "cold-start",
      "memory",
      "login-files",
    ]
  ) {
    assert.match(stdout, new RegExp(`\\b${name}\\b`));
  }
});

Deno.test("deno task bench refuses an unknown scenario", async () => {
  const { code, stderr } = await bench(["--scenarios", "nope"]);
  assert.equal(code, 2);
  assert.match(stderr, /Unknown scenario: "nope"/);
});

Deno.test("deno task bench runs session-kv and client-size and writes JSON", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const json = `${dir}/results.json`;
    const { code, stdout, stderr } = await bench([
      "--scenarios",
      "session-kv,client-size",
      "--duration",
      "0.2",
      "--rounds",
      "1",
      "--json",
      json,
    ]);
    assert.equal(code, 0, `bench failed:\n${stdout}\n${stderr}`);
    assert.match(stdout, /session-kv: done/);
    const report = JSON.parse(await Deno.readTextFile(json));
    assert.equal(typeof report.date, "string");
    assert.equal(report.method.rounds, 1);
    const [session, client] = report.results;
    assert.equal(session.scenario, "session-kv");
    assert.equal(session.skipped, undefined);
    for (
      const name of ["ceiling", "lean-kv-webcrypto", "lean-kv-node", "ours-kv"]
    ) {
      const v = session.variants[name];
      assert.equal(v.rps.length, 1, name);
      assert.ok(v.rps[0] > 0, name);
      assert.equal(v.errors, 0, name);
      assert.ok(v.summary.p99.median >= v.summary.p50.median, name);
    }
    assert.ok(session.ratios["ours-kv/lean-kv-node"].median > 0);
    // Throughput against both leans, and the latency of a check alone.
    assert.equal(session.targets.length, 3);
    assert.equal(client.scenario, "client-size");
    assert.ok(client.metrics["@gatehouse/client gzip bytes"] > 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench runs reshape against a commit on KV", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const json = `${dir}/results.json`;
    // HEAD as the baseline: the scenario unpacks it with git archive and
    // runs its bench server beside the working tree's. KV only: an empty
    // DATABASE_URL counts as unset. Its packages come from Deno's cache
    // alone (the working tree's test run has them): tests stay offline.
    const { code, stdout, stderr } = await bench([
      "--scenarios",
      "reshape",
      "--baseline",
      "HEAD",
      "--duration",
      "0.2",
      "--rounds",
      "1",
      "--json",
      json,
    ], { DATABASE_URL: "", BENCH_CACHED_ONLY: "1" });
    assert.equal(code, 0, `bench failed:\n${stdout}\n${stderr}`);
    const [result] = JSON.parse(await Deno.readTextFile(json)).results;
    assert.equal(result.scenario, "reshape");
    assert.equal(result.skipped, undefined);
    for (const name of ["kv-baseline", "kv-ours"]) {
      assert.equal(result.variants[name].errors, 0, name);
      assert.ok(result.variants[name].rps[0] > 0, name);
    }
    assert.ok(result.ratios["kv-ours/kv-baseline"].median > 0);
    assert.ok(
      result.ratios["kv-ours/kv-baseline login p50, interleaved"].median > 0,
    );
    assert.deepEqual(
      result.targets.map((t: { name: string }) => t.name),
      [
        "KV: session check, ours ÷ baseline, req/s",
        "KV: login, ours ÷ baseline, p50 (interleaved)",
      ],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench counts the server files a login runs in", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const json = `${dir}/results.json`;
    const { code, stdout, stderr } = await bench([
      "--scenarios",
      "login-files",
      "--json",
      json,
    ]);
    assert.equal(code, 0, `bench failed:\n${stdout}\n${stderr}`);
    const [result] = JSON.parse(await Deno.readTextFile(json)).results;
    const count = result.metrics["server files a password login runs in"];
    assert.ok(count > 5 && count < 200, `count ${count}`);
    // The login's own code is counted; code only start-up runs is not.
    const [files] = result.notes;
    assert.match(files, /server\/core\/password\.ts/);
    assert.match(files, /server\/core\/rules\/_session_creation\.ts/);
    assert.doesNotMatch(files, /server\/core\/options\.ts|webauthn\.ts/);
    assert.equal(files.split(", ").length, count);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
