// Cold start (issue 31): how long a fresh process takes from its start to
// its first answered session check, as a serverless user pays it when an
// isolate wakes for their request. Each server is spawned fresh several
// times, the servers taking turns (A, B, C, then C, B, A, …), and the
// median of its runs is reported; ratios are taken run by run between
// servers started next to each other.
//
// The clock starts just before the process is spawned and stops when the
// answer to `GET /api/auth/session` (Better Auth: `get-session`) has been
// read, with a live session of a seeded store, so every server reads its
// store for the answer: on Postgres, the first query opens the connection,
// which is part of the figure. The bench's servers are found by the line
// they print once listening (./_servers.ts); the demo prints none on
// Deploy, so it is found answering by trying every millisecond.
//
// Gatehouse is started twice over: from its source files, as the bench
// runs every server, and bundled (`deno bundle --code-splitting`, see
// ../_bundle.ts), as a serverless application ships; the targets are read
// on the bundled one, and both are reported.

import { COOKIE_NAME, IDENTITY, PASSWORD, USER } from "../_fixtures.ts";
import {
  buildForDeploy,
  demoKvPath,
  ownDenoDir,
  spawnDeployDemo,
} from "../_deploy_demo.ts";
import {
  type BenchContext,
  check,
  type Scenario,
  type ScenarioResult,
  type TargetCheck,
} from "../_scenario.ts";
import { dropPostgresSchema, seedKv, seedPostgres } from "../_seed.ts";
import { startServer } from "../_servers.ts";
import { bundleServer } from "../_bundle.ts";
import { ratioSpread, type Spread, spread } from "../_stats.ts";

/** Fewest fresh starts of each server (more with a larger `--rounds`). */
const MIN_RUNS = 9;
const SCHEMA = "gatehouse_bench_cold_start";
const BETTER_AUTH_SCHEMA = "gatehouse_bench_cold_start_better_auth";
/** How long one start may take before the run fails. */
const START_TIMEOUT_MS = 60_000;
const BUNDLED_KV = "ours-kv-bundled";
const BUNDLED_PG = "ours-pg-bundled";

/** One server the scenario starts again and again. */
interface ColdServer {
  name: string;
  /** Starts it and answers the first session check's status. */
  firstAnswer(): Promise<{ status: number; stop(): Promise<void> }>;
}

/** Process start to first answered session check (opt-in). */
export const coldStart: Scenario = {
  name: "cold-start",
  description:
    "process start → first answered session check: ceiling, ours on KV and Postgres, Better Auth, the demo as Deno Deploy runs it",
  // Opt-in, like scale and reaper: it builds the demo (`deno task build`)
  // and starts about fifty processes, a minute or so.
  default: false,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const url = ctx.databaseUrl;
    const servers: ColdServer[] = [];
    const notes: string[] = [];
    try {
      servers.push(bench("ceiling", "ceiling", {
        cookieName: COOKIE_NAME,
        identity: IDENTITY,
      }, `${COOKIE_NAME}=any`));

      ctx.progress(
        "cold-start: deno bundle --code-splitting bench/servers/ours.ts",
      );
      const bundled = await bundleServer("ours");
      const kvPath = `${ctx.tmpDir}/cold-start.kv`;
      const [kvToken] = (await seedKv(kvPath)).tokens;
      // The lean hand-written check on the same file: the floor of any
      // server that opens Deno KV and reads it (Web Crypto's SHA-256, so
      // no node:crypto).
      servers.push(bench("lean-kv", "lean_kv", {
        kvPath,
        cookieName: COOKIE_NAME,
        hash: "webcrypto",
      }, `${COOKIE_NAME}=${kvToken}`));
      for (
        const [name, script] of [["ours-kv", "ours"], [BUNDLED_KV, bundled]]
      ) {
        servers.push(bench(
          name!,
          script!,
          { store: "kv", kvPath },
          `${COOKIE_NAME}=${kvToken}`,
        ));
      }

      if (url !== undefined) {
        const [pgToken] = (await seedPostgres(url, SCHEMA)).tokens;
        // The floor of any server on postgres.js: its import (node:net,
        // node:tls, node:crypto for SCRAM, …), its first connection and one
        // prepared join.
        servers.push(bench("lean-pg", "lean_pg", {
          url,
          schema: SCHEMA,
          cookieName: COOKIE_NAME,
          hash: "webcrypto",
        }, `${COOKIE_NAME}=${pgToken}`));
        for (
          const [name, script] of [["ours-pg", "ours"], [BUNDLED_PG, bundled]]
        ) {
          servers.push(bench(
            name!,
            script!,
            { store: "postgres", url, schema: SCHEMA },
            `${COOKIE_NAME}=${pgToken}`,
          ));
        }
        // Better Auth's first start makes its schema, user and session;
        // the measured ones find them there, as an application's would.
        const betterAuthConfig = {
          url,
          schema: BETTER_AUTH_SCHEMA,
          email: USER.email,
          password: PASSWORD,
          name: USER.name,
        };
        const setup = await startServer("better_auth", betterAuthConfig);
        const cookie = String(setup.info.cookie);
        await setup.stop();
        servers.push(bench(
          "better-auth",
          "better_auth",
          { ...betterAuthConfig, existing: true },
          cookie,
          "/api/auth/get-session",
        ));
      } else {
        notes.push("DATABASE_URL is not set: no Postgres or Better Auth rows");
      }

      ctx.progress("cold-start: deno task build (Deploy's build step)");
      await buildForDeploy();
      servers.push(await deployDemo(ctx.tmpDir));

      const runs = Math.max(MIN_RUNS, ctx.rounds);
      const times = await takeTurns(ctx, servers, runs);
      return report(times, runs, notes);
    } finally {
      if (url !== undefined) {
        await dropPostgresSchema(url, SCHEMA);
        await dropPostgresSchema(url, BETTER_AUTH_SCHEMA);
      }
    }
  },
};

// A server of bench/servers/, started by the harness's own startServer.
// A bundle runs as an application ships it, with a lock file of what
// Gatehouse's published modules need (deno.lock, about 70 packages), not
// the bench's dev.lock (330, test tools included): Deno sets up the npm
// resolution of the whole lock file at start when the graph names any npm
// package, as the bundle's one external import (argon2) does.
function bench(
  name: string,
  script: string,
  config: Record<string, unknown>,
  cookie: string,
  path = "/api/auth/session",
): ColdServer {
  const lock = script.endsWith(".js") ? "deno.lock" : "dev.lock";
  return {
    name,
    async firstAnswer() {
      const server = await startServer(
        script,
        config,
        {},
        START_TIMEOUT_MS,
        lock,
      );
      try {
        const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
          headers: { cookie },
        });
        await res.body?.cancel();
        if (res.status !== 200) {
          throw new Error(
            `${name} answered ${res.status}:\n${server.stderrTail()}`,
          );
        }
        return { status: res.status, stop: () => server.stop() };
      } catch (error) {
        await server.stop();
        throw error;
      }
    },
  };
}

// The demo as Deploy runs it, its KV database seeded after a first start
// (which made and migrated it) with the bench's account and one session.
async function deployDemo(tmpDir: string): Promise<ColdServer> {
  const scratch = `${tmpDir}/cold-start-demo`;
  const denoDir = await ownDenoDir(scratch);
  const first = await demoAnswer(denoDir, scratch, "");
  await first.stop();
  const [token] = (await seedKv(await demoKvPath(denoDir))).tokens;
  return {
    name: "demo-deploy",
    firstAnswer: () =>
      demoAnswer(denoDir, scratch, `${COOKIE_NAME}=${token}`, 200),
  };
}

async function demoAnswer(
  denoDir: string,
  scratch: string,
  cookie: string,
  expect?: number,
): Promise<{ status: number; stop(): Promise<void> }> {
  const demo = spawnDeployDemo(denoDir, scratch);
  const url = `http://127.0.0.1:${demo.port}/api/auth/session`;
  const deadline = performance.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      try {
        const res = await fetch(url, { headers: { cookie } });
        await res.body?.cancel();
        if (expect !== undefined && res.status !== expect) {
          throw new Error(`The demo answered ${res.status}:\n${demo.output()}`);
        }
        return { status: res.status, stop: () => demo.stop() };
      } catch (error) {
        // Refused: not listening yet. Anything else is a failure.
        if (!(error instanceof TypeError)) throw error;
        if (performance.now() > deadline) {
          throw new Error(`The demo did not answer:\n${demo.output()}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
  } catch (error) {
    await demo.stop();
    throw error;
  }
}

// One unmeasured start of each (caches filled alike), then `runs` turns,
// in alternating order; each start's time in ms, by server.
async function takeTurns(
  ctx: BenchContext,
  servers: readonly ColdServer[],
  runs: number,
): Promise<Map<string, number[]>> {
  for (const server of servers) await (await server.firstAnswer()).stop();
  const times = new Map(servers.map((s) => [s.name, [] as number[]]));
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? servers : [...servers].reverse();
    for (const server of order) {
      const t0 = performance.now();
      const started = await server.firstAnswer();
      times.get(server.name)!.push(performance.now() - t0);
      await started.stop();
    }
    ctx.progress(
      `cold-start: run ${run + 1}/${runs} ` +
        servers.map((s) =>
          `${s.name} ${times.get(s.name)!.at(-1)!.toFixed(0)} ms`
        ).join(", "),
    );
  }
  return times;
}

function report(
  times: Map<string, number[]>,
  runs: number,
  notes: string[],
): ScenarioResult {
  const metrics: Record<string, Spread> = {};
  for (const [name, values] of times) {
    metrics[`${name} ms to first answer`] = spread(values);
  }
  const ratios: Record<string, Spread> = {};
  const ratio = (a: string, b: string) => {
    const va = times.get(a);
    const vb = times.get(b);
    if (va === undefined || vb === undefined) return undefined;
    return ratios[`${a}/${b}`] = ratioSpread(va, vb);
  };
  const targets: TargetCheck[] = [];
  // The targets are read on the bundled server, as a serverless
  // application ships (README, "Serverless cold start"); the same server
  // run from its source files is reported beside it.
  ratio("ours-kv", "ceiling");
  ratio("ours-pg", "ceiling");
  ratio("lean-kv", "ceiling");
  ratio("lean-pg", "ceiling");
  ratio(BUNDLED_KV, "lean-kv");
  ratio(BUNDLED_PG, "lean-pg");
  const kv = ratio(BUNDLED_KV, "ceiling");
  if (kv) {
    targets.push(check("KV cold start, bundled, ÷ ceiling", kv.median, "<=2"));
  }
  const pg = ratio(BUNDLED_PG, "ceiling");
  if (pg) {
    targets.push(
      check(
        "Postgres cold start, bundled (connection included), ÷ ceiling",
        pg.median,
        "<=2",
      ),
    );
  }
  const versus = ratio(BUNDLED_PG, "better-auth");
  if (versus) {
    targets.push(
      check(
        "Postgres cold start ÷ Better Auth's (both on Postgres)",
        versus.median,
        "<=1",
      ),
    );
  }
  ratio("ours-pg", "better-auth");
  ratio("ours-kv", "better-auth");
  ratio("better-auth", "ceiling");
  ratio("demo-deploy", "ceiling");
  return {
    scenario: "cold-start",
    metrics,
    ratios,
    targets,
    notes: [
      ...notes,
      `${runs} fresh starts of each server, alternating; one warm-up start each first`,
      "each first check presents a live session, so each server reads its store (Postgres: connection included)",
      "bench servers run as the bench runs them (deno run --lock=dev.lock --allow-all); the demo as Deploy (deno.lock, --allow-net --allow-env --allow-read, DENO_DEPLOYMENT_ID)",
      "-bundled: bench/servers/ours.ts after deno bundle --code-splitting (bench/_bundle.ts), run the same way but with the project's deno.lock (what Gatehouse's published modules need) rather than the bench's dev.lock",
    ],
  };
}
