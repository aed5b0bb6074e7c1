// The code's layers, read from the module graph Deno itself resolves
// (`deno info --json` from every public entry): in `server/`, an import
// points only down a layer (http → core → features → gatehouse.ts; the
// stores beside the features, each importing only core and http); and no
// import cycle anywhere in `server/`, `client/` or `contract/`, type-only
// imports included (DEVELOPERS.md, "Layout and layers").

import { assert, assertEquals } from "./fixtures/assert.ts";

const ROOT = new URL("../", import.meta.url);
const ENTRIES = [
  "mod.ts",
  "server/mail.ts",
  "server/sso.ts",
  "server/core/store.ts",
  "server/features/create_admin.ts",
  "server/stores/open.ts",
  "server/stores/conformance/mod.ts",
  "contract/mod.ts",
  "client/mod.ts",
  "client/admin.ts",
  "client/sso.ts",
  "client/testing/mod.ts",
  "client/screens/mod.ts",
];

interface InfoModule {
  specifier: string;
  dependencies?: {
    code?: { specifier?: string };
    type?: { specifier?: string };
  }[];
}

/** The repository's own modules and their imports, by repository path. */
async function moduleGraph(): Promise<Map<string, Set<string>>> {
  const graph = new Map<string, Set<string>>();
  const local = (specifier: string | undefined) =>
    specifier?.startsWith(ROOT.href) ? specifier.slice(ROOT.href.length) : null;
  for (const entry of ENTRIES) {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--lock=dev.lock", entry],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert(output.success, new TextDecoder().decode(output.stderr));
    const info = JSON.parse(new TextDecoder().decode(output.stdout)) as {
      modules: InfoModule[];
    };
    for (const module of info.modules) {
      const from = local(module.specifier);
      if (from === null) continue;
      const imports = graph.get(from) ?? new Set<string>();
      graph.set(from, imports);
      for (const dependency of module.dependencies ?? []) {
        for (const kind of [dependency.code, dependency.type]) {
          const to = local(kind?.specifier);
          if (to !== null) imports.add(to);
        }
      }
    }
  }
  return graph;
}

/** The layer of a module of `server/`, or null for any other module. */
function layerOf(path: string): string | null {
  const match = /^server\/(http|core|features|stores)\//.exec(path);
  if (match !== null) return match[1]!;
  // The top: gatehouse.ts and the entries beside it (mail.ts, sso.ts),
  // which only re-export.
  return /^server\/[^/]+\.ts$/.test(path) ? "gatehouse" : null;
}

// What each layer may import from `server/` (its own layer included).
const MAY_IMPORT: Record<string, readonly string[]> = {
  http: ["http"],
  core: ["http", "core"],
  features: ["http", "core", "features"],
  stores: ["http", "core", "stores"],
  gatehouse: ["http", "core", "features"],
};

/** Strongly connected groups of more than one module (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const graph = await moduleGraph();

Deno.test("every module of server/ imports only from its own layer or one below", () => {
  const upward: string[] = [];
  for (const [from, imports] of graph) {
    const layer = layerOf(from);
    if (layer === null) continue;
    for (const to of imports) {
      const target = layerOf(to);
      if (target !== null && !MAY_IMPORT[layer]!.includes(target)) {
        upward.push(`${from} → ${to}`);
      }
    }
  }
  assertEquals(upward, []);
  // The graph did reach every layer: the rule above is not vacuous.
  const seen = new Set([...graph.keys()].map(layerOf));
  for (const layer of Object.keys(MAY_IMPORT)) assert(seen.has(layer), layer);
});

Deno.test("no import cycle in server/, client/ or contract/, type-only imports included", () => {
  const ours = new Map(
    [...graph].filter(([path]) => /^(server|client|contract)\//.test(path)),
  );
  assert(ours.size > 150, `the graph holds ${ours.size} modules`);
  assertEquals(cycles(ours), []);
});

Deno.test("the cycle finder finds a cycle, including one through a type-only import", () => {
  const graph = new Map([
    ["a.ts", new Set(["b.ts"])],
    ["b.ts", new Set(["c.ts"])],
    ["c.ts", new Set(["a.ts"])],
    ["d.ts", new Set(["a.ts"])],
  ]);
  assertEquals(cycles(graph), [["a.ts", "b.ts", "c.ts"]]);
  assertEquals(cycles(new Map([["a.ts", new Set(["b.ts"])]])), []);
});
