// Load generator check: how many requests per second each way of
// generating load gets out of the ceiling server on this machine. The raw
// socket generator of bench/_load.ts must be well above every server we
// measure, or the ratios would measure the generator. Opt-in.

import { COOKIE_NAME } from "../_fixtures.ts";
import type { LoadResult } from "../_load.ts";
import {
  alternate,
  type BenchContext,
  type Scenario,
  type ScenarioResult,
  throughputRatios,
} from "../_scenario.ts";
import { latencyPercentiles, Samples } from "../_stats.ts";
import { sessionRequest } from "../_requests.ts";
import { startCeiling } from "../_session_check.ts";

const TOKEN = "a".repeat(43);

// The obvious generator: 50 concurrent `fetch` loops (keep-alive pool).
async function fetchLoad(
  port: number,
  connections: number,
  durationMs: number,
): Promise<LoadResult> {
  const samples = new Samples();
  const url = `http://127.0.0.1:${port}/api/auth/session`;
  const headers = { cookie: `${COOKIE_NAME}=${TOKEN}` };
  const start = performance.now();
  const deadline = start + durationMs;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      samples.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  return {
    requests: samples.length,
    errors: 0,
    seconds,
    rps: samples.length / seconds,
    ...latencyPercentiles(samples.values()),
  };
}

/** The raw-socket load generator ÷ a fetch loop, against the ceiling (opt-in). */
export const loadgen: Scenario = {
  name: "loadgen",
  description: "raw-socket load generator vs a fetch loop, against the ceiling",
  default: false,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const ceiling = await startCeiling();
    try {
      const variants = await alternate(ctx, [
        {
          name: "raw-sockets",
          server: ceiling,
          requests: [sessionRequest(TOKEN)],
        },
        {
          name: "fetch-loop",
          server: ceiling,
          requests: [],
          run: (durationMs) =>
            fetchLoad(ceiling.port, ctx.connections, durationMs),
        },
      ], "loadgen");
      return {
        scenario: "loadgen",
        variants,
        ratios: throughputRatios(variants, [["raw-sockets", "fetch-loop"]]),
        notes: ["both against the ceiling server with 50 connections"],
      };
    } finally {
      await ceiling.stop();
    }
  },
};
