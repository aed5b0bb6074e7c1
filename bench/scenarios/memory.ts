// Memory (issue 31): the resident memory of one server process under the
// session-check load while its store holds `--sessions` live sessions
// (100 000 by default), beside the ceiling's and Better Auth's.
//
// Each server runs in its own process (./_servers.ts); its RSS comes from
// /proc/<pid>/status: VmRSS when started and idle, VmHWM (the kernel's own
// peak, exact, not sampled) after the load, and VmRSS again once the load
// has stopped and a second has passed. The load is the session-check
// scenarios': 50 connections presenting 500 distinct probe sessions in
// turn, in alternating rounds (the req/s say the load was real). The
// stores are seeded as the scale scenario seeds them: probe sessions
// through the real `startSession`, the rest in bulk in the store's own
// layout. Better Auth's store is its own schema, with its one signed-in
// session (the one it is asked about, as in session-pg) and the rest
// inserted in bulk into its `session` table.

import postgres from "postgres";
import { httpRequest } from "../_load.ts";
import { pidListeningOn, type Rss, rssOf } from "../_rss.ts";
import {
  alternate,
  type BenchContext,
  type HttpVariant,
  type Scenario,
  type ScenarioResult,
} from "../_scenario.ts";
import { dropPostgresSchema, seedKv, seedPostgres } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { SESSION_PROBES, startCeiling } from "../_session_check.ts";
import { sessionRequest } from "../_requests.ts";
import { PASSWORD, USER } from "../_fixtures.ts";

/** Schemas of this scenario: its own, so a concurrent run of others is untouched. */
const SCHEMA = "gatehouse_bench_memory";
const BETTER_AUTH_SCHEMA = "gatehouse_bench_memory_better_auth";
/** How long after the load the "after" reading waits (timers, GC). */
const SETTLE_MS = 1000;

/** A server under load and the process whose memory is read. */
interface Measured {
  variant: HttpVariant;
  pid: number;
  idle: Rss;
}

/** Resident memory under the session-check load (opt-in). */
export const memory: Scenario = {
  name: "memory",
  description:
    "resident memory (RSS, MiB) of one server under the session-check load with --sessions live sessions: ceiling, ours on KV (and Postgres), Better Auth (with DATABASE_URL)",
  // Opt-in: seeding --sessions live sessions in KV takes tens of seconds.
  default: false,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const sessions = Math.max(ctx.scaleSessions, SESSION_PROBES);
    const url = ctx.databaseUrl;
    const metrics: Record<string, number> = {};
    const servers: ServerProcess[] = [];
    const measured: Measured[] = [];
    const timed = async <T>(label: string, work: () => Promise<T>) => {
      const t0 = performance.now();
      const out = await work();
      metrics[label] = (performance.now() - t0) / 1000;
      return out;
    };
    // Every server started is stopped at the end, measured or not.
    const started = async (starting: Promise<ServerProcess>) => {
      const server = await starting;
      servers.push(server);
      return server;
    };
    const add = (
      name: string,
      server: ServerProcess,
      requests: readonly Uint8Array[],
    ) => {
      const pid = pidListeningOn(server.port);
      const idle = pid === null ? null : rssOf(pid);
      if (pid === null || idle === null) {
        throw new Error(`No /proc entry for the "${name}" server`);
      }
      measured.push({ variant: { name, server, requests }, pid, idle });
    };
    try {
      const kvPath = `${ctx.tmpDir}/memory.kv`;
      const kv = await timed(
        "kv seed s",
        () =>
          seedKv(kvPath, {
            probes: SESSION_PROBES,
            bulkLive: sessions - SESSION_PROBES,
          }),
      );
      ctx.progress(`memory: KV store with ${sessions} sessions seeded`);
      add(
        "ceiling",
        await started(startCeiling()),
        kv.tokens.map(sessionRequest),
      );
      add(
        "ours-kv",
        await started(startServer("ours", { store: "kv", kvPath })),
        kv.tokens.map(sessionRequest),
      );
      if (url !== undefined) {
        const pg = await timed(
          "pg seed s",
          () =>
            seedPostgres(url, SCHEMA, {
              probes: SESSION_PROBES,
              bulkLive: sessions - SESSION_PROBES,
            }),
        );
        ctx.progress(`memory: Postgres store with ${sessions} sessions seeded`);
        add(
          "ours-pg",
          await started(
            startServer("ours", { store: "postgres", url, schema: SCHEMA }),
          ),
          pg.tokens.map(sessionRequest),
        );
        // Better Auth creates its schema when it starts: its store is
        // filled after that, and its idle RSS read once it is (by add).
        const betterAuth = await started(startServer("better_auth", {
          url,
          schema: BETTER_AUTH_SCHEMA,
          email: USER.email,
          password: PASSWORD,
          name: USER.name,
        }));
        await timed(
          "better-auth seed s",
          () => seedBetterAuth(url, sessions - 1),
        );
        ctx.progress(`memory: Better Auth store with ${sessions} sessions`);
        add("better-auth", betterAuth, [
          httpRequest("GET", "/api/auth/get-session", {
            cookie: String(betterAuth.info.cookie),
          }),
        ]);
      }

      const variants = await alternate(
        ctx,
        measured.map((m) => m.variant),
        "memory",
      );
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      for (const { variant, pid, idle } of measured) {
        const after = rssOf(pid);
        if (after === null) {
          throw new Error(`The "${variant.name}" server exited under load`);
        }
        metrics[`${variant.name} RSS idle MiB`] = idle.now;
        metrics[`${variant.name} RSS peak MiB`] = after.peak;
        metrics[`${variant.name} RSS after load MiB`] = after.now;
      }
      const ours = metrics["ours-kv RSS peak MiB"]!;
      const ceiling = metrics["ceiling RSS peak MiB"]!;
      metrics["ours-kv/ceiling peak RSS"] = ours / ceiling;
      if (url !== undefined) {
        metrics["ours-pg/better-auth peak RSS"] =
          metrics["ours-pg RSS peak MiB"]! /
          metrics["better-auth RSS peak MiB"]!;
      }
      return {
        scenario: "memory",
        variants,
        metrics,
        notes: [
          `${sessions} live sessions in each store (${SESSION_PROBES} probe sessions presented in turn, the rest written in bulk); the ceiling has no store`,
          "RSS from /proc/<pid>/status: idle = VmRSS after start, peak = VmHWM (the process's peak since it started, load included), after load = VmRSS 1 s after the last round",
          ...(url === undefined
            ? ["Postgres and Better Auth skipped: DATABASE_URL is not set"]
            : [
              "Better Auth on Postgres in its own schema: its one signed-in session is the one asked about (as in session-pg); the others are rows of its session table",
            ]),
        ],
      };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      if (url !== undefined) {
        await dropPostgresSchema(url, SCHEMA);
        await dropPostgresSchema(url, BETTER_AUTH_SCHEMA);
      }
    }
  },
};

// `count` more live sessions of Better Auth's one account, in its own
// `session` table (one INSERT … SELECT, as ours are on Postgres): random
// tokens, a week to live, like the sessions it issues itself.
async function seedBetterAuth(url: string, count: number): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const table = `"${BETTER_AUTH_SCHEMA}"."session"`;
    await sql.unsafe(
      `INSERT INTO ${table}
         (id, token, "userId", "expiresAt", "createdAt", "updatedAt")
       SELECT gen_random_uuid()::text,
              encode(sha256(gen_random_uuid()::text::bytea), 'hex'),
              (SELECT id FROM "${BETTER_AUTH_SCHEMA}"."user" LIMIT 1),
              now() + interval '7 days', now(), now()
       FROM generate_series(1, $1)`,
      [count],
    );
    await sql.unsafe(`ANALYZE ${table}`);
  } finally {
    await sql.end();
  }
}
