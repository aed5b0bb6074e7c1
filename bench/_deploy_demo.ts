// The demo (main.ts) started the way Deno Deploy runs it, for the
// cold-start scenario: after `deno task build` (Deploy's build step),
// DENO_DEPLOYMENT_ID set, a clean environment, and only
// `--allow-net --allow-env --allow-read` and a write permission for a
// scratch folder: no FFI (argon2id is the WebAssembly one), no subprocess
// (the island bundle is the prebuilt file), no --allow-sys. Like Deploy it
// runs with the project's own lock file (deno.lock), not the bench's.
//
// On Deploy main.ts opens the app's KV database with `Deno.openKv()` and no
// path (GATEHOUSE_KV_PATH is read only off Deploy). Locally that database
// lives in DENO_DIR's origin storage, so the demo gets a DENO_DIR of its
// own in the scratch folder: its module caches (npm, remote, emitted
// JavaScript) are links to the real ones, so nothing is fetched or
// transpiled again, and its V8 code cache fills on its first start, as
// every other server's does on its warm-up start.
//
// Where it listens: Deploy tells Deno.serve the address through
// DENO_SERVE_ADDRESS, and so does this, with a free port on 127.0.0.1. The
// demo announces nothing then, so the harness finds it answering by trying.

import { runDeno, stopProcess } from "./_servers.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** A demo process started as Deploy starts it. */
export interface DeployDemo {
  /** Port on 127.0.0.1. */
  port: number;
  /** What it printed to stdout and stderr so far, for diagnosis. */
  output(): string;
  /** Stops the process and waits for it. */
  stop(): Promise<void>;
}

/** Runs `deno task build`, Deploy's build step (the island bundle). */
export function buildForDeploy(): Promise<void> {
  return runDeno(["task", "build"]);
}

/**
 * A DENO_DIR in `dir` sharing the real one's module caches, with an origin
 * storage (the demo's KV database) of its own.
 */
export async function ownDenoDir(dir: string): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdin: "null",
    stderr: "null",
  }).output();
  const real: string = JSON.parse(new TextDecoder().decode(stdout)).denoDir;
  const own = `${dir}/deno_dir`;
  await Deno.mkdir(own, { recursive: true });
  for (const cache of ["npm", "remote", "gen"]) {
    await Deno.symlink(`${real}/${cache}`, `${own}/${cache}`);
  }
  return own;
}

/** The KV file the demo opened in `denoDir` (after its first start). */
export async function demoKvPath(denoDir: string): Promise<string> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${denoDir}/location_data`)) {
    const path = `${denoDir}/location_data/${entry.name}/kv.sqlite3`;
    if (await Deno.stat(path).then(() => true, () => false)) found.push(path);
  }
  if (found.length !== 1) {
    throw new Error(`Expected one KV database, found: ${found.join(", ")}`);
  }
  return found[0]!;
}

/**
 * Spawns the demo as Deploy would (returning at once: it is not listening
 * yet). `scratch` is the one folder it may write to.
 */
export function spawnDeployDemo(
  denoDir: string,
  scratch: string,
): DeployDemo {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--cached-only", // never fetch: the bench stays on 127.0.0.1
      "--allow-net",
      "--allow-env",
      "--allow-read",
      `--allow-write=${scratch}`,
      "--unstable-kv",
      "--unstable-cron",
      "main.ts",
    ],
    cwd: ROOT,
    // Deploy's environment, not the harness's (no DATABASE_URL, …).
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      DENO_DIR: denoDir,
      DENO_DEPLOYMENT_ID: "gatehouse-bench-cold-start",
      DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`,
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const drain = (stream: ReadableStream<Uint8Array<ArrayBuffer>>) =>
    stream.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write(chunk) {
          output = (output + chunk).slice(-4096);
        },
      }),
    ).catch(() => {});
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  return {
    port,
    output: () => output,
    async stop() {
      await stopProcess(child);
      await drained;
    },
  };
}

// A port nothing listens on right now (the kernel's pick, then released).
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}
