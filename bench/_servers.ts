// Starts the servers under test, each in its own Deno process so that its
// heap, JIT and event loop are its own, and stops them again.

/** A running server process and what it announced. */
export interface ServerProcess {
  /** Port on 127.0.0.1. */
  port: number;
  /** Everything the server printed on its announcement line. */
  info: Record<string, unknown>;
  /** CPU seconds the process has used so far (all its threads), or NaN. */
  cpuSeconds(): number;
  /** The last few KiB the server wrote to stderr, for diagnosis. */
  stderrTail(): string;
  /** Stops the process and waits for it. */
  stop(): Promise<void>;
}

const ROOT = new URL("../", import.meta.url);

/**
 * Runs `bench/servers/{name}.ts` (or `{name}` itself, a `.js` bundle) with
 * `config` as its JSON argument and waits for its `{"port": N}` line (up to
 * `timeoutMs`), with the lock file `lock` (the bench's `dev.lock` unless
 * told otherwise).
 */
export function startServer(
  name: string,
  config: Record<string, unknown> = {},
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  lock = "dev.lock",
): Promise<ServerProcess> {
  return startServerIn(ROOT.pathname, name, config, env, timeoutMs, lock);
}

/**
 * {@linkcode startServer} from the source tree at `root` (a directory
 * holding a checkout of Gatehouse, e.g. an older commit's, see
 * ./_trees.ts): that tree's `bench/servers/{name}.ts`, its own code, lock
 * file and node_modules.
 */
export async function startServerIn(
  root: string,
  name: string,
  config: Record<string, unknown> = {},
  env: Record<string, string> = {},
  timeoutMs = 120_000,
  lock = "dev.lock",
): Promise<ServerProcess> {
  // A name ending in .js is a bundle of one (./_bundle.ts).
  const file = name.endsWith(".js") ? name : `${name}.ts`;
  const script = `${root.replace(/\/$/, "")}/bench/servers/${file}`;
  // BENCH_CPU_PROF=dir writes a V8 CPU profile of each server process
  // there when it stops (see bench/README.md, "Profiling").
  const profileDir = Deno.env.get("BENCH_CPU_PROF");
  const profile = profileDir
    ? [
      "--cpu-prof",
      `--cpu-prof-dir=${profileDir}`,
      `--cpu-prof-name=${name}-${Date.now()}.cpuprofile`,
    ]
    : [];
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--lock=${lock}`,
      "--allow-all",
      ...profile,
      script,
      JSON.stringify(config),
    ],
    cwd: root,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // Servers' stderr is kept, not shown: libraries print warnings that would
  // break up the progress lines. It is shown when a server fails.
  let stderr = "";
  (async () => {
    try {
      for await (
        const chunk of child.stderr.pipeThrough(new TextDecoderStream())
      ) {
        stderr = (stderr + chunk).slice(-4096);
      }
    } catch { /* process gone */ }
  })();
  const lines = child.stdout.pipeThrough(new TextDecoderStream())
    .getReader();
  let pending = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Server "${name}" did not start in time`)),
      timeoutMs,
    );
  });
  const announcement = (async () => {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) {
        throw new Error(
          `Server "${name}" exited before listening:\n${stderr.trim()}`,
        );
      }
      pending += value;
      const nl = pending.indexOf("\n");
      if (nl >= 0) return JSON.parse(pending.slice(0, nl));
    }
  })();
  let info: Record<string, unknown>;
  try {
    info = await Promise.race([announcement, timeout]);
  } catch (err) {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
    throw err;
  } finally {
    clearTimeout(timer);
  }
  // Keep draining stdout so a chatty server never blocks on a full pipe.
  (async () => {
    try {
      while (!(await lines.read()).done) { /* discard */ }
    } catch { /* process gone */ }
  })();
  return {
    port: Number(info.port),
    info,
    cpuSeconds: () => cpuSecondsOf(child.pid),
    stderrTail: () => stderr,
    stop: () => stopProcess(child),
  };
}

/** Stops `child` (SIGTERM, then SIGKILL after 5 s) and waits for it. */
export async function stopProcess(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* already gone */ }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
  }, 5000);
  await child.status;
  clearTimeout(timer);
}

// utime + stime from /proc/{pid}/stat, in clock ticks of 1/100 s (the
// USER_HZ of every Linux build). NaN where /proc is not there.
function cpuSecondsOf(pid: number): number {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Runs `deno {args}` in the project and waits for it; throws with its
 * stderr when it fails (a build step of a scenario: `deno task build`,
 * `deno bundle`, a program run under coverage), with `env` added to ours.
 */
export async function runDeno(
  args: string[],
  env?: Record<string, string>,
): Promise<void> {
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args,
    env,
    cwd: ROOT.pathname,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(
      `deno ${args[0]} failed:\n${new TextDecoder().decode(stderr)}`,
    );
  }
}
