// The sessions list (`GET /api/auth/sessions`, DESIGN.md §8) beside the
// session check on the same server: what listing one's sessions costs over
// the check that guards it. Every account holds 10 sessions; both kinds
// present the same 500 sessions (50 accounts) in turn, under 50
// connections, on KV and Postgres.

import { listSessionsRequest, sessionRequest } from "../_requests.ts";
import {
  alternate,
  type BenchContext,
  latencyRatios,
  type Scenario,
  throughputRatios,
} from "../_scenario.ts";
import { startServer } from "../_servers.ts";
import { type BenchStore, onEachStore } from "../_stores.ts";

const ACCOUNTS = 50;
const SESSIONS_EACH = 10;

/** The sessions list beside the session check, KV and Postgres. */
export const sessionsList: Scenario = {
  name: "sessions-list",
  description:
    "GET /api/auth/sessions (10 sessions an account) vs the session check, KV and Postgres",
  default: true,
  run: (ctx) =>
    onEachStore(ctx, "sessions-list", (store) => compareList(ctx, store)),
};

async function compareList(ctx: BenchContext, store: BenchStore) {
  const { members } = await store.seed({
    members: [{ count: ACCOUNTS, sessions: SESSIONS_EACH }],
  });
  const server = await startServer("ours", { ...store.config });
  const check = `${store.label}-session-check`;
  const list = `${store.label}-sessions-list`;
  try {
    const tokens = members.flatMap((m) => m.tokens);
    const variants = await alternate(ctx, [
      { name: check, server, requests: tokens.map(sessionRequest) },
      { name: list, server, requests: tokens.map(listSessionsRequest) },
    ], `sessions-list (${store.label})`);
    return {
      variants,
      ratios: {
        ...throughputRatios(variants, [[list, check]]),
        ...latencyRatios(variants, [[list, check]], "p50"),
      },
      notes: [
        `${ctx.connections} connections over ${
          ACCOUNTS * SESSIONS_EACH
        } sessions (${ACCOUNTS} accounts × ${SESSIONS_EACH}); each list answers 10 sessions`,
        "no target: the ratio says what a list costs beside the check that guards it",
      ],
    };
  } finally {
    await server.stop();
  }
}
