// Session check on PostgreSQL: ceiling, the lean hand-written check (one
// prepared join, Web Crypto and node:crypto hashing), Gatehouse's
// PostgresStore behind `requireSession`, and Better Auth's
// `GET /api/auth/get-session`, all on the same database.

import { COOKIE_NAME, PASSWORD, USER } from "../_fixtures.ts";
import { httpRequest } from "../_load.ts";
import {
  alternate,
  type BenchContext,
  check,
  type Scenario,
  type ScenarioResult,
  throughputRatios,
} from "../_scenario.ts";
import { dropPostgresSchema, seedPostgres } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { sessionRequest, startCeiling } from "./session_kv.ts";

/** Schemas the bench creates and drops in the `DATABASE_URL` database. */
export const SCHEMA = "gatehouse_bench";
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

export const sessionPg: Scenario = {
  name: "session-pg",
  description:
    "GET /api/auth/session on Postgres vs the ceiling, lean SQL and Better Auth",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const url = ctx.databaseUrl;
    if (url === undefined) {
      return {
        scenario: "session-pg",
        skipped: "DATABASE_URL is not set",
      };
    }
    const { tokens } = await seedPostgres(url, SCHEMA);
    const request = [sessionRequest(tokens[0]!)];
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
      const [ceiling, leanWeb, leanNode, ours, betterAuth] = servers;
      const baRequest = [
        httpRequest("GET", "/api/auth/get-session", {
          cookie: String(betterAuth!.info.cookie),
        }),
      ];
      const variants = await alternate(ctx, [
        { name: "ceiling", server: ceiling!, requests: request },
        { name: "lean-pg-webcrypto", server: leanWeb!, requests: request },
        { name: "lean-pg-node", server: leanNode!, requests: request },
        { name: "ours-pg", server: ours!, requests: request },
        { name: "better-auth", server: betterAuth!, requests: baRequest },
      ], "session-pg");
      const ratios = throughputRatios(variants, [
        ["lean-pg-webcrypto", "ceiling"],
        ["lean-pg-node", "ceiling"],
        ["ours-pg", "ceiling"],
        ["better-auth", "ceiling"],
        ["ours-pg", "lean-pg-webcrypto"],
        ["ours-pg", "lean-pg-node"],
        ["ours-pg", "better-auth"],
      ]);
      return {
        scenario: "session-pg",
        variants,
        ratios,
        targets: [
          check(
            "Postgres session check vs lean (Web Crypto), req/s",
            ratios["ours-pg/lean-pg-webcrypto"]!.median,
            ">=1",
          ),
          check(
            "Postgres session check vs lean (node:crypto), req/s",
            ratios["ours-pg/lean-pg-node"]!.median,
            ">=1",
          ),
          check(
            "Postgres session check vs Better Auth get-session, req/s",
            ratios["ours-pg/better-auth"]!.median,
            ">=10",
          ),
        ],
        notes: [
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
