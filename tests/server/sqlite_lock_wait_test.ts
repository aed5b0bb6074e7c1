// A write on SQLite waiting for the lock another connection holds (another
// instance on the same file, `create-admin`, the application's own
// transaction on its tables in the same file) waits without holding up the
// process: requests that need no write are answered meanwhile, and a lock
// held by this very thread (released by a timer) can be let go. Before,
// the wait was SQLite's own busy wait on the thread, up to 15 s: a session
// check sent while a sign-in waited was answered only once the lock was
// released, and a sign-in waiting for a lock this thread's own timer would
// release answered 500 after 15 s, the timer never having had its turn.
// Reads wait so too: no connection can hold them up for long while the
// store has the file open (in WAL mode), but one that held the file under
// exclusive locking before kept a store opening on it busy waiting on the
// thread for 5 s, then refused it.

import { assert, assertEquals, assertMatch } from "../fixtures/assert.ts";
import { DatabaseSync } from "node:sqlite";
import { SqliteStore } from "../../server/stores/sqlite/mod.ts";
import { settled } from "../../server/http/_background.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  PASSWORD,
  serve,
} from "../fixtures/kv.ts";
import type { LockHold } from "../fixtures/sqlite_lock_holder.ts";

/** Gatehouse on a SQLite file, served, with an account and its session. */
async function served(
  fn: (world: {
    path: string;
    store: SqliteStore;
    login(): Promise<Response>;
    check(cookie: string): Promise<Response>;
    cookie: string;
    logger: ReturnType<typeof memoryLogger>;
  }) => Promise<void>,
) {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  const store = new SqliteStore({ path });
  const logger = memoryLogger();
  const { gatehouse, app } = gatehouseApp({ store, logger, hasher });
  const server = serve((req, info) => app(req, undefined, info));
  try {
    await store.migrate();
    await addUser(store, { email: "ada@example.com" });
    const login = () =>
      fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
      });
    const first = await login();
    assertEquals(first.status, 200);
    await first.body?.cancel();
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    const check = (cookie: string) =>
      fetch(`${server.url}/api/auth/session`, { headers: { cookie } });
    await settled(store);
    await fn({ path, store, login, check, cookie, logger });
  } finally {
    await gatehouse.settled();
    await server.close();
    store.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      await Deno.remove(path + suffix).catch(() => {});
    }
  }
}

/**
 * Another thread takes the file's write lock and holds it for `ms`:
 * answers once it is held, with what that thread has said ("held", then
 * "released"), the release to wait for, and the worker to terminate.
 */
async function holdLock(path: string, ms: number) {
  const worker = new Worker(
    new URL("../fixtures/sqlite_lock_holder.ts", import.meta.url),
    { type: "module" },
  );
  const said: string[] = [];
  let heard: () => void = () => {};
  worker.onmessage = (e) => {
    said.push(e.data);
    heard();
  };
  const next = () => new Promise<void>((resolve) => heard = resolve);
  const held = next();
  worker.postMessage({ path, ms } satisfies LockHold);
  await held;
  return { said, released: next(), worker };
}

Deno.test("SQLite: a session check is answered while a sign-in waits for another thread's lock", async () => {
  await served(async ({ path, login, check, cookie, logger }) => {
    const { said, released, worker } = await holdLock(path, 2_500);
    try {
      const signIn = login();
      // The sign-in reaches its first write (the limiter's count) and waits.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const started = performance.now();
      const answer = await check(cookie);
      const took = performance.now() - started;
      assertEquals(answer.status, 200);
      await answer.body?.cancel();
      assertEquals(said, ["held"], "the lock was still held");
      assert(took < 1_000, `the check took ${Math.round(took)} ms`);
      const signedIn = await signIn;
      assertEquals(signedIn.status, 200);
      await signedIn.body?.cancel();
      await released;
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      worker.terminate();
    }
  });
});

Deno.test("SQLite: a sign-in waits for a lock this thread's own timer releases", async () => {
  await served(async ({ path, login, logger }) => {
    const app = new DatabaseSync(path);
    try {
      app.exec("BEGIN IMMEDIATE");
      setTimeout(() => app.exec("COMMIT"), 500);
      const started = performance.now();
      const signedIn = await login();
      assertEquals(signedIn.status, 200);
      await signedIn.body?.cancel();
      assert(performance.now() - started < 5_000);
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      app.close();
    }
  });
});

Deno.test("SQLite: a session check is answered while hundreds of writes wait for another thread's lock", async () => {
  await served(async ({ path, store, check, cookie, logger }) => {
    const { said, released, worker } = await holdLock(path, 2_500);
    try {
      // Hundreds of requests' writes at once (a sign-in's first is the
      // limiter's count), all waiting for the lock. Each used to try for it
      // on the thread, 10 ms a try and every try again each pause: the
      // process was held up as long as the lock was.
      const now = Date.now();
      const writes = Array.from(
        { length: 200 },
        (_, i) =>
          store.reserveAttempt(`crowd:${i}`, {
            now,
            windowMs: 60_000,
            limit: 5,
          }),
      );
      const started = performance.now();
      const answer = await check(cookie);
      const took = performance.now() - started;
      assertEquals(answer.status, 200);
      await answer.body?.cancel();
      assertEquals(said, ["held"], "the lock was still held");
      assert(took < 1_000, `the check took ${Math.round(took)} ms`);
      const reserved = await Promise.all(writes);
      assert(reserved.every((r) => r.admitted && r.count === 1));
      await released;
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      worker.terminate();
    }
  });
});

Deno.test("SQLite: no connection can take the open file under exclusive locking, so a session check never waits for one", async () => {
  await served(async ({ path, check, cookie, logger }) => {
    // A connection asking for the file as its own (exclusive locking), as a
    // forgotten `sqlite3` shell may. In WAL mode every open connection holds
    // a shared lock that refuses it: it is locked out, not the store. (Were
    // the file in rollback-journal mode, it would take the lock on its
    // write and hold it, and the check would wait for it on the thread.)
    const holder = new DatabaseSync(path);
    try {
      holder.exec("PRAGMA locking_mode = EXCLUSIVE");
      let refused: unknown;
      try {
        holder.exec("CREATE TABLE app_notes (note TEXT)");
      } catch (err) {
        refused = err;
      }
      assertMatch(String(refused), /database is locked/);
      const started = performance.now();
      const answer = await check(cookie);
      const took = performance.now() - started;
      assertEquals(answer.status, 200);
      await answer.body?.cancel();
      assert(took < 1_000, `the check took ${Math.round(took)} ms`);
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      holder.close();
    }
  });
});

Deno.test("SQLite: a store opening on a file another connection holds exclusively waits between turns", async () => {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  const first = new SqliteStore({ path });
  await first.migrate();
  first.close();
  // The file held as its own by a connection of this thread (exclusive
  // locking, having written), let go by a timer: opening can only succeed
  // by waiting for it between turns of the event loop.
  const holder = new DatabaseSync(path);
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 10);
  let release: ReturnType<typeof setTimeout> | undefined;
  try {
    holder.exec(`PRAGMA locking_mode = EXCLUSIVE;
      CREATE TABLE app_notes (note TEXT)`);
    release = setTimeout(() => holder.close(), 500);
    const store = new SqliteStore({ path });
    try {
      await store.migrate();
      assertEquals(await store.hasUsers(), false);
    } finally {
      store.close();
    }
    // The process went on meanwhile: the timer kept firing.
    assert(ticks >= 10, `the timer fired ${ticks} times`);
  } finally {
    clearInterval(ticking);
    clearTimeout(release);
    if (holder.isOpen) holder.close();
    for (const suffix of ["", "-wal", "-shm"]) {
      await Deno.remove(path + suffix).catch(() => {});
    }
  }
});
