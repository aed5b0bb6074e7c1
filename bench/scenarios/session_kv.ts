// Session check on Deno KV: ceiling, the lean hand-written check (Web
// Crypto and node:crypto hashing) and Gatehouse's `GET /api/auth/session`
// through `requireSession`, on one KV file seeded by the real KvStore;
// then ours and the node:crypto lean one request at a time.

import { COOKIE_NAME } from "../_fixtures.ts";
import type { Scenario } from "../_scenario.ts";
import { seedKv } from "../_seed.ts";
import { startServer } from "../_servers.ts";
import {
  compareSessionChecks,
  SESSION_PROBES,
  startCeiling,
} from "../_session_check.ts";

/** The session check on Deno KV against the ceiling and the lean checks. */
export const sessionKv: Scenario = {
  name: "session-kv",
  description:
    "GET /api/auth/session on Deno KV vs the ceiling and lean KV reads; ours vs lean one at a time",
  default: true,
  async run(ctx) {
    const kvPath = `${ctx.tmpDir}/session.kv`;
    const { tokens } = await seedKv(kvPath, { probes: SESSION_PROBES });
    const lean = (hash: string) =>
      startServer("lean_kv", { kvPath, cookieName: COOKIE_NAME, hash });
    const servers = await Promise.all([
      startCeiling(),
      lean("webcrypto"),
      lean("node"),
      startServer("ours", { store: "kv", kvPath }),
    ]);
    try {
      const [ceiling, leanWebcrypto, leanNode, ours] = servers;
      return await compareSessionChecks(ctx, {
        scenario: "session-kv",
        store: "kv",
        storeLabel: "KV",
        tokens,
        ceiling: ceiling!,
        leanWebcrypto: leanWebcrypto!,
        leanNode: leanNode!,
        ours: ours!,
      });
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
    }
  },
};
