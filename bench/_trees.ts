// Source trees to bench side by side: the working tree, or the files of a
// commit unpacked into a scratch directory. A commit's tree runs its own
// bench servers and its own seed code, with its own lock file and
// node_modules, so that two versions of Gatehouse can be compared in one
// run on the same machine, store kind and load (the `reshape` scenario).
//
// A commit is unpacked with `git archive`, which reads the repository and
// changes nothing in it (no worktree entry, no index, no checkout).

const ROOT = new URL("../", import.meta.url).pathname.replace(/\/$/, "");

// Bounds on the git and deno commands: an unpacking or an install that
// hangs must end the scenario, not the run.
const COMMAND_TIMEOUT_MS = 300_000;

/** A tree the bench can start servers from and seed stores with. */
export interface SourceTree {
  /** What the report calls it: the short commit, or "working tree". */
  label: string;
  /** The full commit, or undefined for the working tree as it stands. */
  commit: string | undefined;
  /** The directory holding deno.json. */
  root: string;
  /** Removes the unpacked files (nothing for the working tree). */
  remove(): Promise<void>;
}

/**
 * The working tree when `commit` is undefined; otherwise the files of
 * `commit` (anything `git rev-parse` takes) unpacked under `tmpDir`, with
 * its npm packages installed from its own lock file.
 */
export async function sourceTree(
  commit: string | undefined,
  tmpDir: string,
): Promise<SourceTree> {
  if (commit === undefined) {
    return {
      label: "working tree",
      commit: undefined,
      root: ROOT,
      remove: () => Promise.resolve(),
    };
  }
  const full = (await run("git", [
    "rev-parse",
    "--verify",
    "--end-of-options",
    `${commit}^{commit}`,
  ], ROOT)).trim();
  const root = await Deno.makeTempDir({
    dir: tmpDir,
    prefix: `tree-${full.slice(0, 7)}-`,
  });
  const remove = () => Deno.remove(root, { recursive: true }).catch(() => {});
  try {
    await run(
      "sh",
      [
        "-c",
        'git archive --format=tar "$1" | tar -x -C "$2"',
        "sh",
        full,
        root,
      ],
      ROOT,
    );
    // The tree's own packages, as its lock file pins them (from Deno's
    // cache, or from npm for what is not there yet; with
    // BENCH_CACHED_ONLY=1, from the cache alone: the tests run offline).
    const cachedOnly = Deno.env.get("BENCH_CACHED_ONLY") === "1"
      ? ["--cached-only"]
      : [];
    await run(
      Deno.execPath(),
      ["install", "--lock=dev.lock", "--frozen", ...cachedOnly],
      root,
    );
  } catch (err) {
    await remove();
    throw err;
  }
  return { label: full.slice(0, 7), commit: full, root, remove };
}

/**
 * The seed options of bench/_seed.ts that {@linkcode seedIn} passes on
 * (the same in every commit the scenario compares).
 */
export interface TreeSeedOptions {
  /** Sessions of the fixture account, whose tokens come back. */
  probes?: number;
  /** Member accounts, each with `sessions` live sessions. */
  members?: ReadonlyArray<{ count: number; sessions?: number }>;
}

/** Where {@linkcode seedIn} seeds: a KV file, or a Postgres schema. */
export type TreeStore =
  | { store: "kv"; kvPath: string }
  | { store: "postgres"; url: string; schema: string };

/**
 * Seeds `target` with `tree`'s own bench/_seed.ts (so with that version's
 * store code and schema) and returns the probe sessions' cookie tokens.
 * The working tree's seed code is the same file as the one the other
 * scenarios import.
 */
export async function seedIn(
  tree: SourceTree,
  target: TreeStore,
  options: TreeSeedOptions,
): Promise<string[]> {
  const script = `${tree.root}/bench/_seed_cli.ts`;
  if (tree.commit !== undefined) {
    // An older commit has no _seed_cli.ts: this one drives its _seed.ts,
    // whose seedKv and seedPostgres keep their signatures.
    await Deno.copyFile(new URL("./_seed_cli.ts", import.meta.url), script);
  }
  const out = await run(Deno.execPath(), [
    "run",
    "--lock=dev.lock",
    "--allow-all",
    script,
    JSON.stringify({ ...target, options }),
  ], tree.root);
  const { tokens } = JSON.parse(out) as { tokens: string[] };
  return tokens;
}

// Runs a command to its end (bounded), and returns its stdout; throws with
// its stderr when it fails.
async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, {
    args,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(COMMAND_TIMEOUT_MS),
  }).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed (${out.code}):\n${
        text(out.stderr).trim()
      }`,
    );
  }
  return text(out.stdout);
}
