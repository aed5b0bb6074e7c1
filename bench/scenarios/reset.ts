// Reset requests do equal work (DESIGN.md §5): a known, an unknown and a
// disabled address make the same store reads and writes before the 202, so
// their latencies match. Known ÷ unknown and disabled ÷ unknown, each pair
// interleaved request by request on one connection, on KV and (with
// DATABASE_URL) Postgres. The limiter counts nothing (every request is a
// counted 202); the mailer drops the mail.

import { DISABLED_USER, USER } from "../_fixtures.ts";
import { interleaved } from "../_interleaved.ts";
import { resetRequest } from "../_requests.ts";
import type { Spread } from "../_stats.ts";
import {
  type BenchContext,
  check,
  type Scenario,
  type ScenarioResult,
  type TargetCheck,
} from "../_scenario.ts";
import { dropPostgresSchema, seedKv, seedPostgres } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";

const SCHEMA = "gatehouse_bench_reset";
const OURS = { reset: true, without: ["limiter-counts"] };

/** Equal work of reset requests for known, unknown and disabled addresses. */
export const reset: Scenario = {
  name: "reset",
  description:
    "reset-request equal work: known ÷ unknown and disabled ÷ unknown, KV and Postgres",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const kvPath = `${ctx.tmpDir}/reset.kv`;
    await seedKv(kvPath, { disabled: true });
    const servers: Array<[string, ServerProcess]> = [
      ["kv", await startServer("ours", { store: "kv", kvPath, ...OURS })],
    ];
    const notes = [
      "each pair alternates request by request on one connection; each round compares their medians",
    ];
    try {
      if (ctx.databaseUrl !== undefined) {
        await seedPostgres(ctx.databaseUrl, SCHEMA, { disabled: true });
        servers.push([
          "postgres",
          await startServer("ours", {
            store: "postgres",
            url: ctx.databaseUrl,
            schema: SCHEMA,
            ...OURS,
          }),
        ]);
      } else {
        notes.push("Postgres skipped: DATABASE_URL is not set");
      }
      const unknown = resetRequest("nobody@example.com");
      const ratios: Record<string, Spread> = {};
      const targets: TargetCheck[] = [];
      for (const [store, server] of servers) {
        for (
          const [kind, email] of [
            ["known", USER.email],
            ["disabled", DISABLED_USER.email],
          ] as const
        ) {
          const label = `${kind}/unknown reset request p50 (${store})`;
          const { ratio } = await interleaved(
            ctx,
            `reset (${store}): ${kind} ÷ unknown`,
            server.port,
            [resetRequest(email), unknown],
            202,
          );
          ratios[`${label}, interleaved`] = ratio;
          targets.push(check(label, ratio.median, "0.95..1.05"));
        }
      }
      return { scenario: "reset", ratios, targets, notes };
    } finally {
      await Promise.all(servers.map(([, server]) => server.stop()));
      if (ctx.databaseUrl !== undefined) {
        await dropPostgresSchema(ctx.databaseUrl, SCHEMA);
      }
    }
  },
};
