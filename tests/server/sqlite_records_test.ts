// SqliteRecords: the record-and-commit tables in memory and on a file, and
// what only SQLite does: two connections (two instances) on one file,
// versions that never come back, the schema version, a lock waited for,
// the account and event pages, and the sweeps' boundaries.

import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { uuidv7 } from "../../server/core/_crypto.ts";
import type {
  AccountRecord,
  AuditEvent,
  RecordStore,
} from "../../server/core/records.ts";
import { recordStoreConformance } from "../../server/stores/conformance/records.ts";
import {
  account,
  event,
  session,
} from "../../server/stores/conformance/_builders.ts";
import { SqliteRecords } from "../../server/stores/sqlite/sqlite_records.ts";
import { sqliteStore } from "../../server/stores/sqlite/mod.ts";
import type { SqliteWork, SqliteWorkDone } from "../fixtures/sqlite_worker.ts";

recordStoreConformance("SqliteRecords (:memory:)", () => {
  const records = new SqliteRecords({ path: ":memory:" });
  return { records, close: () => records.close() };
});

recordStoreConformance("SqliteRecords (file)", async () => {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  const records = new SqliteRecords({ path });
  return {
    records,
    async close() {
      records.close();
      await removeDb(path);
    },
  };
});

// The database file and the WAL files beside it.
async function removeDb(path: string): Promise<void> {
  for (const suffix of ["", "-wal", "-shm"]) {
    await Deno.remove(path + suffix).catch(() => {});
  }
}

/** Two migrated stores on one temp file, as two instances would be. */
async function twoHandles(
  fn: (a: SqliteRecords, b: SqliteRecords, path: string) => unknown,
): Promise<void> {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  const a = new SqliteRecords({ path });
  const b = new SqliteRecords({ path });
  try {
    await Promise.all([a.migrate(), b.migrate()]);
    await fn(a, b, path);
  } finally {
    a.close();
    b.close();
    await removeDb(path);
  }
}

async function inMemory(fn: (r: SqliteRecords) => Promise<void>) {
  const records = new SqliteRecords({ path: ":memory:" });
  try {
    await records.migrate();
    await fn(records);
  } finally {
    records.close();
  }
}

const put = (records: RecordStore, ...values: AccountRecord[]) =>
  records.commit({
    puts: values.map((value) => ({ kind: "account" as const, value })),
  });

async function versionOf(records: RecordStore, id: string) {
  const [found] = await records.read([{ kind: "account", key: id }]);
  return found?.version ?? null;
}

Deno.test("SqliteRecords: a write on one handle is read on the other", async () => {
  await twoHandles(async (a, b) => {
    const ada = account();
    assert.equal(await put(a, ada), true);
    const [byKey] = await b.read([{ kind: "account", key: ada.id }]);
    assert.deepEqual(byKey?.value, ada);
    assert.equal(byKey?.version, await versionOf(a, ada.id));
    assert.equal(await b.hasAccounts(), true);
  });
});

Deno.test("SqliteRecords: two handles racing on one check, exactly one wins", async () => {
  await twoHandles(async (a, b) => {
    const ada = account();
    await put(a, ada);
    const version = await versionOf(a, ada.id);
    const attempt = (store: SqliteRecords, i: number) =>
      store.commit({
        checks: [{ kind: "account", key: ada.id, version }],
        puts: [{ kind: "account", value: { ...ada, name: `n${i}` } }],
        tallies: [{ key: "wins", by: 1 }],
      });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => attempt(i % 2 ? a : b, i)),
    );
    assert.equal(results.filter(Boolean).length, 1);
    const [tally] = await b.read([{ kind: "tally", key: "wins" }]);
    assert.deepEqual(tally?.value, { key: "wins", count: 1 });
    // The absence check likewise: one handle creates, the other is refused.
    const id = uuidv7();
    const create = (store: SqliteRecords) =>
      store.commit({
        checks: [{ kind: "account", key: id, version: null }],
        puts: [{ kind: "account", value: account({ id }) }],
      });
    assert.deepEqual(await Promise.all([create(a), create(b)]), [true, false]);
  });
});

Deno.test("SqliteRecords: a unique value taken on one handle refuses the other's commit whole", async () => {
  await twoHandles(async (a, b) => {
    const ada = account();
    await put(a, ada);
    const twin = account({ emailKey: ada.emailKey });
    const s = session(twin.id);
    assert.equal(
      await b.commit({
        puts: [{ kind: "session", value: s }, { kind: "account", value: twin }],
        tallies: [{ key: "enabled", by: 1 }],
        events: [event()],
      }),
      false,
    );
    assert.deepEqual(
      await a.read([
        { kind: "account", key: twin.id },
        { kind: "session", key: s.tokenHash },
        { kind: "tally", key: "enabled" },
      ]),
      [null, null, null],
    );
    assert.deepEqual(await a.events({ limit: 10 }), []);
    // Put in either order, a swap of the value between two records holds.
    const moved = { ...ada, emailKey: "moved@example.com" };
    assert.equal(await put(b, twin, moved), true);
    const [holder] = await a.read([
      { kind: "account", unique: "emailKey", value: ada.emailKey },
    ]);
    assert.equal(holder?.value && (holder.value as AccountRecord).id, twin.id);
  });
});

Deno.test("SqliteRecords: a record deleted and written again gets a version it never had", async () => {
  await twoHandles(async (a, b) => {
    const ada = account();
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const store = i % 2 ? a : b;
      await put(store, ada);
      const version = (await versionOf(store, ada.id))!;
      assert.equal(seen.has(version), false);
      seen.add(version);
      await store.commit({ deletes: [{ kind: "account", value: ada }] });
      assert.equal(await versionOf(a, ada.id), null);
    }
    // A version check against the old incarnation fails.
    await put(a, ada);
    const stale = [...seen][0]!;
    assert.equal(
      await b.commit({
        checks: [{ kind: "account", key: ada.id, version: stale }],
      }),
      false,
    );
  });
});

Deno.test("SqliteRecords: counters stay exact under 200 concurrent reserves on two handles", async () => {
  await twoHandles(async (a, b) => {
    const window = { now: 1000, windowMs: 60_000, limit: 1000 };
    const all = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) => (i % 2 ? a : b).reserveAttempt("x", window),
      ),
    );
    assert.deepEqual(
      all.map((r) => r.count).sort((x, y) => x - y),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    assert.equal(all.every((r) => r.admitted && r.resetAt === 61_000), true);
    // At a limit of 10, exactly 10 of 200 get in.
    const limited = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) => (i % 2 ? a : b).reserveAttempt("y", { ...window, limit: 10 }),
      ),
    );
    assert.equal(limited.filter((r) => r.admitted).length, 10);
    assert.deepEqual(await a.readCounter("y", 1000), {
      count: 10,
      resetAt: 61_000,
    });
  });
});

Deno.test("SqliteRecords: reserveAttempt() windows, refusals and releases", async () => {
  await inMemory(async (r) => {
    const window = (now: number) => ({ now, windowMs: 100, limit: 2 });
    assert.deepEqual(await r.reserveAttempt("k", window(0)), {
      admitted: true,
      count: 1,
      resetAt: 100,
    });
    await r.reserveAttempt("k", window(50));
    // Full: refused, nothing counted.
    const refused = { admitted: false, count: 2, resetAt: 100 };
    assert.deepEqual(await r.reserveAttempt("k", window(60)), refused);
    assert.deepEqual(await r.reserveAttempt("k", window(99)), refused);
    assert.deepEqual(await r.readCounter("k", 99), { count: 2, resetAt: 100 });
    // The window ends at resetAt: a fresh one starts there.
    assert.deepEqual(await r.reserveAttempt("k", window(100)), {
      admitted: true,
      count: 1,
      resetAt: 200,
    });
    // A release for the ended window gives nothing back to the new one.
    await r.releaseAttempt("k", 100);
    assert.deepEqual(await r.readCounter("k", 100), { count: 1, resetAt: 200 });
    await r.releaseAttempt("k", 200);
    await r.releaseAttempt("k", 200);
    assert.deepEqual(await r.readCounter("k", 100), { count: 0, resetAt: 200 });
    await r.releaseAttempt("none", 200);
    assert.equal(await r.readCounter("none", 0), null);
    // Swept when the window ended by `now` (at resetAt itself, too).
    await r.reserveAttempt("other", window(150));
    assert.equal(await r.deleteExpiredCounters(199, 10), 0);
    assert.equal(await r.deleteExpiredCounters(200, 10), 1);
    assert.equal(await r.deleteExpiredCounters(250, 10), 1);
    assert.equal(await r.readCounter("other", 0), null);
  });
});

Deno.test("SqliteRecords: deleteExpired() takes what ended at or before the cut, oldest first", async () => {
  await inMemory(async (r) => {
    const sessions = [30, 10, 20, 40].map((expiresAt) =>
      session("u", { expiresAt })
    );
    const events = [5, 15].map((at) => event({ at }));
    await r.commit({
      puts: sessions.map((value) => ({ kind: "session" as const, value })),
      events,
    });
    assert.equal(await r.deleteExpired("session", 30, 2), 2);
    const left = await r.list("session", "userId", "u");
    assert.deepEqual(
      left.map((s) => s.value.expiresAt).sort((a, b) => a - b),
      [30, 40],
    );
    assert.equal(await r.deleteExpired("session", 30, 2), 1);
    assert.equal(await r.deleteExpired("session", 30, 2), 0);
    assert.equal(await r.deleteExpired("event", 15, 10), 2);
    assert.deepEqual(await r.events({ limit: 10 }), []);
    await assert.rejects(
      r.deleteExpired("account" as never, 0, 1),
      /do not expire/,
    );
  });
});

Deno.test("SqliteRecords: accounts() orders, searches, counts and pages like listUsers", async () => {
  await inMemory(async (r) => {
    const people = [
      account({ name: "Émile", nameKey: "émile", emailKey: "b@x.org" }),
      account({ name: "bob", nameKey: "bob", emailKey: "a%b@x.org" }),
      account({ name: "Ann", nameKey: "ann", emailKey: "c@x.org" }),
      account({ name: "ann", nameKey: "ann", emailKey: "d@x.org" }),
    ];
    await put(r, ...people);
    const ids = (page: { accounts: AccountRecord[] }) =>
      page.accounts.map((a) =>
        people.indexOf(people.find((p) => p.id === a.id)!)
      );
    assert.deepEqual(ids(await r.accounts({ limit: 10 })), [0, 1, 2, 3]);
    assert.deepEqual(
      ids(await r.accounts({ limit: 10, sort: "-created" })),
      [3, 2, 1, 0],
    );
    // Folded keys in code-point order; equal keys by id.
    assert.deepEqual(
      ids(await r.accounts({ limit: 10, sort: "name" })),
      [2, 3, 1, 0],
    );
    assert.deepEqual(
      ids(await r.accounts({ limit: 10, sort: "-name" })),
      [0, 1, 3, 2],
    );
    assert.deepEqual(
      ids(await r.accounts({ limit: 10, sort: "email" })),
      [1, 0, 2, 3],
    );
    // Pages of two by name, then the end.
    const first = await r.accounts({ limit: 2, sort: "-name" });
    assert.deepEqual([ids(first), first.total], [[0, 1], 4]);
    const second = await r.accounts({
      limit: 2,
      sort: "-name",
      cursor: first.nextCursor!,
    });
    assert.deepEqual([ids(second), second.nextCursor], [[3, 2], null]);
    // The search is a literal, case-sensitive substring of the folded keys.
    const found = await r.accounts({ limit: 1, q: "ann" });
    assert.deepEqual([ids(found), found.total], [[2], 2]);
    assert.deepEqual(ids(await r.accounts({ limit: 9, q: "%" })), [1]);
    assert.deepEqual(ids(await r.accounts({ limit: 9, q: "_" })), []);
    assert.deepEqual(ids(await r.accounts({ limit: 9, q: "ANN" })), []);
    // A cursor naming no account: creation order goes on after its id;
    // other orders have nowhere to go on from.
    const unknown = "00000000-0000-7000-8000-000000000000";
    assert.equal(
      (await r.accounts({ limit: 9, cursor: unknown })).accounts.length,
      4,
    );
    const none = await r.accounts({ limit: 9, cursor: unknown, sort: "name" });
    assert.deepEqual([none.accounts, none.nextCursor, none.total], [
      [],
      null,
      4,
    ]);
  });
});

Deno.test("SqliteRecords: events() pages newest first across commits and filters", async () => {
  await inMemory(async (r) => {
    const u = "user-1";
    const all = Array.from({ length: 7 }, (_, i) =>
      event({
        actorId: i % 3 === 0 ? u : null,
        targetId: i % 3 === 1 ? u : null,
        type: i % 2 ? "logout" : "login.succeeded",
      }));
    for (const e of all) await r.commit({ events: [e] });
    const ids = (es: AuditEvent[]) =>
      es.map((e) => all.indexOf(all.find((x) => x.id === e.id)!));
    const pages: number[][] = [];
    let cursor: string | undefined;
    do {
      const page = await r.events({
        limit: 3,
        userId: u,
        ...cursor ? { cursor } : {},
      });
      pages.push(ids(page));
      cursor = page.length === 3 ? page.at(-1)!.id : undefined;
    } while (cursor !== undefined);
    assert.deepEqual(pages, [[6, 4, 3], [1, 0]]);
    assert.deepEqual(
      ids(await r.events({ limit: 9, type: "logout", userId: u })),
      [3, 1],
    );
    assert.deepEqual(
      ids(await r.events({ limit: 2, type: "logout", cursor: all[5]!.id })),
      [3, 1],
    );
  });
});

Deno.test("SqliteRecords: records round-trip exactly, values of every JSON type", async () => {
  await inMemory(async (r) => {
    const e = event({
      at: Date.now(),
      actorEmail: 'Zoë 😀 \u0000 "quoted" \\',
      detail: {
        n: -1.5,
        big: 2 ** 53 - 1,
        zero: 0,
        ok: false,
        none: null,
        s: "",
      },
    });
    const passkey = {
      id: "p",
      userId: "u",
      credentialId: "c",
      publicKey: "k",
      counter: 0,
      transports: [],
      name: "",
      createdAt: 0,
      lastUsedAt: null,
    };
    await r.commit({
      events: [e],
      puts: [{ kind: "passkey", value: passkey }],
    });
    assert.deepStrictEqual(await r.events({ limit: 1 }), [e]);
    const [found] = await r.read([{
      kind: "passkey",
      unique: "credentialId",
      value: "c",
    }]);
    assert.deepStrictEqual(found?.value, passkey);
    assert.equal(typeof found?.version, "string");
  });
});

Deno.test("SqliteRecords: only the kinds and fields KINDS names reach the SQL", async () => {
  await inMemory(async (r) => {
    await assert.rejects(
      r.read([{ kind: "account", unique: "name", value: "x" } as never]),
      TypeError,
    );
    await assert.rejects(
      r.list("session", "ip' OR 1=1 --" as never, "x"),
      TypeError,
    );
    await assert.rejects(
      r.read([{ kind: "nothing", key: "x" } as never]),
      /Unknown record kind/,
    );
  });
});

Deno.test("SqliteRecords: migrate() is idempotent and refuses a newer schema", async () => {
  const path = await Deno.makeTempFile({ suffix: ".db" });
  try {
    const first = new SqliteRecords({ path });
    await first.migrate();
    await first.migrate();
    await put(first, account({ id: "kept" }));
    first.close();
    // Reopened: the data is there and a migration leaves it be.
    const again = new SqliteRecords({ path });
    await again.migrate();
    assert.notEqual(await versionOf(again, "kept"), null);
    again.close();
    const raw = new DatabaseSync(path);
    raw.exec("UPDATE gatehouse_schema SET version = 99");
    raw.close();
    const newer = new SqliteRecords({ path });
    await assert.rejects(
      newer.migrate(),
      /schema version 99, newer than this Gatehouse knows \(1\)/,
    );
    newer.close();
  } finally {
    await removeDb(path);
  }
});

Deno.test("SqliteRecords: a write waits for another connection's lock while reads answer", async () => {
  await twoHandles(async (a, _b, path) => {
    const raw = new DatabaseSync(path);
    try {
      raw.exec("BEGIN IMMEDIATE");
      let written = false;
      const writing = put(a, account()).then((done) => written = done);
      // Reads still answer from the last commit (WAL), the write waiting.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(await a.hasAccounts(), false);
      assert.equal(written, false);
      raw.exec("COMMIT");
      await writing;
      assert.equal(written, true);
      assert.equal(await a.hasAccounts(), true);
    } finally {
      raw.close();
    }
  });
});

Deno.test("SqliteRecords: :memory: stores are apart and a file uses WAL", async () => {
  const one = new SqliteRecords({ path: ":memory:" });
  const two = new SqliteRecords({ path: ":memory:" });
  try {
    await Promise.all([one.migrate(), two.migrate()]);
    await put(one, account());
    assert.deepEqual([await one.hasAccounts(), await two.hasAccounts()], [
      true,
      false,
    ]);
  } finally {
    one.close();
    two.close();
  }
  await twoHandles((_a, _b, path) => {
    const raw = new DatabaseSync(path);
    try {
      assert.deepEqual(
        { ...raw.prepare("PRAGMA journal_mode").get() },
        { journal_mode: "wal" },
      );
    } finally {
      raw.close();
    }
  });
});

Deno.test("SqliteRecords: two threads on one file keep counters exact and one check's winner single", async () => {
  await twoHandles(async (a, _b, path) => {
    const work: SqliteWork = { path, reserves: 150, commits: 50 };
    const run = () => {
      const worker = new Worker(
        new URL("../fixtures/sqlite_worker.ts", import.meta.url),
        { type: "module" },
      );
      const done = new Promise<SqliteWorkDone>((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
      }).finally(() => worker.terminate());
      worker.postMessage(work);
      return done;
    };
    const results = await Promise.all([run(), run()]);
    assert.deepEqual(
      results.flatMap((r) => r.counts).sort((x, y) => x - y),
      Array.from({ length: 300 }, (_, i) => i + 1),
    );
    assert.equal(results[0]!.wins + results[1]!.wins, 1);
    const [tally] = await a.read([{ kind: "tally", key: "wins" }]);
    assert.deepEqual(tally?.value, { key: "wins", count: 1 });
  });
});

Deno.test("sqliteStore() refuses an empty path, which SQLite takes for a temporary database", async () => {
  // `sqliteStore({ path: Deno.env.get("DB") ?? "" })` with the variable
  // unset opened a database deleted at exit: every account gone on restart.
  // Without the option at all (JavaScript, or a cast), the same.
  for (const path of ["", " ", undefined as unknown as string]) {
    assert.throws(
      () => sqliteStore({ path }),
      (err: Error) => {
        assert.ok(err instanceof TypeError, String(err));
        assert.match(err.message, /option "path" is empty/);
        return true;
      },
    );
  }
  // `:memory:` is asked for by name (tests, examples): it stays.
  const memory = sqliteStore({ path: ":memory:" });
  try {
    await memory.migrate();
    assert.equal(await memory.hasUsers(), false);
  } finally {
    memory.close();
  }
});
