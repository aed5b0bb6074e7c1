// openStoreFromEnv() with GATEHOUSE_SQLITE_PATH: the SQLite branch the
// demo, create-admin and the tests share, and both commands run for real
// (with their deno.json tasks' permissions) on a SQLite file.

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { openStoreFromEnv } from "../../server/stores/open.ts";
import { SqliteStore } from "../../server/stores/sqlite/mod.ts";

const ROOT = new URL("../../", import.meta.url).pathname;
const decoder = new TextDecoder();

// A temporary directory; the database goes in a folder not made yet.
async function tempDir<T>(fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "gatehouse_sqlite_" });
  try {
    return await fn(`${dir}/data/gatehouse.db`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// The accounts the file holds, read with SQLite alone.
function emailsIn(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(
      "SELECT json_extract(value, '$.email') AS email FROM gatehouse_records WHERE kind = 'account'",
    ).all().map((row) => String(row.email));
  } finally {
    db.close();
  }
}

Deno.test("openStoreFromEnv() opens and migrates SQLite when GATEHOUSE_SQLITE_PATH is set", async () => {
  await tempDir(async (path) => {
    const opened = await openStoreFromEnv({
      GATEHOUSE_SQLITE_PATH: ` ${path} `,
      GATEHOUSE_KV_PATH: "/nonexistent/never-opened.kv",
    });
    try {
      assert.equal(opened.kind, "sqlite");
      assert.equal(opened.location, path);
      assert.ok(opened.store instanceof SqliteStore);
      assert.equal(await opened.store.hasUsers(), false);
      await opened.store.createUser({
        id: crypto.randomUUID(),
        email: "Ada@Example.com",
        emailKey: "ada@example.com",
        name: "Ada",
        role: "admin",
        passwordHash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA",
        createdAt: Date.now(),
      });
    } finally {
      await opened.close();
    }
    // On the file, and there when opened again.
    assert.deepEqual(emailsIn(path), ["Ada@Example.com"]);
    const again = await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path });
    try {
      assert.equal(await again.store.hasUsers(), true);
    } finally {
      await again.close();
    }
  });
});

Deno.test("openStoreFromEnv() prefers DATABASE_URL to GATEHOUSE_SQLITE_PATH, and KV without either", async () => {
  await tempDir(async (path) => {
    // Port 1 on 127.0.0.1 refuses at once: Postgres was chosen.
    await assert.rejects(
      openStoreFromEnv({
        DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
        GATEHOUSE_SQLITE_PATH: path,
      }),
      /ECONNREFUSED/,
    );
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    const kv = await openStoreFromEnv({
      GATEHOUSE_SQLITE_PATH: " ",
      GATEHOUSE_KV_PATH: ":memory:",
    });
    assert.equal(kv.kind, "kv");
    await kv.close();
  });
});

Deno.test("openStoreFromEnv() opens SQLite in memory and refuses a file a newer Gatehouse migrated", async () => {
  const memory = await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: ":memory:" });
  assert.deepEqual([memory.kind, memory.location], ["sqlite", ":memory:"]);
  await memory.close();
  await tempDir(async (path) => {
    await (await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path })).close();
    const db = new DatabaseSync(path);
    db.exec("UPDATE gatehouse_schema SET version = 2");
    db.close();
    await assert.rejects(
      openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path }),
      /schema version 2, newer than this Gatehouse knows/,
    );
  });
});

Deno.test("openStoreFromEnv() names the SQLite file another process holds locked, at start", async () => {
  await tempDir(async (path) => {
    await (await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path })).close();
    // Another program holding the file as its own (exclusive locking,
    // having written), as a forgotten `sqlite3` shell may.
    const holder = new DatabaseSync(path);
    try {
      holder.exec(`PRAGMA locking_mode = EXCLUSIVE;
        CREATE TABLE app_notes (note TEXT)`);
      await assert.rejects(
        openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path }),
        (err: Error) => {
          assert.ok(err.message.includes(path), err.message);
          assert.match(err.message, /stayed locked by another connection/);
          return true;
        },
      );
    } finally {
      holder.close();
    }
    const opened = await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path });
    assert.equal(await opened.store.hasUsers(), false);
    await opened.close();
  });
});

// Whether `chattr` can make a file immutable here (root with the
// capability): then even root may only read it, as a server's user may
// only read a file it does not own.
function immutable(path: string, on: boolean): boolean {
  try {
    return new Deno.Command("chattr", { args: [on ? "+i" : "-i", path] })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("a SQLite file this process may only read is refused at start, not by a 500 on each write", async () => {
  await tempDir(async (path) => {
    await (await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path })).close();
    // SQLite opens a file it cannot write read-only, without a word; a URI
    // asks for that here whoever runs the test.
    const readOnly = new SqliteStore({ path: `file:${path}?mode=ro` });
    try {
      await assert.rejects(readOnly.migrate(), /is read-only for this process/);
    } finally {
      readOnly.close();
    }
    if (immutable(path, true)) {
      try {
        await assert.rejects(
          openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path }),
          (err: Error) => {
            assert.ok(err.message.includes(path), err.message);
            assert.match(err.message, /is read-only for this process/);
            return true;
          },
        );
      } finally {
        immutable(path, false);
      }
    }
    const opened = await openStoreFromEnv({ GATEHOUSE_SQLITE_PATH: path });
    assert.equal(await opened.store.hasUsers(), false);
    await opened.close();
  });
  // A file another program made (rollback journal, not yet WAL) is refused
  // as plainly: switching it to WAL is its first write.
  await tempDir(async (path) => {
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")));
    const other = new DatabaseSync(path);
    other.exec("CREATE TABLE app_notes (note TEXT)");
    other.close();
    const readOnly = new SqliteStore({ path: `file:${path}?mode=ro` });
    try {
      await assert.rejects(readOnly.migrate(), (err: Error) => {
        assert.ok(err.message.includes(path), err.message);
        assert.match(err.message, /is read-only for this process/);
        return true;
      });
    } finally {
      readOnly.close();
    }
  });
});

// A deno.json task's command line (its permissions), with this Deno and
// the development lock file, which tests never rewrite deno.lock past.
async function taskArgs(name: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const [deno, run, ...args] = String(config.tasks[name]).split(/\s+/);
  assert.deepEqual([deno, run], ["deno", "run"]);
  return [run!, "--lock=dev.lock", ...args];
}

Deno.test("create-admin writes the administrator to the SQLite file GATEHOUSE_SQLITE_PATH names", async () => {
  await tempDir(async (path) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        ...await taskArgs("create-admin"),
        "--email",
        "root@example.com",
        "--name",
        "Root",
        "--role",
        "admin",
        "--password-stdin",
      ],
      cwd: ROOT,
      env: { GATEHOUSE_SQLITE_PATH: path, DATABASE_URL: "" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("a long enough password 42\n"));
    await writer.close();
    const { code, stderr } = await child.output();
    assert.equal(code, 0, decoder.decode(stderr));
    assert.deepEqual(emailsIn(path), ["root@example.com"]);
  });
});

Deno.test("the demo names its SQLite store at start-up: store: sqlite at PATH", async () => {
  await tempDir(async (path) => {
    const child = new Deno.Command(Deno.execPath(), {
      args: await taskArgs("demo"),
      cwd: ROOT,
      env: { PORT: "0", GATEHOUSE_SQLITE_PATH: path, DATABASE_URL: "" },
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    let printed = "";
    try {
      while (!/invite#token=/.test(printed)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`The demo stopped early:\n${printed}`);
        printed += value;
      }
    } finally {
      child.kill("SIGTERM");
      while (!(await reader.read()).done) { /* drain */ }
      await child.status;
    }
    assert.match(printed, /Gatehouse demo on http:\/\/localhost:\d+ /);
    assert.ok(printed.includes(`(store: sqlite at ${path})`), printed);
    assert.match(printed, /No accounts yet/);
    // The first-run invitation is on the file.
    const db = new DatabaseSync(path, { readOnly: true });
    try {
      const row = db.prepare(
        "SELECT count(*) AS n FROM gatehouse_records WHERE kind = 'link'",
      ).get();
      assert.equal(row?.n, 1);
    } finally {
      db.close();
    }
  });
});
