// `deno task create-admin` for real: a child process on a temporary KV file,
// with --password-stdin and at a real terminal (a pty from util-linux's
// `script`), then a login over HTTP with the account it created.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { PASSWORD, serveHandler } from "../fixtures/kv.ts";
import { cookiePair, gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../../demo_config.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const SCRIPT = ["/usr/bin/script", "/bin/script"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
});
const NO_PTY = SCRIPT === undefined && Deno.env.get("CI") !== "true";
if (NO_PTY) {
  console.warn(
    "create-admin at a terminal: skipped, util-linux `script` is missing",
  );
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

// A temporary KV file for one test; DATABASE_URL is cleared so the command
// picks it even where the environment names a Postgres database.
async function tempKv() {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/gatehouse.kv`;
  return {
    path,
    env: { GATEHOUSE_KV_PATH: path, DATABASE_URL: "" },
    remove: () => Deno.remove(dir, { recursive: true }),
  };
}

async function createAdmin(args: string[], stdin: string, kvPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "create-admin", ...args],
    cwd: ROOT,
    env: { GATEHOUSE_KV_PATH: kvPath, DATABASE_URL: "" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(encoder.encode(stdin));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  return { code, out: decoder.decode(stdout), err: decoder.decode(stderr) };
}

// Opens the KV file the command wrote, serves the auth routes on it and
// signs in with `email` and `password`, then lists accounts (privileged).
async function loginOverHttp(kvPath: string, email: string, password: string) {
  const kv = await Deno.openKv(kvPath);
  const store = new KvStore(kv);
  const { gatehouse, app } = gatehouseApp({ store, roles: ROLES });
  const server = serveHandler(app);
  try {
    const login = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      body: JSON.stringify({ email, password }),
    });
    const identity = await login.json();
    if (login.status !== 200) return { status: login.status, identity };
    const privileged = await fetch(`${server.url}/api/users`, {
      headers: { cookie: cookiePair(login.headers.get("set-cookie")) },
    });
    await privileged.body?.cancel();
    return { status: login.status, identity, privileged: privileged.status };
  } finally {
    await server.close();
    // The sign-in's work after its answer (the limiter's give-back, the
    // account lock's release) lands before the store closes.
    await gatehouse.settled();
    kv.close();
  }
}

async function accounts(kvPath: string): Promise<string[]> {
  const kv = await Deno.openKv(kvPath);
  try {
    const page = await new KvStore(kv).listUsers({ limit: 100 });
    return page.users.map((user) => user.email);
  } finally {
    kv.close();
  }
}

const ADA = [
  "--email",
  "ada@example.com",
  "--name",
  "Ada Lovelace",
  "--role",
  "admin",
];

Deno.test("create-admin --password-stdin creates an administrator who can sign in over HTTP", async () => {
  const kv = await tempKv();
  try {
    const r = await createAdmin(
      [...ADA, "--password-stdin"],
      `${PASSWORD}\n`,
      kv.path,
    );
    assertEquals(r.code, 0, r.err);
    assertEquals(r.err, "");
    assertMatch(
      r.out,
      /^Created administrator "ada@example\.com" with role "admin" \(id [0-9a-f-]{36}\)\n$/,
    );
    const login = await loginOverHttp(kv.path, "ADA@example.com", PASSWORD);
    assertEquals(login.status, 200);
    assertEquals(login.identity.name, "Ada Lovelace");
    assertEquals(login.identity.role, "admin");
    assertEquals(login.identity.capabilities, ["users.manage"]);
    assertEquals(login.privileged, 200);
  } finally {
    await kv.remove();
  }
});

Deno.test("create-admin refuses a role the privileged list does not admit, creating nothing", async () => {
  const kv = await tempKv();
  try {
    const args = [
      "--email",
      "m@example.com",
      "--name",
      "M",
      "--role",
      "member",
      "--password-stdin",
    ];
    const r = await createAdmin(args, `${PASSWORD}\n`, kv.path);
    assertEquals(r.code, 1);
    assertEquals(
      r.err,
      'Role "member" may not administer users: use "admin"\n',
    );
    assertEquals(r.out, "");
    assertEquals(await accounts(kv.path), []);
  } finally {
    await kv.remove();
  }
});

Deno.test("create-admin refuses an email that already has an account", async () => {
  const kv = await tempKv();
  try {
    const first = await createAdmin(
      [...ADA, "--password-stdin"],
      `${PASSWORD}\n`,
      kv.path,
    );
    assertEquals(first.code, 0, first.err);
    const args = [
      "--email",
      " Ada@Example.COM",
      "--name",
      "Other",
      "--role",
      "admin",
      "--password-stdin",
    ];
    const again = await createAdmin(args, "another long password\n", kv.path);
    assertEquals(again.code, 1);
    assertEquals(
      again.err,
      'Email address is already in use: "Ada@Example.COM"\n',
    );
    assertEquals(await accounts(kv.path), ["ada@example.com"]);
    assertEquals(
      (await loginOverHttp(kv.path, "ada@example.com", "another long password"))
        .status,
      401,
    );
  } finally {
    await kv.remove();
  }
});

Deno.test("create-admin refuses missing arguments with exit code 2 and one line", async () => {
  const kv = await tempKv();
  try {
    const r = await createAdmin(
      ["--email", "a@example.com", "--password-stdin"],
      "",
      kv.path,
    );
    assertEquals(r.code, 2);
    assertMatch(
      r.err,
      /^Missing --name \(Usage: deno task create-admin [^\n]+\)\n$/,
    );
  } finally {
    await kv.remove();
  }
});

Deno.test("create-admin without --password-stdin and without a terminal refuses to prompt", async () => {
  const kv = await tempKv();
  try {
    const r = await createAdmin(ADA, `${PASSWORD}\n${PASSWORD}\n`, kv.path);
    assertEquals(r.code, 1);
    assertEquals(
      r.err,
      "Cannot prompt for the password: stdin is not a terminal (pass --password-stdin)\n",
    );
    assertEquals(await accounts(kv.path), []);
  } finally {
    await kv.remove();
  }
});

// Runs the command on a pty and types each answer once its prompt shows.
// Returns everything the terminal displayed.
async function atTerminal(args: string[], answers: string[], kvPath: string) {
  const quoted = [Deno.execPath(), "task", "-q", "create-admin", ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  const child = new Deno.Command(SCRIPT ?? "script", {
    args: ["-qec", quoted, "/dev/null"],
    cwd: ROOT,
    env: { GATEHOUSE_KV_PATH: kvPath, DATABASE_URL: "", TERM: "dumb" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  const reader = child.stdout.getReader();
  let shown = "";
  const waitFor = async (text: string, from: number) => {
    while (shown.indexOf(text, from) === -1) {
      const { done, value } = await reader.read();
      if (done) {
        throw new Error(
          `no ${JSON.stringify(text)} in ${JSON.stringify(shown)}`,
        );
      }
      shown += decoder.decode(value, { stream: true });
    }
    return shown.indexOf(text, from) + text.length;
  };
  try {
    let at = 0;
    for (const [i, answer] of answers.entries()) {
      at = await waitFor(i === 0 ? "Password: " : "Repeat password: ", at);
      await writer.write(encoder.encode(answer + "\r"));
    }
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      shown += decoder.decode(value, { stream: true });
    }
  } finally {
    await writer.close().catch(() => {});
    reader.releaseLock();
  }
  const { code } = await child.status;
  await child.stdout.cancel();
  await child.stderr.cancel();
  return { code, shown: shown.replaceAll("\r\n", "\n") };
}

Deno.test({
  name:
    "create-admin at a terminal asks twice without echo, and the account signs in over HTTP",
  ignore: NO_PTY,
  async fn() {
    const kv = await tempKv();
    try {
      const r = await atTerminal(ADA, [PASSWORD, PASSWORD], kv.path);
      assertEquals(r.code, 0, r.shown);
      assert(
        !r.shown.includes(PASSWORD),
        `the password was echoed: ${r.shown}`,
      );
      assertMatch(
        r.shown,
        /^Password: \nRepeat password: \nCreated administrator "ada@example\.com" with role "admin" \(id [0-9a-f-]{36}\)\n$/,
      );
      const login = await loginOverHttp(kv.path, "ada@example.com", PASSWORD);
      assertEquals(login.status, 200);
      assertEquals(login.identity.role, "admin");
    } finally {
      await kv.remove();
    }
  },
});

Deno.test({
  name: "create-admin at a terminal refuses passwords that do not match",
  ignore: NO_PTY,
  async fn() {
    const kv = await tempKv();
    try {
      const r = await atTerminal(ADA, [PASSWORD, `${PASSWORD}.`], kv.path);
      assertEquals(r.code, 1);
      assertEquals(
        r.shown,
        "Password: \nRepeat password: \nPasswords do not match\n",
      );
      assertEquals(await accounts(kv.path), []);
    } finally {
      await kv.remove();
    }
  },
});
