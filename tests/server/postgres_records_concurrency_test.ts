// PostgresRecords under contention, as two app instances over one database
// (each its own pool): racing commits that check one record, absence
// checks, unique values, read-decide-commit loops that must lose no
// update, commits naming the same records in opposite orders, the expiry
// sweep against a commit, and the limiter's counters.

import assert from "node:assert/strict";
import type {
  AccountRecord,
  Commit,
  RecordStore,
} from "../../server/core/records.ts";
import { ignorePostgres } from "../fixtures/postgres.ts";
import {
  account,
  schemaRecords,
  session,
} from "../fixtures/postgres_records.ts";

function test(name: string, fn: () => Promise<void>): void {
  Deno.test({ name, ignore: ignorePostgres, fn });
}

/** `n` commits from each of two instances, all started together. */
async function race(
  instances: readonly RecordStore[],
  n: number,
  commit: (i: number) => Commit,
): Promise<boolean[]> {
  return await Promise.all(
    Array.from(
      { length: n * instances.length },
      (_, i) => instances[i % instances.length]!.commit(commit(i)),
    ),
  );
}

test("Two PostgresRecords instances racing commits that check one version: exactly one wins", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    const [read] = await records.read([{ kind: "account", key: a.id }]);
    const results = await race([records, instance()], 50, (i) => ({
      checks: [{ kind: "account", key: a.id, version: read!.version }],
      puts: [{ kind: "account", value: { ...a, name: `n${i}` }, before: a }],
    }));
    assert.equal(results.filter(Boolean).length, 1);
    const [after] = await records.read([{ kind: "account", key: a.id }]);
    assert.equal(
      (after?.value as AccountRecord).name,
      `n${results.indexOf(true)}`,
    );
  } finally {
    await close();
  }
});

test("Two PostgresRecords instances racing creations of one key with absence checks: exactly one wins", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    const tokenHash = crypto.randomUUID();
    const results = await race([records, instance()], 25, (i) => ({
      checks: [{ kind: "session", key: tokenHash, version: null }],
      puts: [{
        kind: "session",
        value: session(a.id, { tokenHash, ip: `ip${i}` }),
      }],
      tallies: [{ key: `sessions:${a.id}`, by: 1 }],
    }));
    assert.equal(results.filter(Boolean).length, 1);
    const [tally] = await records.read([{
      kind: "tally",
      key: `sessions:${a.id}`,
    }]);
    assert.deepEqual(tally?.value, { key: `sessions:${a.id}`, count: 1 });
  } finally {
    await close();
  }
});

test("Two PostgresRecords instances racing new accounts with one address: one wins, the rest refused without error", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const emailKey = "ada@example.com";
    const results = await race([records, instance()], 20, () => {
      const value = account({ emailKey });
      return {
        checks: [{ kind: "account", key: value.id, version: null }],
        puts: [{ kind: "account", value }],
        tallies: [{ key: "enabled", by: 1 }],
      };
    });
    assert.equal(results.filter(Boolean).length, 1);
    const [tally] = await records.read([{ kind: "tally", key: "enabled" }]);
    assert.deepEqual(tally?.value, { key: "enabled", count: 1 });
  } finally {
    await close();
  }
});

test("PostgresRecords commits on distinct records all succeed, however many share a tally", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const results = await race([records, instance()], 50, () => {
      const value = account();
      return {
        checks: [{ kind: "account", key: value.id, version: null }],
        puts: [{ kind: "account", value }],
        tallies: [{ key: "enabled", by: 1 }, { key: "role:user", by: 1 }],
      };
    });
    assert.equal(results.filter(Boolean).length, 100);
    const found = await records.read([
      { kind: "tally", key: "enabled" },
      { kind: "tally", key: "role:user" },
    ]);
    assert.deepEqual(found.map((f) => f?.value), [
      { key: "enabled", count: 100 },
      { key: "role:user", count: 100 },
    ]);
  } finally {
    await close();
  }
});

test("PostgresRecords loses no update: read, decide and commit again on a failed check", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    const instances = [records, instance()];
    const increment = async (store: RecordStore) => {
      let attempts = 0;
      for (;;) {
        attempts++;
        const [found] = await store.read([{ kind: "account", key: a.id }]);
        const current = found!.value as AccountRecord;
        const next = { ...current, generation: current.generation + 1 };
        const done = await store.commit({
          checks: [{ kind: "account", key: a.id, version: found!.version }],
          puts: [{ kind: "account", value: next, before: current }],
        });
        if (done) return attempts;
      }
    };
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => increment(instances[i % 2]!)),
    );
    const [after] = await records.read([{ kind: "account", key: a.id }]);
    assert.equal((after?.value as AccountRecord).generation, 40);
    // Every lost race was refused, then retried.
    assert.ok(attempts.some((n) => n > 1));
  } finally {
    await close();
  }
});

test("PostgresRecords commits naming two records in opposite orders never deadlock", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const a = account();
    const b = account();
    await records.commit({
      puts: [{ kind: "account", value: a }, { kind: "account", value: b }],
    });
    const results = await race([records, instance()], 30, (i) => {
      const puts = [
        { kind: "account" as const, value: { ...a, name: `a${i}` }, before: a },
        { kind: "account" as const, value: { ...b, name: `b${i}` }, before: b },
      ];
      return {
        puts: i % 2 === 0 ? puts : puts.reverse(),
        tallies: i % 2 === 0
          ? [{ key: "x", by: 1 }, { key: "y", by: 1 }]
          : [{ key: "y", by: 1 }, { key: "x", by: 1 }],
      };
    });
    assert.equal(results.filter(Boolean).length, 60);
  } finally {
    await close();
  }
});

test("PostgresRecords: a commit checking a record and the expiry sweep never bring a deleted record back", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const sweeper = instance();
    const a = account();
    await records.commit({ puts: [{ kind: "account", value: a }] });
    for (let i = 0; i < 30; i++) {
      const s = session(a.id, { expiresAt: 1_000 });
      await records.commit({ puts: [{ kind: "session", value: s }] });
      const [read] = await records.read([
        { kind: "session", key: s.tokenHash },
      ]);
      const renewed = { ...s, expiresAt: 9_000 };
      const [committed, swept] = await Promise.all([
        records.commit({
          checks: [{
            kind: "session",
            key: s.tokenHash,
            version: read!.version,
          }],
          puts: [{ kind: "session", value: renewed, before: s }],
        }),
        sweeper.deleteExpired("session", 1_000, 10),
      ]);
      const [after] = await records.read([
        { kind: "session", key: s.tokenHash },
      ]);
      // Either the commit held the row and the sweep left it, or the sweep
      // took it and the commit's check failed.
      assert.deepEqual(
        [committed, swept, after?.value ?? null],
        committed ? [true, 0, renewed] : [false, 1, null],
      );
      await records.commit({ deletes: [{ kind: "session", value: renewed }] });
    }
  } finally {
    await close();
  }
});

test("Two PostgresRecords instances reserving 200 attempts at once against a limit of 50 admit exactly 50", async () => {
  const { records, close, instance } = await schemaRecords();
  try {
    const instances = [records, instance()];
    const window = { now: 1_000, windowMs: 60_000, limit: 50 };
    const results = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) => instances[i % 2]!.reserveAttempt("login:ada", window),
      ),
    );
    assert.equal(results.filter((r) => r.admitted).length, 50);
    for (const refused of results.filter((r) => !r.admitted)) {
      assert.deepEqual(refused, {
        admitted: false,
        count: 50,
        resetAt: 61_000,
      });
    }
    await Promise.all(
      Array.from(
        { length: 10 },
        (_, i) => instances[i % 2]!.releaseAttempt("login:ada", 61_000),
      ),
    );
    assert.deepEqual(await records.readCounter("login:ada", 1_000), {
      count: 40,
      resetAt: 61_000,
    });
    // A new window once the last one ended.
    assert.deepEqual(
      await records.reserveAttempt("login:ada", { ...window, now: 61_000 }),
      { admitted: true, count: 1, resetAt: 121_000 },
    );
    assert.equal(await records.deleteExpiredCounters(121_000, 10), 1);
    assert.equal(await records.readCounter("login:ada", 61_000), null);
  } finally {
    await close();
  }
});
