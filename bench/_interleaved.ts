// Interleaved ratios: the way a bench compares two kinds of request that
// must cost the same (equal work) or one against its floor.

import { runLoad } from "./_load.ts";
import type { BenchContext } from "./_scenario.ts";
import { type Spread, spread } from "./_stats.ts";

// Two kinds of request alternating one by one on a single connection (or
// one connection per server): both meet the same machine conditions, which
// separate back-to-back runs on a shared machine do not (they drift by more
// than the 5% the equal-work target allows). Returns the per-round ratio of
// the medians, first over second.
export async function interleaved(
  ctx: BenchContext,
  label: string,
  port: number,
  requests: readonly [
    Uint8Array | { port: number; bytes: Uint8Array },
    Uint8Array | { port: number; bytes: Uint8Array },
  ],
  expectStatus: number,
): Promise<Spread> {
  const ratios: number[] = [];
  for (let round = 1; round <= ctx.rounds; round++) {
    const run = await runLoad({
      port,
      requests,
      connections: 1,
      durationMs: ctx.durationMs,
      expectStatus,
      splitByRequest: true,
    });
    const [first, second] = run.p50ByRequest!;
    ratios.push(first! / second!);
    ctx.progress(
      `${label}, interleaved round ${round}/${ctx.rounds}: ${
        (first! / second!).toFixed(3)
      }`,
    );
  }
  return spread(ratios);
}
