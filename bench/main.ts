// `deno task bench`: runs the chosen scenarios, prints a progress line per
// step and a table at the end, and writes every figure as JSON.
//
// Method: each scenario starts its servers in their own processes, then
// alternates the variants it compares round by round (A, B, A, B, …) under
// the same closed-loop load from this process, on 127.0.0.1 only. Absolute
// figures on a shared machine drift, so results are medians and min–max
// over rounds, and ratios are computed round by round.

import { parseArgs, usage } from "./_cli.ts";
import { printReport } from "./_report.ts";
import type { BenchContext, ScenarioResult } from "./_scenario.ts";
import { SCENARIOS } from "./scenarios/mod.ts";

const args = parseArgs(Deno.args, SCENARIOS);
if (args === "help") {
  console.log(usage(SCENARIOS));
  Deno.exit(0);
}
if (typeof args === "string") {
  console.error(args);
  console.error(usage(SCENARIOS));
  Deno.exit(2);
}

const tmpDir = await Deno.makeTempDir({ prefix: "gatehouse-bench-" });
const started = performance.now();
const elapsed = () => ((performance.now() - started) / 1000).toFixed(0);
const ctx: BenchContext = {
  durationMs: args.duration * 1000,
  rounds: args.rounds,
  connections: args.connections,
  scaleSessions: args.sessions,
  expiredSessions: args.expired,
  baseline: args.baseline,
  ours: args.ours,
  databaseUrl: Deno.env.get("DATABASE_URL")?.trim() || undefined,
  tmpDir,
  progress: (message) => console.log(`[${elapsed()}s] ${message}`),
};

const results: ScenarioResult[] = [];
try {
  for (const scenario of args.scenarios) {
    ctx.progress(`${scenario.name}: starting`);
    let result: ScenarioResult;
    try {
      result = await scenario.run(ctx);
    } catch (err) {
      // One broken scenario must not hide the others' figures.
      result = { scenario: scenario.name, skipped: `failed: ${err}` };
      console.error(err);
    }
    results.push(result);
    ctx.progress(
      result.skipped
        ? `${scenario.name}: skipped (${result.skipped})`
        : `${scenario.name}: done`,
    );
  }
} finally {
  await Deno.remove(tmpDir, { recursive: true }).catch(() => {});
}

const report = {
  date: new Date().toISOString(),
  machine: {
    os: Deno.build.os,
    arch: Deno.build.arch,
    cpus: navigator.hardwareConcurrency,
    deno: Deno.version.deno,
    v8: Deno.version.v8,
  },
  method: {
    durationSeconds: args.duration,
    rounds: args.rounds,
    connections: args.connections,
    scaleSessions: args.sessions,
    expiredSessions: args.expired,
    postgres: ctx.databaseUrl !== undefined,
  },
  results,
};
printReport(report);
await Deno.mkdir(new URL(".", `file://${args.json}`).pathname, {
  recursive: true,
});
await Deno.writeTextFile(args.json, JSON.stringify(report, null, 2) + "\n");
console.log(`\nResults written to ${args.json} (${elapsed()}s in all)`);
const failed = results.filter((r) => r.skipped?.startsWith("failed"));
if (failed.length > 0) Deno.exit(1);
