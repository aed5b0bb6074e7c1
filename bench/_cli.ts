// Command-line options of `deno task bench`.

import type { Scenario } from "./_scenario.ts";

/** Parsed options. */
export interface BenchArgs {
  scenarios: Scenario[];
  duration: number;
  rounds: number;
  connections: number;
  sessions: number;
  expired: number;
  json: string;
  /** The commit the `reshape` scenario compares the code under test with. */
  baseline: string;
  /** The commit under test in `reshape`; undefined: the working tree. */
  ours: string | undefined;
}

const DEFAULTS = {
  duration: 2,
  rounds: 3,
  connections: 50,
  sessions: 100_000,
  expired: 100_000,
  // Issue 26's defect fixes, the last commit before the reshaping proper.
  baseline: "c25f636",
  ours: undefined,
  json: new URL("./results/latest.json", import.meta.url).pathname,
};

/** The `--help` text. */
export function usage(scenarios: readonly Scenario[]): string {
  const width = Math.max(...scenarios.map((s) => s.name.length));
  const list = scenarios.map((s) =>
    `  ${s.name.padEnd(width)}  ${s.description}${s.default ? "" : " (opt-in)"}`
  ).join("\n");
  return `Usage: deno task bench [options]

Benchmarks Gatehouse against baselines run in the same invocation, in
alternating rounds, and reports medians, min–max and per-round ratios.
Postgres scenarios and variants run when DATABASE_URL is set.

Options:
  --scenarios a,b    scenarios to run (default: every one not marked opt-in)
  --duration S       seconds per measured round (default ${DEFAULTS.duration})
  --rounds N         measured rounds per variant (default ${DEFAULTS.rounds})
  --connections N    concurrent connections for throughput (default ${DEFAULTS.connections})
  --sessions N       live sessions in the large store of "scale" (default ${DEFAULTS.sessions})
  --expired N        expired sessions the reaper sweeps (default ${DEFAULTS.expired})
  --baseline COMMIT  what "reshape" compares against (default ${DEFAULTS.baseline})
  --ours COMMIT      what "reshape" measures (default: the working tree)
  --json PATH        where to write results (default bench/results/latest.json)
  --help             this text

Scenarios:
${list}`;
}

/** Parses `argv`; returns "help", an error message, or the options. */
export function parseArgs(
  argv: readonly string[],
  all: readonly Scenario[],
): BenchArgs | "help" | string {
  const out: BenchArgs = {
    ...DEFAULTS,
    scenarios: all.filter((s) => s.default),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return "help";
    const eq = arg.indexOf("=");
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) return `Missing value for ${name}`;
    switch (name) {
      case "--scenarios": {
        const names = value.split(",").map((s) => s.trim()).filter(Boolean);
        const unknown = names.filter((n) => !all.some((s) => s.name === n));
        if (unknown.length > 0) {
          return `Unknown scenario: ${unknown.map((n) => `"${n}"`).join(", ")}`;
        }
        out.scenarios = all.filter((s) => names.includes(s.name));
        break;
      }
      case "--duration":
      case "--rounds":
      case "--connections":
      case "--sessions":
      case "--expired": {
        const n = Number(value);
        const min = name === "--duration" ? 0.05 : 1;
        if (!Number.isFinite(n) || n < min) {
          return `Invalid ${name}: "${value}"`;
        }
        const key = name.slice(2) as
          | "duration"
          | "rounds"
          | "connections"
          | "sessions"
          | "expired";
        out[key] = name === "--duration" ? n : Math.floor(n);
        break;
      }
      case "--baseline":
        out.baseline = value;
        break;
      case "--ours":
        out.ours = value;
        break;
      case "--json":
        out.json = value.startsWith("/") ? value : `${Deno.cwd()}/${value}`;
        break;
      default:
        return `Unknown option: ${name}`;
    }
  }
  return out;
}
