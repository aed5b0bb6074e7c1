// Session check on PostgreSQL: ceiling, the lean hand-written check (one
// prepared join, Web Crypto and node:crypto hashing), Gatehouse's
// PostgresStore behind `requireSession`, and Better Auth's
// `GET /api/auth/get-session`, all on the same database; then ours and
// the node:crypto lean one request at a time.

import { COOKIE_NAME, PASSWORD, USER } from "../_fixtures.ts";
import { httpRequest } from "../_load.ts";
import {
  type BenchContext,
  check,
  type Scenario,
  type ScenarioResult,
  throughputRatios,
} from "../_scenario.ts";
import { dropPostgresSchema, seedPostgres } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import {
  compareSessionChecks,
  SESSION_PROBES,
  startCeiling,
} from "../_session_check.ts";

/** Schemas the bench creates and drops in the `DATABASE_URL` database. */
export const SCHEMA = "gatehouse_bench";
/** Better Auth's schema, beside ours in the same database. */
export const BETTER_AUTH_SCHEMA = "gatehouse_bench_better_auth";

/** Starts Better Auth on its own schema; its cookie is in `info.cookie`. */
export function startBetterAuth(url: string): Promise<ServerProcess> {
  return startServer("better_auth", {
    url,
    schema: BETTER_AUTH_SCHEMA,
    email: USER.email,
    password: PASSWORD,
    name: USER.name,
  });
}

/** The session check on Postgres against the ceiling, the lean checks and Better Auth. */
export const sessionPg: Scenario = {
  name: "session-pg",
  description:
    "GET /api/auth/session on Postgres vs the ceiling, lean SQL and Better Auth; ours vs lean one at a time",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const url = ctx.databaseUrl;
    if (url === undefined) {
      return {
        scenario: "session-pg",
        skipped: "DATABASE_URL is not set",
      };
    }
    const { tokens } = await seedPostgres(url, SCHEMA, {
      probes: SESSION_PROBES,
    });
    const lean = (hash: string) =>
      startServer("lean_pg", {
        url,
        schema: SCHEMA,
        cookieName: COOKIE_NAME,
        hash,
      });
    const servers = await Promise.all([
      startCeiling(),
      lean("webcrypto"),
      lean("node"),
      startServer("ours", { store: "postgres", url, schema: SCHEMA }),
      startBetterAuth(url),
    ]);
    try {
      const [ceiling, leanWebcrypto, leanNode, ours, betterAuth] = servers;
      const result = await compareSessionChecks(ctx, {
        scenario: "session-pg",
        store: "pg",
        storeLabel: "Postgres",
        tokens,
        ceiling: ceiling!,
        leanWebcrypto: leanWebcrypto!,
        leanNode: leanNode!,
        ours: ours!,
        others: [{
          name: "better-auth",
          server: betterAuth!,
          // Its one session, signed in at start: Better Auth reads the
          // session on every request (it does not coalesce reads), so
          // repeating one token saves it no work; our 500 sessions fit in
          // Postgres's cache as well as its one does.
          requests: [
            httpRequest("GET", "/api/auth/get-session", {
              cookie: String(betterAuth!.info.cookie),
            }),
          ],
        }],
      });
      const ratios = throughputRatios(result.variants!, [
        ["better-auth", "ceiling"],
        ["ours-pg", "better-auth"],
      ]);
      return {
        ...result,
        ratios: { ...result.ratios, ...ratios },
        targets: [
          ...result.targets!,
          check(
            "Postgres session check vs Better Auth get-session, req/s",
            ratios["ours-pg/better-auth"]!.median,
            ">=10",
          ),
        ],
        notes: [
          ...result.notes!,
          "ours, lean and Better Auth each hold at most 10 connections",
          "Better Auth answers its own session shape (about 500 bytes) from its own schema",
        ],
      };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await dropPostgresSchema(url, SCHEMA);
      await dropPostgresSchema(url, BETTER_AUTH_SCHEMA);
    }
  },
};
