// Seeds one store with this tree's bench/_seed.ts and prints the probe
// sessions' tokens as one JSON line. bench/_trees.ts runs it in the tree
// under test (copying it into an older commit's tree, which lacks it), so
// every tree seeds its store with its own store code and schema.
//
// Argument: {"store": "kv", "kvPath", "options"} or
// {"store": "postgres", "url", "schema", "options"}.

import { seedKv, type SeedOptions, seedPostgres } from "./_seed.ts";

type Target =
  & { options?: SeedOptions }
  & (
    | { store: "kv"; kvPath: string }
    | { store: "postgres"; url: string; schema: string }
  );

const target = JSON.parse(Deno.args[0] ?? "{}") as Target;
const options = target.options ?? {};
const seeded = target.store === "kv"
  ? await seedKv(target.kvPath, options)
  : await seedPostgres(target.url, target.schema, options);
console.log(JSON.stringify({ tokens: seeded.tokens }));
