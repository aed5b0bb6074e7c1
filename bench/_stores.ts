// Scenarios that compare a feature on and off run it on each store in
// turn: KV always, Postgres when DATABASE_URL is set. This seeds each
// store fresh for the scenario, hands it to the scenario's body, drops the
// Postgres schema afterwards, and merges what each store reported.

import type { BenchContext, ScenarioResult } from "./_scenario.ts";
import {
  dropPostgresSchema,
  type Seeded,
  seedKv,
  type SeedOptions,
  seedPostgres,
} from "./_seed.ts";
import type { StoreConfig } from "./servers/_open_store.ts";

/** A store a scenario runs on. */
export interface BenchStore {
  /** Short name, for variant names: `kv`, `pg`. */
  label: string;
  /** Name for targets and notes: `KV`, `Postgres`. */
  name: string;
  /** How servers (bench/servers/ours.ts) and `openStore` find it. */
  config: StoreConfig;
  /** Creates it afresh with the account and what `options` asks for. */
  seed(options: SeedOptions): Promise<Seeded>;
}

/** What a scenario's body reports for one store; merged over the stores. */
export type StoreResult = Omit<ScenarioResult, "scenario" | "skipped">;

/**
 * Runs `body` on KV, then on Postgres when DATABASE_URL is set, and merges
 * the results (names of variants, ratios, metrics and targets should carry
 * the store's label so that they do not collide).
 */
export async function onEachStore(
  ctx: BenchContext,
  scenario: string,
  body: (store: BenchStore) => Promise<StoreResult>,
): Promise<ScenarioResult> {
  const slug = scenario.replace(/\W+/g, "_");
  const kvPath = `${ctx.tmpDir}/${slug}.kv`;
  const stores: BenchStore[] = [{
    label: "kv",
    name: "KV",
    config: { store: "kv", kvPath },
    seed: (options) => seedKv(kvPath, options),
  }];
  const url = ctx.databaseUrl;
  const schema = `gatehouse_bench_${slug}`;
  if (url !== undefined) {
    stores.push({
      label: "pg",
      name: "Postgres",
      config: { store: "postgres", url, schema },
      seed: (options) => seedPostgres(url, schema, options),
    });
  }
  const merged: ScenarioResult = {
    scenario,
    variants: {},
    ratios: {},
    metrics: {},
    targets: [],
    notes: [],
  };
  try {
    for (const store of stores) {
      const part = await body(store);
      Object.assign(merged.variants!, part.variants);
      Object.assign(merged.ratios!, part.ratios);
      Object.assign(merged.metrics!, part.metrics);
      merged.targets!.push(...part.targets ?? []);
      for (const note of part.notes ?? []) {
        if (!merged.notes!.includes(note)) merged.notes!.push(note);
      }
    }
  } finally {
    if (url !== undefined) await dropPostgresSchema(url, schema);
  }
  if (url === undefined) {
    merged.notes!.push("Postgres skipped: DATABASE_URL is not set");
  }
  return merged;
}
