// KvRecords: the record-and-commit tables on Deno KV in memory and on a
// file, and what only the KV layout does: unique copies that share the
// record's versionstamp, index entries that move and go with their record
// (read back raw), the schema record, KV's limits, coalesced reads, and
// two handles on one file racing as two instances would.

import type {
  AccountRecord,
  AuditEvent,
  StoredLink,
} from "../../server/core/records.ts";
import { recordStoreConformance } from "../../server/stores/conformance/records.ts";
import {
  account,
  event,
  link,
  session,
} from "../../server/stores/conformance/_builders.ts";
import { KvRecords } from "../../server/stores/kv/kv_records.ts";
import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
} from "../fixtures/assert.ts";
import { kvFileTwice } from "../fixtures/kv_file.ts";

recordStoreConformance("KvRecords (:memory:)", async () => {
  const kv = await Deno.openKv(":memory:");
  return { records: new KvRecords(kv), close: () => kv.close() };
});

recordStoreConformance(
  "KvRecords (file, custom prefix, reads on their own handle)",
  async () => {
    const file = await kvFileTwice();
    return {
      records: new KvRecords(file.kv, {
        prefix: ["app", "auth"],
        readKv: file.other,
      }),
      close: file.close,
    };
  },
);

/** A migrated store in memory, for one test. */
async function withRecords(
  fn: (records: KvRecords, kv: Deno.Kv) => Promise<void>,
  options: { sessionReadsInFlight?: number } = {},
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    const records = new KvRecords(kv, options);
    await records.migrate();
    await fn(records, kv);
  } finally {
    kv.close();
  }
}

/** Two migrated stores on one temp file, as two instances would be. */
async function twoHandles(
  fn: (a: KvRecords, b: KvRecords) => Promise<void>,
): Promise<void> {
  const file = await kvFileTwice();
  try {
    const a = new KvRecords(file.kv);
    const b = new KvRecords(file.other);
    await Promise.all([a.migrate(), b.migrate()]);
    await fn(a, b);
  } finally {
    await file.close();
  }
}

/** Asserts that `fn` rejects with an Error whose message holds `text`. */
async function rejectsWith(
  fn: () => Promise<unknown>,
  text: string,
): Promise<void> {
  const error = await assertRejects(fn, Error);
  assert(error.message.includes(text), error.message);
}

/** Every key under the store's prefix, as strings, sorted. */
async function rawKeys(kv: Deno.Kv): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of kv.list({ prefix: ["gatehouse"] })) {
    keys.push(entry.key.slice(1).join("/"));
  }
  return keys.sort();
}

Deno.test("KvRecords keeps a unique copy with the record's versionstamp, moved and removed with it", async () => {
  await withRecords(async (records, kv) => {
    const a = account();
    assertEquals(
      await records.commit({ puts: [{ kind: "account", value: a }] }),
      true,
    );
    const [primary, copy] = await kv.getMany([
      ["gatehouse", "account", a.id],
      ["gatehouse", "account_by_emailKey", a.emailKey],
    ]);
    assertEquals(copy.value, a, "the copy is the whole record");
    assertEquals(copy.versionstamp, primary.versionstamp, "one versionstamp");

    // A change elsewhere rewrites the copy too: the versions stay one.
    const renamed = { ...a, name: "Ada L." };
    await records.commit({
      puts: [{ kind: "account", value: renamed, before: a }],
    });
    const [byKey, byEmail] = await records.read([
      { kind: "account", key: a.id },
      { kind: "account", unique: "emailKey", value: a.emailKey },
    ]);
    assertEquals(byEmail?.value, renamed);
    assertEquals(byEmail?.version, byKey?.version);
    assertNotEquals(byKey?.version, primary.versionstamp);

    const moved = { ...renamed, emailKey: "new@example.com" };
    await records.commit({
      puts: [{ kind: "account", value: moved, before: renamed }],
    });
    assertEquals(await rawKeys(kv), [
      `account/${a.id}`,
      "account_by_emailKey/new@example.com",
      "schema",
    ]);
    await records.commit({ deletes: [{ kind: "account", value: moved }] });
    assertEquals(await rawKeys(kv), ["schema"]);
  });
});

Deno.test("KvRecords moves list and expiry entries with their fields and deletes them with the record", async () => {
  await withRecords(async (records, kv) => {
    const l = link({ emailKey: "bob@example.com", expiresAt: 2_000 });
    await records.commit({ puts: [{ kind: "link", value: l }] });
    assertEquals(await rawKeys(kv), [
      `link/${l.tokenHash}`,
      `link_by_id/${l.id}`,
      `link_expiry/2000/${l.tokenHash}`,
      `link_of_emailKey/bob@example.com/${l.tokenHash}`,
      `link_of_kind/invitation/${l.tokenHash}`,
      "schema",
    ]);
    const changed: StoredLink = {
      ...l,
      emailKey: "carol@example.com",
      kind: "reset",
      expiresAt: 3_000,
    };
    await records.commit({
      puts: [{ kind: "link", value: changed, before: l }],
    });
    assertEquals(await rawKeys(kv), [
      `link/${l.tokenHash}`,
      `link_by_id/${l.id}`,
      `link_expiry/3000/${l.tokenHash}`,
      `link_of_emailKey/carol@example.com/${l.tokenHash}`,
      `link_of_kind/reset/${l.tokenHash}`,
      "schema",
    ]);
    assertEquals(await records.list("link", "emailKey", "bob@example.com"), []);
    assertEquals(
      (await records.list("link", "kind", "reset")).map((v) => v.value),
      [changed],
    );
    assertEquals(await records.deleteExpired("link", 2_999, 10), 0, "moved");
    assertEquals(await records.deleteExpired("link", 3_000, 10), 1);
    assertEquals(await rawKeys(kv), ["schema"]);
  });
});

Deno.test("KvRecords refuses a unique value another record holds, and writes nothing", async () => {
  await withRecords(async (records, kv) => {
    const a = account();
    const b = account();
    await records.commit({
      puts: [{ kind: "account", value: a }, { kind: "account", value: b }],
    });
    const before = await rawKeys(kv);
    // b takes a's address: refused, b keeps its own.
    const taking = { ...b, emailKey: a.emailKey };
    assertEquals(
      await records.commit({
        puts: [{ kind: "account", value: taking, before: b }],
        events: [event()],
      }),
      false,
    );
    assertEquals(await rawKeys(kv), before);
    const [byA] = await records.read([
      { kind: "account", unique: "emailKey", value: a.emailKey },
    ]);
    assertEquals(byA?.value, a);
    // Freed by a delete in the same commit, the value may be taken.
    assertEquals(
      await records.commit({
        deletes: [{ kind: "account", value: a }],
        puts: [{ kind: "account", value: taking, before: b }],
      }),
      true,
    );
    const [now, old] = await records.read([
      { kind: "account", unique: "emailKey", value: a.emailKey },
      { kind: "account", unique: "emailKey", value: b.emailKey },
    ]);
    assertEquals(now?.value, taking);
    assertEquals(old, null);
  });
});

Deno.test("KvRecords tallies count below zero and back", async () => {
  await withRecords(async (records) => {
    await records.commit({ tallies: [{ key: "t", by: -1 }] });
    assertEquals(
      (await records.read([{ kind: "tally", key: "t" }]))[0]?.value,
      {
        key: "t",
        count: -1,
      },
    );
    await records.commit({
      tallies: [{ key: "t", by: 3 }, { key: "t", by: 1 }],
    });
    assertEquals(
      (await records.read([{ kind: "tally", key: "t" }]))[0]?.value,
      {
        key: "t",
        count: 3,
      },
    );
  });
});

Deno.test("KvRecords refuses a commit beyond its limits with a clear error", async () => {
  await withRecords(async (records, kv) => {
    const checks = Array.from({ length: 11 }, () => ({
      kind: "account" as const,
      key: crypto.randomUUID(),
      version: null,
    }));
    await rejectsWith(() => records.commit({ checks }), "at most 10 checks");
    // An event with an actor and a target is seven keys: 150 are too many.
    const u = crypto.randomUUID();
    const v = crypto.randomUUID();
    const events = Array.from(
      { length: 150 },
      () => event({ actorId: u, targetId: v }),
    );
    await rejectsWith(() => records.commit({ events }), "Deno KV allows 1000");
    assertEquals(await rawKeys(kv), ["schema"], "nothing written");
    assertEquals(await records.commit({ events: events.slice(0, 100) }), true);
  });
});

Deno.test("KvRecords reads in order, by key and unique field, more than ten refs at once", async () => {
  await withRecords(async (records) => {
    const accounts = Array.from({ length: 12 }, () => account());
    await records.commit({
      puts: accounts.map((value) => ({ kind: "account" as const, value })),
    });
    const refs = accounts.flatMap((a) => [
      { kind: "account" as const, key: a.id },
      {
        kind: "account" as const,
        unique: "emailKey" as const,
        value: a.emailKey,
      },
      { kind: "session" as const, key: a.id },
    ]);
    const found = await records.read(refs);
    assertEquals(found.length, 36);
    accounts.forEach((a, i) => {
      assertEquals(found[3 * i]?.value, a);
      assertEquals(found[3 * i + 1]?.version, found[3 * i]?.version);
      assertEquals(found[3 * i + 2], null);
    });
    assertEquals(await records.read([]), []);
  });
});

Deno.test("KvRecords coalesces concurrent reads into shared getMany calls, each answered its own", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let calls = 0;
    const counted = new Proxy(kv, {
      get(target, name) {
        const member = Reflect.get(target, name, target);
        if (name === "getMany") {
          return (...args: Parameters<Deno.Kv["getMany"]>) => {
            calls++;
            return target.getMany(...args);
          };
        }
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    const records = new KvRecords(counted, { sessionReadsInFlight: 1 });
    await records.migrate();
    const accounts = Array.from({ length: 5 }, () => account());
    const sessions = accounts.flatMap((a) => [session(a.id), session(a.id)]);
    await records.commit({
      puts: [
        ...accounts.map((value) => ({ kind: "account" as const, value })),
        ...sessions.map((value) => ({ kind: "session" as const, value })),
      ],
    });
    calls = 0;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const s = sessions[i % sessions.length]!;
        return records.read([
          { kind: "session", key: s.tokenHash },
          { kind: "account", key: s.userId },
        ]);
      }),
    );
    answers.forEach(([s, a], i) => {
      const expected = sessions[i % sessions.length]!;
      assertEquals(s?.value, expected);
      assertEquals((a?.value as AccountRecord).id, expected.userId);
    });
    // The first read goes alone; the others wait and share calls of ten
    // keys (about six reads each: the accounts repeat), so the 60 reads
    // take a dozen calls instead of 60.
    assert(calls <= 12, `${calls} getMany calls for 60 reads`);
  } finally {
    kv.close();
  }
});

Deno.test("KvRecords pages events by account and type across many events and cursors", async () => {
  await withRecords(async (records) => {
    const u = crypto.randomUUID();
    const all = Array.from({ length: 30 }, (_, i) =>
      event({
        actorId: i % 2 === 0 ? u : null,
        targetId: i % 3 === 0 ? u : null,
        type: i % 5 === 0 ? "user.disabled" : "login.succeeded",
      }));
    await records.commit({ events: all.slice(0, 15) });
    await records.commit({ events: all.slice(15) });
    const pages = async (
      query: { userId?: string; type?: "user.disabled" },
    ) => {
      const ids: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await records.events({ limit: 4, cursor, ...query });
        ids.push(...page.map((e) => e.id));
        if (page.length < 4) return ids;
        cursor = page[page.length - 1]!.id;
      }
    };
    const newest = (keep: (e: AuditEvent, i: number) => boolean) =>
      all.filter(keep).map((e) => e.id).reverse();
    assertEquals(await pages({}), newest(() => true));
    assertEquals(
      await pages({ userId: u }),
      newest((_, i) => i % 2 === 0 || i % 3 === 0),
    );
    assertEquals(
      await pages({ type: "user.disabled" }),
      newest((_, i) => i % 5 === 0),
    );
    assertEquals(
      await pages({ userId: u, type: "user.disabled" }),
      newest((_, i) => i % 5 === 0 && (i % 2 === 0 || i % 3 === 0)),
    );
    assertEquals(await records.events({ limit: 0 }), []);
  });
});

Deno.test("KvRecords sweeps events with their index entries, oldest first", async () => {
  await withRecords(async (records, kv) => {
    const u = crypto.randomUUID();
    const old = Array.from(
      { length: 25 },
      (_, i) =>
        event({ at: 1_000 + i, actorId: u, targetId: crypto.randomUUID() }),
    );
    const kept = event({ at: 5_000, actorId: u });
    await records.commit({ events: [...old, kept] });
    assertEquals(await records.deleteExpired("event", 1_011, 100), 12);
    assertEquals(await records.deleteExpired("event", 4_999, 5), 5);
    assertEquals(await records.deleteExpired("event", 4_999, 100), 8);
    assertEquals(await records.events({ limit: 10, userId: u }), [kept]);
    assertEquals(
      (await rawKeys(kv)).filter((key) => !key.includes(kept.id)),
      ["schema"],
    );
  });
});

Deno.test("KvRecords sweeps the entries of a record gone behind its back, without counting it", async () => {
  await withRecords(async (records, kv) => {
    const a = account();
    const gone = session(a.id, { expiresAt: 1_000 });
    const due = session(a.id, { expiresAt: 1_001 });
    await records.commit({
      puts: [{ kind: "session", value: gone }, { kind: "session", value: due }],
    });
    // The record vanished behind the store's back (as KV's own expiry
    // would remove it): its expiry entry goes with the sweep, uncounted.
    await kv.delete(["gatehouse", "session", gone.tokenHash]);
    assertEquals(await records.deleteExpired("session", 2_000, 10), 1);
    assertEquals(
      (await rawKeys(kv)).filter((key) => key.startsWith("session")),
      [`session_of_userId/${a.id}/${gone.tokenHash}`],
      "only the vanished record's list entry is left",
    );
    assertEquals(await records.list("session", "userId", a.id), []);
  });
});

Deno.test("KvRecords migrate() writes version 6 once, takes 5 to it, and refuses other versions with what to do", async () => {
  await twoHandles(async () => {});
  await withRecords(async (records, kv) => {
    assertEquals((await kv.get(["gatehouse", "schema"])).value, 6);
    await records.migrate();
    await kv.set(["gatehouse", "schema"], 5);
    await records.migrate();
    assertEquals((await kv.get(["gatehouse", "schema"])).value, 6);
    await kv.set(["gatehouse", "schema"], 4);
    await rejectsWith(() => records.migrate(), "unreleased earlier version");
    await rejectsWith(() => records.migrate(), "Start from a new store");
    await kv.set(["gatehouse", "schema"], 7);
    await rejectsWith(() => records.migrate(), "is newer than");
    // Another prefix in the same database is another store.
    const other = new KvRecords(kv, { prefix: ["other"] });
    await other.migrate();
    assertEquals((await kv.get(["other", "schema"])).value, 6);
  });
});

Deno.test("KvRecords migrate() refuses a read handle on another database; with one on its own, reads go through it and commits and the sweep do not", async () => {
  const kv = await Deno.openKv(":memory:");
  const elsewhere = await Deno.openKv(":memory:");
  try {
    // `:memory:` opened again is a new, empty database.
    await rejectsWith(
      () => new KvRecords(kv, { readKv: elsewhere }).migrate(),
      "not a handle on the same Deno KV database",
    );
    // Nor one that holds a store of its own (its schema record's
    // versionstamp is the same as this one's: a probe tells them apart).
    await new KvRecords(elsewhere).migrate();
    await rejectsWith(
      () => new KvRecords(kv, { readKv: elsewhere }).migrate(),
      "`:memory:` opens a new database each time",
    );
    assertEquals(await rawKeys(kv), ["schema"], "the probe is gone");
  } finally {
    kv.close();
    elsewhere.close();
  }
  const file = await kvFileTwice();
  // Each handle, counting the calls sent through it.
  const calls = { main: 0, read: 0 };
  const counting = (kv: Deno.Kv, name: keyof typeof calls) =>
    new Proxy(kv, {
      get(target, member) {
        const value = Reflect.get(target, member, target);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls[name]++;
          return value.apply(target, args);
        };
      },
    });
  try {
    const records = new KvRecords(counting(file.kv, "main"), {
      readKv: counting(file.other, "read"),
    });
    await records.migrate();
    const a = account();
    const due = [1_000, 1_001, 5_000].map((expiresAt) =>
      session(a.id, { expiresAt })
    );
    calls.main = calls.read = 0;
    await records.commit({
      puts: [
        { kind: "account", value: a },
        ...due.map((value) => ({ kind: "session" as const, value })),
      ],
    });
    assertEquals(await records.deleteExpired("session", 2_000, 10), 2);
    assertEquals(calls.read, 0, "commits and the sweep on the main handle");
    // Read at once after the commits returned, through the other handle.
    const [left, gone] = await records.read([
      { kind: "session", key: due[2]!.tokenHash },
      { kind: "session", key: due[0]!.tokenHash },
    ]);
    assertEquals(left?.value, due[2], "the live session is read");
    assertEquals(gone, null, "the swept one is gone");
    assertEquals(
      (await records.list("session", "userId", a.id)).map((f) => f.value),
      [due[2]],
    );
    assertEquals(await records.hasAccounts(), true);
    const before = calls.main;
    assert(calls.read >= 3, `${calls.read} calls through the read handle`);
    await records.events({ limit: 1 });
    await records.accounts({ limit: 10 });
    assertEquals(calls.main, before, "no read on the main handle");
  } finally {
    await file.close();
  }
});

Deno.test("KvRecords on two handles of one file: racing commits on one check, exactly one wins", async () => {
  await twoHandles(async (a, b) => {
    const acc = account();
    await a.commit({ puts: [{ kind: "account", value: acc }] });
    const [read] = await b.read([{ kind: "account", key: acc.id }]);
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? a : b).commit({
          checks: [{ kind: "account", key: acc.id, version: read!.version }],
          puts: [{
            kind: "account",
            value: { ...acc, name: `n${i}` },
            before: acc,
          }],
          tallies: [{ key: "wins", by: 1 }],
        })),
    );
    assertEquals(results.filter(Boolean).length, 1);
    const [tally] = await a.read([{ kind: "tally", key: "wins" }]);
    assertEquals(tally?.value, { key: "wins", count: 1 });
    // Creations of one unique value from both handles: one holds it.
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).commit({
          puts: [{
            kind: "account",
            value: account({ emailKey: "one@example.com" }),
          }],
        })),
    );
    assertEquals(created.filter(Boolean).length, 1);
  });
});

Deno.test("KvRecords counters on two handles: 200 concurrent reserves admit exactly the limit", async () => {
  await twoHandles(async (a, b) => {
    const window = { now: 1_000, windowMs: 60_000, limit: 70 };
    const results = await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) => (i % 2 === 0 ? a : b).reserveAttempt("login:x", window),
      ),
    );
    assertEquals(results.filter((r) => r.admitted).length, 70);
    assertEquals(await b.readCounter("login:x", 1_000), {
      count: 70,
      resetAt: 61_000,
    });
    const refused = results.find((r) => !r.admitted)!;
    assertEquals(refused, { admitted: false, count: 70, resetAt: 61_000 });
  });
});

Deno.test("KvRecords counters: a new window replaces the old one's sweep entry; the sweep keeps it", async () => {
  await withRecords(async (records, kv) => {
    const first = await records.reserveAttempt("k", {
      now: 1_000,
      windowMs: 1_000,
      limit: 1,
    });
    assertEquals(first, { admitted: true, count: 1, resetAt: 2_000 });
    const second = await records.reserveAttempt("k", {
      now: 2_000,
      windowMs: 1_000,
      limit: 1,
    });
    assertEquals(second, { admitted: true, count: 1, resetAt: 3_000 });
    assertEquals(
      (await rawKeys(kv)).filter((k) => k.startsWith("counter")),
      ["counter/k", "counter_expiry/3000/k"],
    );
    assertEquals(await records.deleteExpiredCounters(2_999, 10), 0);
    assertEquals(await records.readCounter("k", 2_999), {
      count: 1,
      resetAt: 3_000,
    });
    assertEquals(await records.deleteExpiredCounters(3_000, 10), 1);
    assertEquals(await rawKeys(kv), ["schema"]);
  });
});
