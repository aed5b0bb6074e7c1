// Deploy parity (issue 31): no test here can reach Deno Deploy, so the demo
// is started the way Deploy runs it, after `deno task build` (Deploy's build
// step): DENO_DEPLOYMENT_ID set, a clean environment, and only
// `--allow-net --allow-env --allow-read` — no FFI (so argon2id must be the
// WebAssembly one), no subprocess (so the island bundle must be the prebuilt
// file), no --allow-sys and no file write at all. A demo that needed any of
// them throws NotCapable and this test fails.
//
// The store: on Deploy main.ts opens the app's KV database with
// `Deno.openKv()` and no path (it ignores GATEHOUSE_KV_PATH there). Locally
// that database lives in DENO_DIR's origin storage, which Deno writes without
// asking for a permission. So the child gets a DENO_DIR of its own in a
// temporary folder (its module caches linked to the real ones, so nothing is
// fetched or compiled twice): the KV file the test hands it, opened after the
// run to check what the demo stored.
//
// Where it listens: on Deploy main.ts keeps Deno.serve's defaults (port 8000,
// every interface) and ignores PORT and GATEHOUSE_HOSTNAME, so the test
// needs port 8000 free and talks to it on 127.0.0.1 only.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { argon2Verify } from "hash-wasm";
import { KvStore } from "../../server/stores/kv/mod.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PORT = 8000; // Deno.serve's default, which main.ts keeps on Deploy
const ORIGIN = `http://127.0.0.1:${PORT}`;
const ADMIN = "admin@example.com";
const PASSWORD = "first administrator on deploy";
const NEW_PASSWORD = "a second password on deploy";
/** How long the demo may take to start and print its first-run link. */
const START_DEADLINE_MS = 60_000;
const WASM_FALLBACK = "argon2id: native addon unavailable, using WebAssembly";
const CRON_REGISTERED = /^Reaper: .*Deno\.cron "gatehouse-reaper"/m;

/** Runs `deno task build`; returns the bundle's served path it printed. */
async function build(): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "build"],
    cwd: ROOT,
    stdin: "null",
  }).output();
  const printed = new TextDecoder().decode(stdout);
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const served = printed.match(/served as (\/build\/islands-[0-9a-f]+\.js)/)
    ?.[1];
  assert.ok(served, printed);
  return served;
}

/** The real DENO_DIR, whose caches the child's own DENO_DIR links to. */
async function realDenoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdin: "null",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/**
 * A DENO_DIR in `dir` sharing the module caches (npm, remote, compiled) of
 * the real one, with an origin storage of its own: the child's KV database.
 */
async function ownDenoDir(dir: string): Promise<string> {
  const real = await realDenoDir();
  const own = `${dir}/deno_dir`;
  await Deno.mkdir(own);
  for (const cache of ["npm", "remote", "gen"]) {
    await Deno.symlink(`${real}/${cache}`, `${own}/${cache}`);
  }
  return own;
}

/** Fails early and clearly when something else holds Deploy's port. */
function assertPortFree(): void {
  try {
    Deno.listen({ hostname: "0.0.0.0", port: PORT }).close();
  } catch (cause) {
    throw new Error(
      `Port ${PORT} is taken: the demo listens there on Deploy (Deno.serve's default). Free it and rerun.`,
      { cause },
    );
  }
}

/** Reads a stream to the end into a string the caller can inspect. */
function collect(stream: ReadableStream<Uint8Array<ArrayBuffer>>): {
  text(): string;
  done: Promise<void>;
} {
  let text = "";
  const done = stream.pipeThrough(new TextDecoderStream()).pipeTo(
    new WritableStream({
      write(chunk) {
        text += chunk;
      },
    }),
  );
  return { text: () => text, done };
}

/** The demo, started as Deno Deploy runs it. */
async function startAsDeploy(denoDir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--cached-only", // never fetch: the test stays on 127.0.0.1
      "--allow-net",
      "--allow-env",
      "--allow-read",
      "--unstable-kv",
      "--unstable-cron",
      "main.ts",
    ],
    cwd: ROOT,
    // Deploy's environment, not this one (no DATABASE_URL, PUBLIC_URL, …).
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      DENO_DIR: denoDir,
      DENO_DEPLOYMENT_ID: "deploy-parity-test",
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // Already exited.
    }
    const status = await child.status;
    await Promise.all([stdout.done, stderr.done]);
    return status;
  };
  // On Deploy without PUBLIC_URL the link is printed as a path.
  const LINK = /<your deployment's URL>(\/invite#token=[A-Za-z0-9_-]+)/;
  const deadline = Date.now() + START_DEADLINE_MS;
  let exited = false;
  child.status.then(() => exited = true);
  while (!LINK.test(stdout.text())) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(
        `The demo printed no first-run link (${
          exited ? "it exited" : "timed out"
        }).\nstdout:\n${stdout.text()}\nstderr:\n${stderr.text()}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    link: stdout.text().match(LINK)![1]!,
    stdout: () => stdout.text(),
    stderr: () => stderr.text(),
    stop,
  };
}

/** `name=value` of a Set-Cookie header, for the Cookie header. */
function cookieOf(res: Response): string {
  const setCookie = res.headers.get("set-cookie");
  assert.ok(setCookie, `no Set-Cookie on ${res.url}`);
  return setCookie.split(";")[0]!;
}

function postJson(
  path: string,
  body: unknown,
  cookie?: string,
): Promise<Response> {
  return fetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: JSON.stringify(body),
  });
}

function sessionCheck(cookie: string): Promise<Response> {
  return fetch(`${ORIGIN}/api/auth/session`, { headers: { cookie } });
}

/** The one KV database the child opened in its own origin storage. */
async function childKvPath(denoDir: string): Promise<string> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(`${denoDir}/location_data`)) {
    const path = `${denoDir}/location_data/${entry.name}/kv.sqlite3`;
    if (await Deno.stat(path).then(() => true, () => false)) found.push(path);
  }
  assert.equal(found.length, 1, `KV databases: ${found.join(", ")}`);
  return found[0]!;
}

Deno.test(
  "deploy parity: after `deno task build`, the demo run as Deno Deploy runs it (no FFI, no subprocess, no writes) serves its pages, first-run link, WebAssembly sign-in, session check, sign-out and the reaper's cron",
  async () => {
    const bundlePath = await build();
    const bundle = await Deno.readTextFile(`${ROOT}static/build/islands.js`);
    assertPortFree();
    const dir = await Deno.makeTempDir({ prefix: "gatehouse_deploy_" });
    const denoDir = await ownDenoDir(dir);
    const demo = await startAsDeploy(denoDir);
    let stopped = false;
    try {
      // The Deploy branch was taken: the store is the platform's KV.
      assert.match(demo.stdout(), /store: kv at Deno Deploy/);
      assert.match(demo.stdout(), CRON_REGISTERED);

      // The pages, and the island bundle `deno task build` made.
      const home = await fetch(`${ORIGIN}/`);
      assert.equal(home.status, 200);
      assert.match(home.headers.get("content-type")!, /^text\/html/);
      const html = await home.text();
      assert.ok(html.includes(bundlePath), `no ${bundlePath} in the page`);
      const script = await fetch(`${ORIGIN}${bundlePath}`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get("content-type")!, /javascript/);
      assert.equal(await script.text(), bundle);
      const invitePage = await fetch(`${ORIGIN}/invite`);
      assert.equal(invitePage.status, 200);
      assert.match(await invitePage.text(), /<html/);

      // The first-run link sets the administrator's password and signs in.
      const token = new URLSearchParams(demo.link.split("#")[1]).get("token");
      assert.ok(token);
      const accepted = await postJson("/api/auth/invite/accept", {
        token,
        password: PASSWORD,
      });
      assert.equal(accepted.status, 200);
      const identity = await accepted.json();
      assert.equal(identity.email, ADMIN);
      assert.equal(identity.role, "admin");
      const firstCookie = cookieOf(accepted);
      const firstCheck = await sessionCheck(firstCookie);
      assert.equal(firstCheck.status, 200);
      assert.equal((await firstCheck.json()).id, identity.id);
      // The link worked once.
      const again = await postJson("/api/auth/invite/accept", {
        token,
        password: PASSWORD,
      });
      assert.equal(again.status >= 400 && again.status < 500, true);
      await again.body?.cancel();

      // Sign-in with that password, and the session check answers it.
      const wrong = await postJson("/api/auth/login", {
        email: ADMIN,
        password: "not the password",
      });
      assert.equal(wrong.status, 401);
      await wrong.body?.cancel();
      const login = await postJson("/api/auth/login", {
        email: ADMIN,
        password: PASSWORD,
      });
      assert.equal(login.status, 200);
      assert.equal((await login.json()).id, identity.id);
      const cookie = cookieOf(login);
      const check = await sessionCheck(cookie);
      assert.equal(check.status, 200);
      const answered = await check.json();
      assert.deepEqual(
        [answered.id, answered.email, answered.role],
        [identity.id, ADMIN, "admin"],
      );

      // Sign-out ends that session and only that one.
      const logout = await postJson("/api/auth/logout", {}, cookie);
      assert.equal(logout.status, 204);
      await logout.body?.cancel();
      const after = await sessionCheck(cookie);
      assert.equal(after.status, 401);
      await after.body?.cancel();
      const other = await sessionCheck(firstCookie);
      assert.equal(other.status, 200);
      await other.body?.cancel();

      // A password change (the dictionary check, a new hash) works under
      // the same permissions.
      const changed = await postJson("/api/auth/password", {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      }, firstCookie);
      assert.equal(changed.status, 204, await changed.text());

      // argon2id ran as WebAssembly: FFI was denied, so the native addon
      // could not load and the hasher said so once.
      const stderr = demo.stderr();
      assert.equal(stderr.split(WASM_FALLBACK).length - 1, 1, stderr);
      // Nothing else was refused: no write, subprocess or system call
      // attempted and swallowed (the FFI refusal is the fallback's cause).
      const refusals = stderr.split("\n").filter((line) =>
        /NotCapable|Requires \w+ access/.test(line) &&
        !/Requires ffi access/.test(line)
      );
      assert.deepEqual(refusals, [], stderr);

      const status = await demo.stop();
      stopped = true;
      assert.equal(status.code, 0, demo.stderr());

      // What the demo stored is in the KV database the test handed it, and
      // its hash is argon2id verified by hash-wasm (the same PHC string).
      const kv = await Deno.openKv(await childKvPath(denoDir));
      try {
        const stored = await new KvStore(kv).credentialsByEmail(ADMIN);
        assert.ok(stored);
        assert.match(
          stored.passwordHash,
          /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/,
        );
        assert.equal(
          await argon2Verify({
            hash: stored.passwordHash,
            password: NEW_PASSWORD,
          }),
          true,
        );
      } finally {
        kv.close();
      }
    } finally {
      if (!stopped) await demo.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
);
