// `deno task demo` with a setting it cannot use (a first administrator it
// cannot invite: GATEHOUSE_ADMIN_EMAIL not an address, GATEHOUSE_ADMIN_NAME
// too long or holding a control character; a PORT that is not a port
// number; single sign-on variables without the issuer): it stops at start
// with one error naming the variable, before it listens or says where it
// serves; never a demo that announces itself and then dies, nor one
// listening somewhere it was not asked to, nor one that silently leaves a
// setting out.

import { assert, assertMatch } from "../fixtures/assert.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** `deno task demo`'s command line, with this Deno. */
async function demoArgs(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [, ...args] = String(config.tasks.demo).split(/\s+/);
  return args;
}

async function startDemo(
  env: Record<string, string>,
  until = "Gatehouse demo on",
) {
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
    // A demo that started is stopped once it has printed `until`.
    let out = "";
    const read = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write(chunk) {
          out += chunk;
          if (out.includes(until)) child.kill("SIGTERM");
        },
      }),
    );
    const err = new Response(child.stderr).text();
    const { code } = await child.status;
    await read;
    return { code, out, err: await err };
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
  // Number() reads these as 0, "any free port": the demo listened on a
  // port nobody asked for.
  ["a port in hexadecimal", { PORT: "0x0" }, "PORT"],
  ["a port with a fraction", { PORT: "0.0" }, "PORT"],
  // A misspelt issuer turned single sign-on off without a word, and its
  // enforcement with it: the provider's addresses signed in by password.
  [
    "single sign-on configured but for its issuer",
    {
      GATEHOUSE_OIDC_ISSUER_URL: "https://login.acme.example",
      GATEHOUSE_OIDC_CLIENT_ID: "gatehouse",
      GATEHOUSE_OIDC_CLIENT_SECRET: "s3cret",
      GATEHOUSE_OIDC_DOMAINS: "acme.example",
      GATEHOUSE_OIDC_ENFORCE: "1",
    },
    "GATEHOUSE_OIDC_ISSUER",
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

Deno.test("the demo names its first administrator after a long email's local part, cut to the name limit", async () => {
  // GATEHOUSE_ADMIN_NAME unset: the name is the email's local part, which
  // may be longer than a name may be (an address holds 254 characters).
  const local = "a".repeat(150);
  const { out, err } = await startDemo(
    { GATEHOUSE_ADMIN_EMAIL: `${local}@example.com` },
    "It works once",
  );
  assertMatch(out, /No accounts yet/, err);
  assertMatch(out, /^ +http:\/\/localhost:\d+\/invite#token=\S+$/m);
});
