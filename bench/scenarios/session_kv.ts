// Session check on Deno KV: ceiling, the lean hand-written check (Web
// Crypto and node:crypto hashing) and Gatehouse's `GET /api/auth/session`
// through `requireSession`, on one KV file seeded by the real KvStore.

import { httpRequest } from "../_load.ts";
import { COOKIE_NAME, IDENTITY } from "../_fixtures.ts";
import {
  alternate,
  type BenchContext,
  check,
  type Scenario,
  throughputRatios,
} from "../_scenario.ts";
import { seedKv } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";

/** The session-check request for `token`. */
export function sessionRequest(token: string): Uint8Array {
  return httpRequest("GET", "/api/auth/session", {
    cookie: `${COOKIE_NAME}=${token}`,
  });
}

/** Starts the ceiling server. */
export function startCeiling(): Promise<ServerProcess> {
  return startServer("ceiling", {
    cookieName: COOKIE_NAME,
    identity: IDENTITY,
  });
}

export const sessionKv: Scenario = {
  name: "session-kv",
  description:
    "GET /api/auth/session on Deno KV vs the ceiling and lean KV reads",
  default: true,
  async run(ctx: BenchContext) {
    const kvPath = `${ctx.tmpDir}/session.kv`;
    const { tokens } = await seedKv(kvPath);
    const request = [sessionRequest(tokens[0]!)];
    const servers = await Promise.all([
      startCeiling(),
      startServer("lean_kv", {
        kvPath,
        cookieName: COOKIE_NAME,
        hash: "webcrypto",
      }),
      startServer("lean_kv", { kvPath, cookieName: COOKIE_NAME, hash: "node" }),
      startServer("ours", { store: "kv", kvPath }),
    ]);
    try {
      const [ceiling, leanWeb, leanNode, ours] = servers;
      const variants = await alternate(ctx, [
        { name: "ceiling", server: ceiling!, requests: request },
        { name: "lean-kv-webcrypto", server: leanWeb!, requests: request },
        { name: "lean-kv-node", server: leanNode!, requests: request },
        { name: "ours-kv", server: ours!, requests: request },
      ], "session-kv");
      const ratios = throughputRatios(variants, [
        ["lean-kv-webcrypto", "ceiling"],
        ["lean-kv-node", "ceiling"],
        ["ours-kv", "ceiling"],
        ["ours-kv", "lean-kv-webcrypto"],
        ["ours-kv", "lean-kv-node"],
      ]);
      return {
        scenario: "session-kv",
        variants,
        ratios,
        targets: [
          check(
            "KV session check vs lean (Web Crypto), req/s",
            ratios["ours-kv/lean-kv-webcrypto"]!.median,
            ">=1",
          ),
          check(
            "KV session check vs lean (node:crypto), req/s",
            ratios["ours-kv/lean-kv-node"]!.median,
            ">=1",
          ),
        ],
        notes: [
          "50 keep-alive connections; ratios are req/s of the first over the second, per round",
          "lean skips expiry, disabled and revocation checks and capabilities; ours does all of them",
        ],
      };
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  },
};
