// What the two session-check scenarios (KV, Postgres) share: the ceiling,
// the lean checks and ours under 50 connections in alternating rounds, and
// ours against the node:crypto lean one request at a time.
//
// Every variant presents the same SESSION_PROBES distinct sessions in turn
// (the connections spread evenly over them). Both stores coalesce the session
// reads that wait at the same moment into one read; were every connection
// to present one token, a coalesced read would carry the same session many
// times over while the lean checks read it again and again, and ours would
// win by the shape of the load, not by its work.

import { COOKIE_NAME, IDENTITY } from "./_fixtures.ts";
import { interleaved } from "./_interleaved.ts";
import { sessionRequest } from "./_requests.ts";
import {
  alternate,
  type BenchContext,
  check,
  type HttpVariant,
  type ScenarioResult,
  throughputRatios,
} from "./_scenario.ts";
import { type ServerProcess, startServer } from "./_servers.ts";

/** Distinct sessions the session-check scenarios present in turn. */
export const SESSION_PROBES = 500;

/** Starts the ceiling server. */
export function startCeiling(): Promise<ServerProcess> {
  return startServer("ceiling", {
    cookieName: COOKIE_NAME,
    identity: IDENTITY,
  });
}

/** The servers of one session-check comparison, all on one seeded store. */
export interface SessionCheckSetup {
  /** The scenario's name. */
  scenario: string;
  /** Short store name for variant names: `kv`, `pg`. */
  store: string;
  /** Store name for target names: `KV`, `Postgres`. */
  storeLabel: string;
  /** Tokens of the seeded sessions. */
  tokens: readonly string[];
  ceiling: ServerProcess;
  leanWebcrypto: ServerProcess;
  leanNode: ServerProcess;
  ours: ServerProcess;
  /** Further variants run in the same rounds (Better Auth). */
  others?: readonly HttpVariant[];
}

/**
 * Runs the comparison: throughput of every variant in alternating rounds
 * (ours ≥ 1.0× each lean), then ours ÷ the node:crypto lean p50 with one
 * request at a time, interleaved request by request (≤ 1.0: coalescing
 * adds no wait to a check that is alone).
 */
export async function compareSessionChecks(
  ctx: BenchContext,
  setup: SessionCheckSetup,
): Promise<ScenarioResult> {
  const { store, storeLabel, tokens } = setup;
  const requests = tokens.map(sessionRequest);
  const names = {
    leanWeb: `lean-${store}-webcrypto`,
    leanNode: `lean-${store}-node`,
    ours: `ours-${store}`,
  };
  const variants = await alternate(ctx, [
    { name: "ceiling", server: setup.ceiling, requests },
    { name: names.leanWeb, server: setup.leanWebcrypto, requests },
    { name: names.leanNode, server: setup.leanNode, requests },
    { name: names.ours, server: setup.ours, requests },
    ...(setup.others ?? []),
  ], setup.scenario);
  const ratios = throughputRatios(variants, [
    [names.leanWeb, "ceiling"],
    [names.leanNode, "ceiling"],
    [names.ours, "ceiling"],
    [names.ours, names.leanWeb],
    [names.ours, names.leanNode],
  ]);
  const alone = await interleaved(
    ctx,
    `${setup.scenario}: ours ÷ lean (node:crypto), one at a time`,
    setup.ours.port,
    [
      requests.map((bytes) => ({ port: setup.ours.port, bytes })),
      requests.map((bytes) => ({ port: setup.leanNode.port, bytes })),
    ],
    200,
  );
  const aloneLabel = `${names.ours}/${names.leanNode} p50, one at a time`;
  ratios[`${aloneLabel}, interleaved`] = alone.ratio;
  return {
    scenario: setup.scenario,
    variants,
    ratios,
    metrics: {
      [`${names.ours} p50 ms, one at a time`]: alone.p50[0],
      [`${names.leanNode} p50 ms, one at a time`]: alone.p50[1],
    },
    targets: [
      check(
        `${storeLabel} session check vs lean (Web Crypto), req/s`,
        ratios[`${names.ours}/${names.leanWeb}`]!.median,
        ">=1",
      ),
      check(
        `${storeLabel} session check vs lean (node:crypto), req/s`,
        ratios[`${names.ours}/${names.leanNode}`]!.median,
        ">=1",
      ),
      // Alone, a check must not wait for company: a wait would be an event
      // loop turn or a read (a quarter of a check or more). What is left is
      // the work lean skips, a few per cent of a check alone.
      check(
        `${storeLabel} session check vs lean (node:crypto), p50 one at a time (interleaved)`,
        alone.ratio.median,
        "<=1.05",
      ),
    ],
    notes: [
      `${ctx.connections} keep-alive connections; ratios are req/s of the first over the second, per round`,
      `every variant presents the same ${tokens.length} distinct sessions in turn (ours coalesces concurrent reads; one shared token would flatter it)`,
      "one at a time: one connection to each server, ours and lean alternating request by request over the same sessions",
      "lean skips expiry, idle, disabled and revocation checks and capabilities; ours does all of them",
    ],
  };
}
