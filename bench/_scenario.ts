// What a scenario is, what it reports, and the alternating-rounds runner
// that every throughput comparison uses.

import { type LoadResult, runLoad } from "./_load.ts";
import type { ServerProcess } from "./_servers.ts";
import {
  fmt,
  latencyPercentiles,
  ratioSpread,
  Samples,
  type Spread,
  spread,
} from "./_stats.ts";

/** Settings shared by every scenario, from the command line. */
export interface BenchContext {
  /** Length of one measured round, ms. */
  durationMs: number;
  /** Measured rounds per variant. */
  rounds: number;
  /** Concurrent connections for throughput scenarios. */
  connections: number;
  /** Live sessions in the large store of the scale scenario. */
  scaleSessions: number;
  /** Expired sessions the reaper sweeps. */
  expiredSessions: number;
  /** The commit `reshape` compares with (anything `git rev-parse` takes). */
  baseline: string;
  /** The commit `reshape` measures; undefined: the working tree. */
  ours: string | undefined;
  /** `DATABASE_URL`, when Postgres scenarios can run. */
  databaseUrl: string | undefined;
  /** A scratch directory removed after the run. */
  tmpDir: string;
  /** Prints one progress line. */
  progress(message: string): void;
}

/** Per-round figures of one variant and their summaries. */
export interface VariantResult {
  /** Requests per second, one per round. */
  rps: number[];
  /** Median latency per round, ms. */
  p50: number[];
  /** 99th percentile latency per round, ms. */
  p99: number[];
  /**
   * CPU time of the server process (all threads) per request, µs, one per
   * round; empty where /proc is unavailable. Less noisy than req/s on a
   * shared machine: it counts work, not waiting.
   */
  cpuUs: number[];
  /** Median and range of each. */
  summary: { rps: Spread; p50: Spread; p99: Spread; cpuUs: Spread };
  /** Failed requests over all rounds (should be 0). */
  errors: number;
  /** The first failure seen, for diagnosis. */
  firstError?: string;
}

/** A target of issue 9 and whether this run met it. */
export interface TargetCheck {
  /** What is compared, in words. */
  name: string;
  /** The median measured. */
  value: number;
  /** `>= x` or `<= x`, or a range `a..b`. */
  target: string;
  /** Whether the median is on the right side. */
  met: boolean;
}

/** What a scenario hands back to the report. */
export interface ScenarioResult {
  /** The scenario's name. */
  scenario: string;
  /** Why it did not run, when it did not. */
  skipped?: string;
  /** Throughput variants, by name. */
  variants?: Record<string, VariantResult>;
  /** Ratios computed round by round, by `a/b` label. */
  ratios?: Record<string, Spread>;
  /** Other measurements (ms, bytes, counts), by label. */
  metrics?: Record<string, Spread | number>;
  /** Targets checked against the medians. */
  targets?: TargetCheck[];
  /** Anything a reader needs to interpret the numbers. */
  notes?: string[];
}

/** A runnable scenario. */
export interface Scenario {
  name: string;
  /** One line for `--help`. */
  description: string;
  /** Whether a plain `deno task bench` runs it. */
  default: boolean;
  run(ctx: BenchContext): Promise<ScenarioResult>;
}

/** One side of a comparison: where to send which requests. */
/** One side of a comparison: HTTP load on a server, or a timed call. */
export type Variant = HttpVariant | CallVariant;

/** Closed-loop HTTP load on a server process. */
export interface HttpVariant {
  name: string;
  /** The server process under test. */
  server: ServerProcess;
  requests: readonly Uint8Array[];
  /** Connections for this variant; the context's by default. */
  connections?: number;
  /** Expected status; 200 by default. */
  expectStatus?: number;
  /** Generates the load itself instead of bench/_load.ts (loadgen check). */
  run?(durationMs: number): Promise<LoadResult>;
}

/** An in-process call made back to back (e.g. a raw argon2 verify). */
export interface CallVariant {
  name: string;
  call(): Promise<unknown>;
}

/** A load run and the server CPU it cost, µs per request (NaN if unknown). */
export type MeasuredRun = LoadResult & { cpuUs: number };

/** Runs one variant for `durationMs` (or until `until` settles). */
export async function measure(
  ctx: BenchContext,
  v: Variant,
  durationMs: number,
  until?: Promise<unknown>,
): Promise<MeasuredRun> {
  if ("call" in v) return { ...await timeCalls(v, durationMs), cpuUs: NaN };
  const before = v.server.cpuSeconds();
  const result = v.run ? await v.run(durationMs) : await runLoad({
    port: v.server.port,
    requests: v.requests,
    connections: v.connections ?? ctx.connections,
    durationMs,
    expectStatus: v.expectStatus ?? 200,
    ...(until ? { until } : {}),
  });
  const after = v.server.cpuSeconds();
  const total = result.requests + result.errors;
  return { ...result, cpuUs: ((after - before) * 1e6) / total };
}

// Sequential calls for a bounded time; at least three so that a slow call
// in a short round still yields a median.
async function timeCalls(
  v: CallVariant,
  durationMs: number,
): Promise<LoadResult> {
  const samples = new Samples();
  const start = performance.now();
  const deadline = start + durationMs;
  while (performance.now() < deadline || samples.length < 3) {
    const t0 = performance.now();
    await v.call();
    samples.push(performance.now() - t0);
  }
  const seconds = (performance.now() - start) / 1000;
  const { p50, p99 } = latencyPercentiles(samples.values());
  return {
    requests: samples.length,
    errors: 0,
    seconds,
    rps: samples.length / seconds,
    p50,
    p99,
  };
}

/** Options of {@linkcode alternate}. */
export interface AlternateOptions {
  /**
   * Turns each variant takes per round (1 by default): with 4, a round
   * runs A, B, B, A, A, B, B, A for a quarter of the round's duration
   * each, and each variant's round figures sum its turns. Finer turns let
   * two variants share the same seconds of a drifting machine, as an
   * on ÷ off ratio within a few per cent needs.
   */
  turns?: number;
}

/**
 * Runs every variant once per round, in the same order each round
 * (A, B, C, A, B, C, …) after a short warm-up of each, so that drift of the
 * machine hits all variants alike and ratios can be taken round by round.
 * Throws when a variant answered wrongly: it would have measured errors.
 */
export async function alternate(
  ctx: BenchContext,
  variants: readonly Variant[],
  label: string,
  options: AlternateOptions = {},
): Promise<Record<string, VariantResult>> {
  const turns = options.turns ?? 1;
  const warmupMs = Math.min(1000, ctx.durationMs);
  for (const v of variants) await measure(ctx, v, warmupMs);
  const runs = new Map<string, MeasuredRun[]>(
    variants.map((v) => [v.name, []]),
  );
  for (let round = 1; round <= ctx.rounds; round++) {
    const turnsOf = new Map<string, MeasuredRun[]>(
      variants.map((v) => [v.name, []]),
    );
    for (let turn = 0; turn < turns; turn++) {
      // A, B, then B, A: who goes first (right after the other's load) and
      // a steady drift favour neither.
      const order = turn % 2 === 0 ? variants : [...variants].reverse();
      for (const v of order) {
        turnsOf.get(v.name)!.push(
          await measure(ctx, v, ctx.durationMs / turns),
        );
      }
    }
    for (const v of variants) {
      runs.get(v.name)!.push(combine(turnsOf.get(v.name)!));
    }
    ctx.progress(
      `${label}: round ${round}/${ctx.rounds} ` +
        variants.map((v) => {
          const last = runs.get(v.name)!.at(-1)!;
          return `${v.name} ${fmt(last.rps)}/s p50 ${fmt(last.p50)} ms`;
        }).join(", "),
    );
  }
  const out: Record<string, VariantResult> = {};
  for (const v of variants) {
    const result = out[v.name] = summarise(runs.get(v.name)!);
    if (result.errors > 0) {
      const log = "server" in v ? v.server.stderrTail().trim() : "";
      throw new Error(
        `Variant "${v.name}" answered ${result.errors} requests wrongly: ${result.firstError}` +
          (log ? `\nserver stderr:\n${log}` : ""),
      );
    }
  }
  return out;
}

// One round's figures from its turns: requests and time add up; the
// latency percentiles are the median of the turns' (the samples are gone).
function combine(turns: readonly MeasuredRun[]): MeasuredRun {
  if (turns.length === 1) return turns[0]!;
  const sum = (f: (r: MeasuredRun) => number) =>
    turns.reduce((n, r) => n + f(r), 0);
  const requests = sum((r) => r.requests);
  const errors = sum((r) => r.errors);
  const seconds = sum((r) => r.seconds);
  const firstError = turns.find((r) => r.firstError)?.firstError;
  return {
    requests,
    errors,
    seconds,
    rps: requests / seconds,
    p50: spread(turns.map((r) => r.p50)).median,
    p99: spread(turns.map((r) => r.p99)).median,
    cpuUs: sum((r) => r.cpuUs * (r.requests + r.errors)) / (requests + errors),
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/** Per-round figures of several load runs, summarised. */
export function summarise(results: readonly MeasuredRun[]): VariantResult {
  const rps = results.map((r) => r.rps);
  const p50 = results.map((r) => r.p50);
  const p99 = results.map((r) => r.p99);
  const cpuUs = results.map((r) => r.cpuUs).filter(Number.isFinite);
  const errors = results.reduce((n, r) => n + r.errors, 0);
  const firstError = results.find((r) => r.firstError)?.firstError;
  return {
    rps,
    p50,
    p99,
    cpuUs,
    summary: {
      rps: spread(rps),
      p50: spread(p50),
      p99: spread(p99),
      cpuUs: spread(cpuUs),
    },
    errors,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/** Throughput ratios `a/b` for each pair, round by round. */
export function throughputRatios(
  variants: Record<string, VariantResult>,
  pairs: ReadonlyArray<readonly [string, string]>,
): Record<string, Spread> {
  return ratiosOf(variants, pairs, "rps", "");
}

/** Checks a median against `>= x`, `<= x` or `a..b`. */
export function check(
  name: string,
  value: number,
  target: string,
): TargetCheck {
  let met: boolean;
  if (target.startsWith(">=")) met = value >= Number(target.slice(2));
  else if (target.startsWith("<=")) met = value <= Number(target.slice(2));
  else {
    const [lo, hi] = target.split("..").map(Number);
    met = value >= lo! && value <= hi!;
  }
  return { name, value, target, met };
}

/** Latency ratios `a/b` of `field` for each pair, round by round. */
export function latencyRatios(
  variants: Record<string, VariantResult>,
  pairs: ReadonlyArray<readonly [string, string]>,
  field: "p50" | "p99",
): Record<string, Spread> {
  return ratiosOf(variants, pairs, field, ` ${field}`);
}

/**
 * Ratios `a/b` of the server CPU per request for each pair, round by
 * round: steadier than req/s on a shared machine, since it counts work,
 * not waiting.
 */
export function cpuRatios(
  variants: Record<string, VariantResult>,
  pairs: ReadonlyArray<readonly [string, string]>,
): Record<string, Spread> {
  return ratiosOf(variants, pairs, "cpuUs", " server CPU µs/req");
}

function ratiosOf(
  variants: Record<string, VariantResult>,
  pairs: ReadonlyArray<readonly [string, string]>,
  field: "rps" | "p50" | "p99" | "cpuUs",
  suffix: string,
): Record<string, Spread> {
  const out: Record<string, Spread> = {};
  for (const [a, b] of pairs) {
    const va = variants[a];
    const vb = variants[b];
    if (va && vb) out[`${a}/${b}${suffix}`] = ratioSpread(va[field], vb[field]);
  }
  return out;
}
