// Interleaved ratios: the way a bench compares two kinds of request that
// must cost the same (equal work), one against its floor, or one server
// against another one request at a time.

import { runLoad } from "./_load.ts";
import type { BenchContext } from "./_scenario.ts";
import { type Spread, spread } from "./_stats.ts";

/** A raw request, to the scenario's port or to a port of its own. */
export type Target = Uint8Array | { port: number; bytes: Uint8Array };

/** What {@linkcode interleaved} measured. */
export interface InterleavedResult {
  /** Per-round ratio of the medians, first side over second. */
  ratio: Spread;
  /** Per-round median latency of each side, ms. */
  p50: [Spread, Spread];
}

/**
 * Two kinds of request alternating one by one on a single connection (or
 * one connection per server): both meet the same machine conditions, which
 * separate back-to-back runs on a shared machine do not (they drift by more
 * than the 5% an equal-work target allows). A side may be one request or a
 * list that it goes through in turn (e.g. one request per session), so the
 * loop sends first[0], second[0], first[1], second[1], …
 */
export async function interleaved(
  ctx: BenchContext,
  label: string,
  port: number,
  sides: readonly [Target | readonly Target[], Target | readonly Target[]],
  expectStatus: number,
): Promise<InterleavedResult> {
  const asList = (side: Target | readonly Target[]): readonly Target[] =>
    Array.isArray(side) ? side : [side as Target];
  const first = asList(sides[0]);
  const second = asList(sides[1]);
  const requests: Target[] = [];
  const groups: number[] = [];
  for (let i = 0; i < Math.max(first.length, second.length); i++) {
    requests.push(first[i % first.length]!, second[i % second.length]!);
    groups.push(0, 1);
  }
  const ratios: number[] = [];
  const firsts: number[] = [];
  const seconds: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const run = await runLoad({
      port,
      requests,
      connections: 1,
      durationMs: ctx.durationMs,
      expectStatus,
      groups,
    });
    if (run.errors > 0) {
      throw new Error(
        `${label}: ${run.errors} requests answered wrongly: ${run.firstError}`,
      );
    }
    const [a, b] = run.p50ByGroup as [number, number];
    firsts.push(a);
    seconds.push(b);
    ratios.push(a / b);
    ctx.progress(
      `${label}, interleaved round ${round}/${ctx.rounds}: ${
        (a / b).toFixed(3)
      }`,
    );
  }
  return { ratio: spread(ratios), p50: [spread(firsts), spread(seconds)] };
}
