// Reshape: the code under test beside an earlier commit of Gatehouse, in
// one run, on the same machine, store kind, seed and load. Issue 27 asks
// that reshaping the code cost nothing: the session check's req/s on KV
// and Postgres and the login's p50 within 3 % of the baseline.
//
// The baseline (`--baseline`, c25f636 by default: issue 26's defect fixes,
// the last commit before the reshaping proper) is unpacked into a scratch
// directory with `git archive` and runs its own bench/servers/ours.ts and
// its own bench/_seed.ts, with its own lock file and node_modules. Each
// side gets a store of its own, seeded alike by its own store code: an
// older commit may refuse a newer Postgres schema, and one side's logins
// must not end the other's sessions or fill its audit trail.
//
// - Session check: `GET /api/auth/session`, 50 connections over the same
//   500 sessions of the fixture account (the session-kv and session-pg
//   load), alternating rounds of four turns (A, B, B, A, …) as the on ÷ off
//   rows do, since the target is a few per cent.
// - Login: a member account at its session cap (each login also ends the
//   oldest session), one request at a time, ours and the baseline
//   alternating request by request (interleaved), after a short warm-up.

import { PASSWORD } from "../_fixtures.ts";
import { interleaved } from "../_interleaved.ts";
import { UNCOUNTED_LOGINS } from "../_login.ts";
import { loginRequest, sessionRequest } from "../_requests.ts";
import {
  alternate,
  type BenchContext,
  check,
  cpuRatios,
  type Scenario,
  type ScenarioResult,
  throughputRatios,
} from "../_scenario.ts";
import { dropPostgresSchema, memberEmail } from "../_seed.ts";
import { type ServerProcess, startServerIn } from "../_servers.ts";
import { SESSION_PROBES } from "../_session_check.ts";
import {
  seedIn,
  type SourceTree,
  sourceTree,
  type TreeStore,
} from "../_trees.ts";

// Within 3 % of the baseline: req/s at least 0.97 of it; a p50 at most
// 1/0.97 of it (the baseline's p50 ÷ ours at least 0.97).
const AT_LEAST = 0.97;
const LOGIN_AT_MOST = Math.floor((1 / AT_LEAST) * 1000) / 1000;
const TURNS = 4;
// The cap of sessions per account (DEFAULT_LIMITS): the login account is
// seeded at it, so every measured login ends its oldest session.
const SESSION_CAP = 50;

type Side = "baseline" | "ours";

/** The code under test ÷ a baseline commit (opt-in: it unpacks a tree). */
export const reshape: Scenario = {
  name: "reshape",
  description:
    "ours ÷ a baseline commit (--baseline, default c25f636): session-check req/s and login p50, KV and Postgres",
  default: false,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const trees: Partial<Record<Side, SourceTree>> = {};
    const schemas: string[] = [];
    const result: ScenarioResult = {
      scenario: "reshape",
      variants: {},
      ratios: {},
      metrics: {},
      targets: [],
      notes: [],
    };
    try {
      ctx.progress(`reshape: unpacking ${ctx.baseline}`);
      trees.baseline = await sourceTree(ctx.baseline, ctx.tmpDir);
      if (ctx.ours !== undefined) {
        ctx.progress(`reshape: unpacking ${ctx.ours}`);
      }
      trees.ours = await sourceTree(ctx.ours, ctx.tmpDir);
      const both = trees as Record<Side, SourceTree>;
      const stores: Array<{
        label: string;
        name: string;
        target(side: Side): TreeStore;
      }> = [{
        label: "kv",
        name: "KV",
        target: (side) => ({
          store: "kv",
          kvPath: `${ctx.tmpDir}/reshape-${side}.kv`,
        }),
      }];
      const url = ctx.databaseUrl;
      if (url !== undefined) {
        stores.push({
          label: "pg",
          name: "Postgres",
          target: (side) => {
            const schema = `gatehouse_bench_reshape_${side}`;
            if (!schemas.includes(schema)) schemas.push(schema);
            return { store: "postgres", url, schema };
          },
        });
      }
      for (const store of stores) {
        const part = await onStore(ctx, both, store);
        Object.assign(result.variants!, part.variants);
        Object.assign(result.ratios!, part.ratios);
        Object.assign(result.metrics!, part.metrics);
        result.targets!.push(...part.targets);
      }
      result.notes!.push(
        `baseline: ${both.baseline.label} (${ctx.baseline}); ours: ${both.ours.label}`,
        "each side runs its own commit's bench/servers/ours.ts on a store of its own, seeded alike by its own bench/_seed.ts",
        `session check: ${ctx.connections} connections over the fixture account's ${SESSION_PROBES} sessions, ${TURNS} turns a round (A, B, B, A, …); ratios are ours ÷ baseline req/s`,
        `login: a member account at its cap of ${SESSION_CAP} sessions, one request at a time, ours and the baseline alternating request by request; ratios are ours ÷ baseline p50, so within 3 % is ≤ ${LOGIN_AT_MOST} (baseline ÷ ours ≥ ${AT_LEAST})`,
      );
      if (url === undefined) {
        result.notes!.push("Postgres skipped: DATABASE_URL is not set");
      }
      return result;
    } finally {
      await Promise.all(Object.values(trees).map((t) => t.remove()));
      if (ctx.databaseUrl !== undefined) {
        for (const schema of schemas) {
          await dropPostgresSchema(ctx.databaseUrl, schema);
        }
      }
    }
  },
};

async function onStore(
  ctx: BenchContext,
  trees: Record<Side, SourceTree>,
  store: { label: string; name: string; target(side: Side): TreeStore },
) {
  const sides: Side[] = ["baseline", "ours"];
  const tokens = {} as Record<Side, string[]>;
  // One after the other: the machine has two cores.
  for (const side of sides) {
    ctx.progress(`reshape (${store.name}): seeding ${trees[side].label}`);
    tokens[side] = await seedIn(trees[side], store.target(side), {
      probes: SESSION_PROBES,
      members: [{ count: 1, sessions: SESSION_CAP }],
    });
  }
  const name = (side: Side) => `${store.label}-${side}`;
  const start = (side: Side, extra: Record<string, unknown> = {}) =>
    startServerIn(trees[side].root, "ours", {
      ...store.target(side),
      ...extra,
    });

  // Session checks: Gatehouse as configured by default.
  let servers: ServerProcess[] = await Promise.all(sides.map((s) => start(s)));
  let variants;
  try {
    variants = await alternate(
      ctx,
      sides.map((side, i) => ({
        name: name(side),
        server: servers[i]!,
        requests: tokens[side].map(sessionRequest),
      })),
      `reshape (${store.name}): session check`,
      { turns: TURNS },
    );
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  const pair = [[name("ours"), name("baseline")]] as const;
  const ratios = {
    ...throughputRatios(variants, pair),
    ...cpuRatios(variants, pair),
  };
  const sessionCheck = ratios[`${name("ours")}/${name("baseline")}`]!;

  // Logins, as the login scenario runs ours: the limiter's counts not
  // stored, the audit trail on.
  servers = await Promise.all(sides.map((s) => start(s, UNCOUNTED_LOGINS)));
  try {
    const [base, ours] = servers as [ServerProcess, ServerProcess];
    const login = loginRequest(memberEmail(0), PASSWORD);
    const label = `reshape (${store.name}): login ours ÷ baseline`;
    const requests = [login, { port: base.port, bytes: login }] as const;
    // Untimed: JIT and the stores' first reads, on both sides alike.
    await interleaved(
      { ...ctx, rounds: 1, durationMs: Math.min(1000, ctx.durationMs) },
      `${label} (warm-up)`,
      ours.port,
      requests,
      200,
    );
    const logins = await interleaved(ctx, label, ours.port, requests, 200);
    const loginLabel = `${pair[0][0]}/${pair[0][1]} login p50, interleaved`;
    ratios[loginLabel] = logins.ratio;
    return {
      variants,
      ratios,
      metrics: {
        [`${store.name} login p50 ms, ours`]: logins.p50[0],
        [`${store.name} login p50 ms, baseline`]: logins.p50[1],
      },
      targets: [
        check(
          `${store.name}: session check, ours ÷ baseline, req/s`,
          sessionCheck.median,
          `>=${AT_LEAST}`,
        ),
        check(
          `${store.name}: login, ours ÷ baseline, p50 (interleaved)`,
          logins.ratio.median,
          `<=${LOGIN_AT_MOST}`,
        ),
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
