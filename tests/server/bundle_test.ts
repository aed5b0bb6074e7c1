// Gatehouse bundled for a serverless host (README, "Serverless cold
// start"): `deno bundle --code-splitting` of an application
// (tests/fixtures/bundled_app.ts) gives one file for what starts the server
// and a chunk per lazily imported library. The bundle, run on its own over
// a real KV file and real HTTP, answers a session check, a login (the real
// argon2id), the first call of each lazily loaded library (TOTP enrolment,
// the password dictionary) and a sign-out; and its start-up file holds none
// of those libraries. It runs
// twice: with every permission (the native argon2id, the one import left
// outside) and as Deno Deploy runs code, without FFI (the WebAssembly
// argon2id, which is inside the bundle).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { argon2Hasher } from "../../mod.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { httpCaller } from "../fixtures/http_caller.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const PASSWORD = "correct horse battery staple";

Deno.test("the application bundled with deno bundle --code-splitting signs in, loads each library on first use, and signs out", async () => {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_bundle_" });
  try {
    const bundle = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--lock=dev.lock",
        "--code-splitting",
        "--external=@node-rs/argon2",
        `--outdir=${dir}/out`,
        "tests/fixtures/bundled_app.ts",
      ],
      cwd: ROOT,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    assertEquals(
      bundle.code,
      0,
      new TextDecoder().decode(bundle.stderr),
    );
    // The start-up file: Gatehouse, without the lazily loaded libraries.
    const entry = await Deno.readTextFile(`${dir}/out/bundled_app.js`);
    for (
      const library of [
        "otpauth",
        "@simplewebauthn",
        "@zxcvbn-ts",
        "openid-client",
        "nodemailer",
        "bowser",
      ]
    ) {
      assert(
        !entry.includes(`node_modules/${library}`),
        `${library} is in the start-up file`,
      );
    }
    // Nor anywhere among the files it imports statically (what a start
    // evaluates) the modules of the features besides sign-in: each is a
    // chunk of its own, imported by the first call of one of its
    // operations (server/features/_deferred.ts).
    const startUp = await staticallyImported(`${dir}/out`, "bundled_app.js");
    for (
      const feature of [
        "_admin_operations",
        "account",
        "account_links",
        "second_factor",
        "passkeys",
        "sso",
        "invitations",
      ]
    ) {
      assert(
        !startUp.some((text) =>
          text.includes(`// server/features/${feature}.ts\n`)
        ),
        `server/features/${feature}.ts is in the start-up files`,
      );
    }

    const kvPath = `${dir}/store.kv`;
    const kv = await Deno.openKv(kvPath);
    const store = new KvStore(kv);
    await store.migrate();
    await store.createUser({
      id: crypto.randomUUID(),
      email: "ada@example.com",
      emailKey: "ada@example.com",
      name: "Ada",
      role: "member",
      passwordHash: await argon2Hasher().hash(PASSWORD),
      createdAt: Date.now(),
    });
    kv.close();

    // With every permission (the native argon2id), then as Deploy runs
    // code: no FFI, so the WebAssembly argon2id inside the bundle.
    const native = await runAndSignIn(dir, kvPath, ["--allow-all"]);
    assert(!native.includes("using WebAssembly"), native);
    const wasm = await runAndSignIn(dir, kvPath, [
      "--allow-net",
      "--allow-env",
      "--allow-read",
      `--allow-write=${dir}`,
    ]);
    assert(wasm.includes("using WebAssembly"), wasm);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// Runs the bundle in `dir` over the KV file at `kvPath` with `permissions`
// and walks through the calls; answers what it wrote to stderr.
async function runAndSignIn(
  dir: string,
  kvPath: string,
  permissions: string[],
): Promise<string> {
  // Run from outside the project, with its configuration: only the
  // argon2 import is resolved through it.
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      `--config=${ROOT}deno.json`,
      `--lock=${ROOT}dev.lock`,
      ...permissions,
      `${dir}/out/bundled_app.js`,
      kvPath,
    ],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    const port = await announcedPort(child.stdout);
    const call = httpCaller(`http://127.0.0.1:${port}`);
    assertEquals((await call("GET", "/api/auth/session")).status, 401);
    const login = await call("POST", "/api/auth/login", {
      body: { email: "ada@example.com", password: PASSWORD },
    });
    assertEquals(login.status, 200);
    const token = login.token!;
    assertEquals(
      (await call("GET", "/api/auth/session", { cookie: token })).body.email,
      "ada@example.com",
    );
    const totp = await call("POST", "/api/auth/totp/setup", {
      cookie: token,
      body: {},
    });
    assertEquals(totp.status, 200);
    assert(String(totp.body.qr_svg).startsWith("<svg"));
    const common = await call("POST", "/api/auth/password", {
      cookie: token,
      body: { current_password: PASSWORD, new_password: "password1234" },
    });
    assertEquals([common.status, common.body.code], [
      400,
      "password_too_common",
    ]);
    assertEquals(
      (await call("POST", "/api/auth/logout", { cookie: token })).status,
      204,
    );
    assertEquals(
      (await call("GET", "/api/auth/session", { cookie: token })).status,
      401,
    );
  } finally {
    child.kill("SIGTERM");
    await child.status;
  }
  const output = await stderr;
  // Nothing failed on the way (a request failing is logged).
  assert(!/request failed|uncaught/i.test(output), output);
  return output;
}

// The texts of `entry` and of every file it imports statically, in `dir`
// (the bundler's chunks: `import … from "./chunk-….js"`), not the files it
// imports with `import()`.
async function staticallyImported(
  dir: string,
  entry: string,
): Promise<string[]> {
  const texts = new Map<string, string>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (texts.has(file)) continue;
    const text = await Deno.readTextFile(`${dir}/${file}`);
    texts.set(file, text);
    for (
      const match of text.matchAll(/^(?:import|\}) [^(]*?"\.\/([^"]+)";$/gm)
    ) {
      pending.push(match[1]!);
    }
  }
  return [...texts.values()];
}

async function announcedPort(
  stdout: ReadableStream<Uint8Array<ArrayBuffer>>,
) {
  const reader = stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`The bundle exited: ${text}`);
    text += value;
  }
  reader.releaseLock();
  return JSON.parse(text.slice(0, text.indexOf("\n"))).port as number;
}
