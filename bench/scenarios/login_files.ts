// Login files: how many of the server's files a password login runs code
// in, the measure issue 27 gives for "one operation lives in one place".
// `bench/servers/signing_in.ts` runs twice under V8 coverage, once with no
// login and once with three; a file counts when one of its functions (or
// blocks) ran more often in the second run. Start-up, the session check
// and the work every process does alike cancel out. A count, not a timing,
// but timers and first-run caches can still make a file run a little more in
// one process than in another (a cold first pass once read 53 where every
// other read 48), so the pair of runs is taken twice and a file counts only
// when both pairs show it.

import type { BenchContext, Scenario, ScenarioResult } from "../_scenario.ts";
import { runDeno } from "../_servers.ts";

const ROOT = new URL("../../", import.meta.url).href;
const PROGRAM = new URL("../servers/signing_in.ts", import.meta.url).pathname;

// Block and function hit counts of each file under `server/`, by range.
type Counts = Map<string, Map<string, number>>;

async function coverage(dir: string, logins: number): Promise<Counts> {
  await runDeno(
    ["run", "--lock=dev.lock", "--allow-all", `--coverage=${dir}`, PROGRAM],
    { LOGINS: String(logins) },
  );
  const files: Counts = new Map();
  for await (const entry of Deno.readDir(dir)) {
    const { url, functions } = JSON.parse(
      await Deno.readTextFile(`${dir}/${entry.name}`),
    ) as {
      url: string;
      functions: {
        ranges: { startOffset: number; endOffset: number; count: number }[];
      }[];
    };
    if (!url.startsWith(`${ROOT}server/`)) continue;
    const ranges = files.get(url) ?? new Map<string, number>();
    for (
      const { startOffset, endOffset, count } of functions.flatMap((f) =>
        f.ranges
      )
    ) {
      const range = `${startOffset}-${endOffset}`;
      ranges.set(range, (ranges.get(range) ?? 0) + count);
    }
    files.set(url, ranges);
  }
  return files;
}

/** The server files whose code ran more often in `after` than in `before`. */
function ranMore(before: Counts, after: Counts): string[] {
  const files: string[] = [];
  for (const [url, ranges] of after) {
    const earlier = before.get(url);
    for (const [range, count] of ranges) {
      if (count > (earlier?.get(range) ?? 0)) {
        files.push(url.slice(ROOT.length));
        break;
      }
    }
  }
  return files.sort();
}

/** The server files a password login runs code in, counted by coverage. */
export const loginFiles: Scenario = {
  name: "login-files",
  description:
    "server files a password login runs code in (V8 coverage, 3 logins ÷ none, in two pairs of runs)",
  default: true,
  async run(ctx: BenchContext): Promise<ScenarioResult> {
    const pair = async (pass: number) =>
      ranMore(
        await coverage(`${ctx.tmpDir}/coverage-${pass}-0`, 0),
        await coverage(`${ctx.tmpDir}/coverage-${pass}-3`, 3),
      );
    const first = await pair(1);
    const second = await pair(2);
    const files = first.filter((file) => second.includes(file));
    const inOnePair = [...first, ...second].filter((file) =>
      !files.includes(file)
    );
    ctx.progress(`login-files: ${files.length}`);
    const byFolder = new Map<string, number>();
    for (const file of files) {
      const folder = file.slice(0, file.lastIndexOf("/"));
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
    }
    return {
      scenario: "login-files",
      metrics: {
        "server files a password login runs in": files.length,
        ...Object.fromEntries(
          [...byFolder].map(([folder, n]) => [`  of them in ${folder}/`, n]),
        ),
      },
      notes: [
        `files: ${files.join(", ")}`,
        ...(inOnePair.length === 0 ? [] : [
          `in one pair of runs only, not counted: ${inOnePair.join(", ")}`,
        ]),
      ],
    };
  },
};
