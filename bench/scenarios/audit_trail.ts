// Audit trail on vs off (DESIGN.md §10): what writing the events costs the
// session check and a login. Two servers on one store:
// - on: Gatehouse as configured by default (events written in the same
//   commit as the change; refusals recorded after the answer);
// - off: the same server with a store that drops the `events` of every
//   call's arguments and does not record refusals
//   (bench/servers/_store_wrappers.ts): the same commits, without events.
// The session check writes no event, so on ÷ off shows that the trail adds
// nothing to it; a successful login writes `login.succeeded` in the commit
// of its session. Both servers run the login limiter without stored counts
// (bench/_login.ts), like the login scenario.

import { PASSWORD, USER } from "../_fixtures.ts";
import { interleaved } from "../_interleaved.ts";
import { UNCOUNTED_LOGINS } from "../_login.ts";
import { loginRequest, sessionRequest } from "../_requests.ts";
import {
  alternate,
  type BenchContext,
  check,
  cpuRatios,
  type Scenario,
  throughputRatios,
} from "../_scenario.ts";
import { startServer } from "../_servers.ts";
import { type BenchStore, onEachStore } from "../_stores.ts";

// 50 accounts of 10 sessions: the session checks present 500 sessions.
const ACCOUNTS = 50;
const SESSIONS_EACH = 10;
// On ÷ off must hold within 5%: turns of half a second within each round
// (at the default 2-s rounds) share the same seconds of a drifting machine.
const TURNS = 4;

/** The audit trail on ÷ off: session check and login, KV and Postgres. */
export const auditTrail: Scenario = {
  name: "audit-trail",
  description:
    "session check and login with the audit trail on vs off, KV and Postgres",
  default: true,
  run: (ctx) =>
    onEachStore(ctx, "audit-trail", (store) => compareAudit(ctx, store)),
};

async function compareAudit(ctx: BenchContext, store: BenchStore) {
  const { members } = await store.seed({
    members: [{ count: ACCOUNTS, sessions: SESSIONS_EACH }],
  });
  const servers = await Promise.all([
    startServer("ours", { ...store.config, ...UNCOUNTED_LOGINS }),
    startServer("ours", {
      ...store.config,
      without: [...UNCOUNTED_LOGINS.without, "audit-trail"],
    }),
  ]);
  const [on, off] = servers;
  const name = (variant: string) => `${store.label}-audit-${variant}`;
  try {
    const requests = members.flatMap((m) => m.tokens).map(sessionRequest);
    const variants = await alternate(
      ctx,
      [
        { name: name("on"), server: on!, requests },
        { name: name("off"), server: off!, requests },
      ],
      `audit-trail (${store.label})`,
      { turns: TURNS },
    );
    const pair = [[name("on"), name("off")]] as const;
    const ratios = {
      ...throughputRatios(variants, pair),
      ...cpuRatios(variants, pair),
    };
    const sessionCheck = ratios[`${name("on")}/${name("off")}`]!;
    // Logins of the fixture account, which holds none of the sessions
    // checked above (a login past the session cap ends the oldest).
    const login = loginRequest(USER.email, PASSWORD);
    const logins = await interleaved(
      ctx,
      `audit-trail (${store.label}): login on ÷ off`,
      on!.port,
      [login, { port: off!.port, bytes: login }],
      200,
    );
    const loginLabel = `${name("on")}/${name("off")} login p50, interleaved`;
    ratios[loginLabel] = logins.ratio;
    return {
      variants,
      ratios,
      metrics: {
        [`${store.label} login p50 ms, audit on`]: logins.p50[0],
        [`${store.label} login p50 ms, audit off`]: logins.p50[1],
      },
      targets: [
        check(
          `${store.name}: session check, audit trail on ÷ off, req/s`,
          sessionCheck.median,
          ">=0.95",
        ),
        check(
          `${store.name}: login, audit trail on ÷ off, p50 (interleaved)`,
          logins.ratio.median,
          "<=1.05",
        ),
      ],
      notes: [
        `session check: ${ctx.connections} connections over ${
          ACCOUNTS * SESSIONS_EACH
        } sessions (${ACCOUNTS} accounts × ${SESSIONS_EACH})`,
        "login: one request at a time, on and off alternating request by request (one connection per server)",
        "off: a bench-only store wrapper drops every call's events and does not record refusals",
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}
