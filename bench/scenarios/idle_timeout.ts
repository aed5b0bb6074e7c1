// Idle timeout on vs off (DESIGN.md §8): does recording a session's use
// slow the session check? Three servers on one store, in alternating rounds
// under 50 connections:
// - on: Gatehouse as configured by default (idle timeout 24 h, so
//   last_seen is written at most once a minute per session, after the
//   answer);
// - off: the same server with a store whose `touchSession` does nothing and
//   an idle timeout equal to the session TTL (no check is refused for
//   idleness) — bench/servers/_store_wrappers.ts;
// - on-20s: an idle timeout of 20 s, so last_seen is written every 2 s per
//   session: the writes really happen within a round (a 24 h timeout writes
//   none in a short run: sessions seeded a moment ago are not a minute old).
// On and off present the same sessions; on-20s its own, so that its writes
// do not refresh the sessions the others read.

import { openStore } from "../servers/_open_store.ts";
import { runLoad } from "../_load.ts";
import { sessionRequest } from "../_requests.ts";
import {
  alternate,
  type BenchContext,
  check,
  cpuRatios,
  type HttpVariant,
  type Scenario,
  throughputRatios,
} from "../_scenario.ts";
import type { SeededMember } from "../_seed.ts";
import { type ServerProcess, startServer } from "../_servers.ts";
import { type BenchStore, onEachStore } from "../_stores.ts";

const STRESS_IDLE_TIMEOUT = 20_000;
// 50 accounts of 10 sessions for on and off, 50 more for on-20s.
const ACCOUNTS = 50;
const SESSIONS_EACH = 10;
const SESSIONS = ACCOUNTS * SESSIONS_EACH;
// On ÷ off must hold within 3%: the variants take turns of half a second
// within each round (at the default 2-s rounds), so that they share the
// same seconds of a drifting machine.
const TURNS = 4;

/** The idle timeout on ÷ off (and at 20 s): the session check, KV and Postgres. */
export const idleTimeout: Scenario = {
  name: "idle-timeout",
  description:
    "session check with the idle timeout on (default, and 20 s) vs off, KV and Postgres",
  default: true,
  run: (ctx) =>
    onEachStore(ctx, "idle-timeout", (store) => compareIdle(ctx, store)),
};

async function compareIdle(ctx: BenchContext, store: BenchStore) {
  const { members } = await store.seed({
    members: [{ count: 2 * ACCOUNTS, sessions: SESSIONS_EACH }],
  });
  const tokensOf = (group: SeededMember[]) => group.flatMap((m) => m.tokens);
  const shared = tokensOf(members.slice(0, ACCOUNTS)).map(sessionRequest);
  const stressed = members.slice(ACCOUNTS);
  // on-20s's sessions die 20 s after their last recorded use: the turns of
  // on and off between two of its own (or their warm-ups of up to 1 s)
  // must not leave them idle that long.
  const gapMs = 2 *
    Math.max(Math.min(1000, ctx.durationMs), ctx.durationMs / TURNS);
  const withStress = gapMs < STRESS_IDLE_TIMEOUT / 2;
  const servers: ServerProcess[] = await Promise.all([
    startServer("ours", { ...store.config }),
    startServer("ours", { ...store.config, without: ["idle-writes"] }),
    ...(withStress
      ? [
        startServer("ours", {
          ...store.config,
          idleTimeout: STRESS_IDLE_TIMEOUT,
        }),
      ]
      : []),
  ]);
  const name = (variant: string) => `${store.label}-idle-${variant}`;
  try {
    const [on, off, stress] = servers;
    const variants: HttpVariant[] = [
      { name: name("on"), server: on!, requests: shared },
      { name: name("off"), server: off!, requests: shared },
    ];
    if (stress !== undefined) {
      const requests = tokensOf(stressed).map(sessionRequest);
      // First, so that its sessions are used soon after seeding.
      variants.unshift({
        name: name("on-20s"),
        server: stress,
        requests,
        async run(durationMs) {
          const result = await runLoad({
            port: stress.port,
            requests,
            connections: ctx.connections,
            durationMs,
          });
          // Its last_seen writes may still be landing when its turn ends:
          // they are its own cost, so the turn waits for them (untimed,
          // but counted in its server CPU) before the next variant's.
          await settled(stress);
          return result;
        },
      });
    }
    const results = await alternate(
      ctx,
      variants,
      `idle-timeout (${store.label})`,
      { turns: TURNS },
    );
    const pairs = [
      [name("on"), name("off")],
      [name("on-20s"), name("off")],
    ] as const;
    const ratios = {
      ...throughputRatios(results, pairs),
      ...cpuRatios(results, pairs),
    };
    const onOff = ratios[`${name("on")}/${name("off")}`]!;
    return {
      variants: results,
      ratios,
      metrics: stress === undefined ? {} : {
        [`${name("on-20s")} sessions with last_seen written (of ${SESSIONS})`]:
          await sessionsTouched(store, stressed),
      },
      targets: [
        check(
          `${store.name}: session check, idle timeout on ÷ off, req/s`,
          onOff.median,
          ">=0.97",
        ),
      ],
      notes: [
        `${ctx.connections} connections over ${SESSIONS} sessions (${ACCOUNTS} accounts × ${SESSIONS_EACH}); on and off present the same ones, on-20s as many of its own`,
        "off: touchSession does nothing and the idle timeout is the session TTL (a bench-only store wrapper)",
        ...(withStress ? [] : [
          "on-20s skipped: rounds this long would leave its sessions idle for more than 20 s",
        ]),
      ],
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

async function settled(server: ServerProcess): Promise<void> {
  const res = await fetch(`http://127.0.0.1:${server.port}/bench/settled`, {
    method: "POST",
  });
  await res.body?.cancel();
  if (res.status !== 204) throw new Error(`Settling failed: ${res.status}`);
}

// How many of the sessions `members` hold had a use recorded after they
// were issued: evidence that on-20s wrote last_seen during its rounds.
async function sessionsTouched(
  store: BenchStore,
  members: readonly SeededMember[],
): Promise<number> {
  const opened = await openStore(store.config);
  try {
    let touched = 0;
    for (const member of members) {
      for (
        const session of await opened.store.listSessions(member.id, Date.now())
      ) {
        if (session.lastSeenAt > session.createdAt) touched++;
      }
    }
    return touched;
  } finally {
    opened.kv?.close();
    await opened.sql?.end();
  }
}
