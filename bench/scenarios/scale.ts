// Scale: does the session check slow down as the store fills up? The same
// server code on two stores: one with 1 000 live sessions, one with
// `--sessions` (1 000 000 by default). The load presents 1 000 different
// probe sessions in turn, so lookups are not all one cached row.

import {
  alternate,
  type BenchContext,
  check,
  latencyRatios,
  type Scenario,
  type ScenarioResult,
  type Variant,
} from "../_scenario.ts";
import { dropPostgresSchema, seedKv, seedPostgres } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { sessionRequest } from "../_requests.ts";

const PROBES = 1000;

/** The session check with few and with many live sessions (opt-in). */
export const scale: Scenario = {
  name: "scale",
  description:
    "session-check p50 with 1 000 vs --sessions live sessions (KV, and Postgres with DATABASE_URL)",
  // Opt-in: seeding --sessions live sessions takes minutes on KV.
  default: false,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const big = Math.max(ctx.scaleSessions, PROBES);
    const label = (n: number) => n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`;
    const servers: ServerProcess[] = [];
    const variants: Variant[] = [];
    const metrics: Record<string, number> = {};
    const schemas: string[] = [];
    try {
      for (const n of [PROBES, big]) {
        const started = performance.now();
        const kvPath = `${ctx.tmpDir}/scale-${n}.kv`;
        const { tokens } = await seedKv(kvPath, {
          probes: PROBES,
          bulkLive: n - PROBES,
        });
        metrics[`kv seed ${label(n)} s`] = (performance.now() - started) /
          1000;
        ctx.progress(`scale: KV store with ${label(n)} sessions seeded`);
        const server = await startServer("ours", { store: "kv", kvPath });
        servers.push(server);
        variants.push({
          name: `ours-kv-${label(n)}`,
          server,
          requests: tokens.map(sessionRequest),
        });
      }
      const url = ctx.databaseUrl;
      if (url !== undefined) {
        for (const n of [PROBES, big]) {
          const started = performance.now();
          const schema = `gatehouse_bench_scale_${n}`;
          schemas.push(schema);
          const { tokens } = await seedPostgres(url, schema, {
            probes: PROBES,
            bulkLive: n - PROBES,
          });
          metrics[`pg seed ${label(n)} s`] = (performance.now() - started) /
            1000;
          ctx.progress(
            `scale: Postgres store with ${label(n)} sessions seeded`,
          );
          const server = await startServer("ours", {
            store: "postgres",
            url,
            schema,
          });
          servers.push(server);
          variants.push({
            name: `ours-pg-${label(n)}`,
            server,
            requests: tokens.map(sessionRequest),
          });
        }
      }
      const results = await alternate(ctx, variants, "scale");
      const pairs: Array<[string, string]> = [
        [`ours-kv-${label(big)}`, `ours-kv-${label(PROBES)}`],
      ];
      if (url !== undefined) {
        pairs.push([`ours-pg-${label(big)}`, `ours-pg-${label(PROBES)}`]);
      }
      const ratios = latencyRatios(results, pairs, "p50");
      return {
        scenario: "scale",
        variants: results,
        ratios,
        metrics,
        targets: Object.entries(ratios).map(([name, s]) =>
          check(`session-check ${name}`, s.median, "<=1.2")
        ),
        notes: [
          `${PROBES} probe sessions presented in turn; the other sessions are written in bulk in the store's own layout`,
          ...(url === undefined
            ? ["Postgres skipped: DATABASE_URL is not set"]
            : []),
        ],
      };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      for (const schema of schemas) {
        await dropPostgresSchema(ctx.databaseUrl!, schema);
      }
    }
  },
};
