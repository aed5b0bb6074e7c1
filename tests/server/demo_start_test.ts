// `deno task demo` with a first administrator it cannot invite
// (GATEHOUSE_ADMIN_EMAIL not an address, GATEHOUSE_ADMIN_NAME too long or
// holding a control character): it stops at start with one error naming the
// variable, before it listens or says where it serves; never a demo that
// announces itself and then dies.

import { assert, assertMatch } from "../fixtures/assert.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const decoder = new TextDecoder();

/** `deno task demo`'s command line, with this Deno. */
async function demoArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [, ...args] = String(config.tasks.demo).split(/\s+/);
  return args;
}

async function startDemo(env: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_demo_start_" });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--lock=dev.lock", ...(await demoArgs()).slice(1)],
      cwd: ROOT,
      env: {
        PORT: "0",
        GATEHOUSE_HOSTNAME: "127.0.0.1",
        GATEHOUSE_KV_PATH: `${dir}/demo.kv`,
        DATABASE_URL: "",
        NO_COLOR: "1",
        ...env,
      },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    // A demo that started anyway is stopped once it said so.
    const timer = setTimeout(() => child.kill("SIGTERM"), 60_000);
    const { code, stdout, stderr } = await child.output();
    clearTimeout(timer);
    return { code, out: decoder.decode(stdout), err: decoder.decode(stderr) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const CASES: [string, Record<string, string>, string][] = [
  [
    "an admin email that is not an address",
    { GATEHOUSE_ADMIN_EMAIL: "not-an-email" },
    "GATEHOUSE_ADMIN_EMAIL",
  ],
  [
    "an admin name past the limit",
    { GATEHOUSE_ADMIN_NAME: "n".repeat(500) },
    "GATEHOUSE_ADMIN_NAME",
  ],
  [
    "an admin name with a control character",
    { GATEHOUSE_ADMIN_NAME: "Ada\u0007Lovelace" },
    "GATEHOUSE_ADMIN_NAME",
  ],
];

for (const [what, env, variable] of CASES) {
  Deno.test(`the demo with ${what} stops at start, naming ${variable}`, async () => {
    const { code, out, err } = await startDemo(env);
    assert(code !== 0, `exit code ${code}; stdout:\n${out}`);
    assert(
      !out.includes("Gatehouse demo on"),
      `it announced itself before failing:\n${out}`,
    );
    assertMatch(err, new RegExp(`Invalid ${variable}`));
  });
}
