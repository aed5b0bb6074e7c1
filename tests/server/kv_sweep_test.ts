// The KvRecords sweep from expiry entries alone: each expiry entry holds
// its record's sweep note and shares the record's versionstamp, so the
// sweep deletes without reading the records, in commits within Deno KV's
// limits; an entry without a note (a schema-5 store written before notes)
// is swept by reading its record, as before; and a record written since
// its entry was listed (its expiry moved, touched, given a new list
// field, deleted and written again) is never deleted from the stale note.
// Real Deno KV throughout: in memory, and two handles on one file racing
// as two instances would.

import type { StoredSession } from "../../server/core/records.ts";
import {
  account,
  event,
  link,
  session,
} from "../../server/stores/conformance/_builders.ts";
import { KvRecords } from "../../server/stores/kv/kv_records.ts";
import { keyBytes } from "../../server/stores/kv/_record_keys.ts";
import { SWEEP_STEP } from "../../server/stores/kv/_record_sweep.ts";
import {
  KV_MAX_MUTATION_BYTES,
  sweepNote,
} from "../../server/stores/kv/_record_writes.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { kvFileTwice } from "../fixtures/kv_file.ts";

const P = ["gatehouse"];

/** Every key under `prefix`, as strings (without it), sorted. */
async function rawKeys(kv: Deno.Kv, prefix: Deno.KvKey = P): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of kv.list({ prefix })) {
    keys.push(entry.key.slice(prefix.length).join("/"));
  }
  return keys.sort();
}

/**
 * `kv` behind a wrapper that counts getMany calls and runs `beforeCommit`
 * (once, awaited) just before the first atomic commit sent through it.
 */
function watched(
  kv: Deno.Kv,
  beforeCommit?: () => Promise<void>,
): { kv: Deno.Kv; reads: () => number } {
  let reads = 0;
  let hook = beforeCommit;
  const wrapped = new Proxy(kv, {
    get(target, name) {
      if (name === "getMany") {
        return (...args: Parameters<Deno.Kv["getMany"]>) => {
          reads++;
          return target.getMany(...args);
        };
      }
      if (name === "atomic") {
        return () => {
          const op = target.atomic();
          const send = op.commit.bind(op);
          op.commit = async () => {
            const run = hook;
            hook = undefined;
            await run?.();
            return send();
          };
          return op;
        };
      }
      const member = Reflect.get(target, name, target);
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
  return { kv: wrapped, reads: () => reads };
}

/** A migrated store in memory, for one test. */
async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await new KvRecords(kv).migrate();
    await fn(kv);
  } finally {
    kv.close();
  }
}

const putAll = (records: KvRecords, sessions: readonly StoredSession[]) =>
  records.commit({
    puts: sessions.map((value) => ({ kind: "session" as const, value })),
  });

Deno.test("KvRecords writes the sweep note in the expiry entry, with the record's versionstamp, at every write", async () => {
  await withKv(async (kv) => {
    const records = new KvRecords(kv);
    const s = session(crypto.randomUUID(), { expiresAt: 5_000 });
    await putAll(records, [s]);
    const read = async () =>
      await kv.getMany([
        [...P, "session", s.tokenHash],
        [...P, "session_expiry", 5_000, s.tokenHash],
      ]);
    let [record, entry] = await read();
    assertEquals(entry.value, {
      tokenHash: s.tokenHash,
      userId: s.userId,
      expiresAt: 5_000,
    });
    assertEquals(entry.versionstamp, record.versionstamp);
    // A write that moves no key (a touch) rewrites the entry too.
    const touched = { ...s, lastSeenAt: s.lastSeenAt + 1 };
    await records.commit({
      puts: [{ kind: "session", value: touched, before: s }],
    });
    [record, entry] = await read();
    assertEquals(entry.versionstamp, record.versionstamp);
    // A new list field goes into the note.
    const linked = { ...touched, ssoSid: "sid-1" };
    await records.commit({
      puts: [{ kind: "session", value: linked, before: touched }],
    });
    [record, entry] = await read();
    assertEquals(entry.versionstamp, record.versionstamp);
    assertEquals(entry.value, sweepNote("session", linked));
    assertEquals((entry.value as { ssoSid?: string }).ssoSid, "sid-1");
  });
});

Deno.test("KvRecords sweeps noted records without reading them, in commits of many", async () => {
  await withKv(async (raw) => {
    const { kv, reads } = watched(raw);
    const records = new KvRecords(kv);
    const a = account();
    const due = Array.from(
      { length: 3 * SWEEP_STEP + 7 },
      (_, i) =>
        session(a.id, {
          expiresAt: 1_000 + i,
          ...(i % 3 === 0 ? { ssoSid: `sid-${i}` } : {}),
        }),
    );
    const live = session(a.id, { expiresAt: 9_000 });
    await putAll(records, due.slice(0, 100));
    await putAll(records, [...due.slice(100), live]);
    await records.commit({ tallies: [{ key: `sessions:${a.id}`, by: 3 }] });
    const links = [link({ expiresAt: 1_000 }), link({ expiresAt: 2_000 })];
    await records.commit({
      puts: links.map((value) => ({ kind: "link" as const, value })),
    });
    assertEquals(await records.deleteExpired("session", 5_000, 100), 100);
    assertEquals(await records.deleteExpired("session", 5_000, 1_000), 57);
    assertEquals(await records.deleteExpired("link", 5_000, 10), 2);
    assertEquals(reads(), 0, "no record was read");
    assertEquals(
      await rawKeys(kv),
      [
        `session/${live.tokenHash}`,
        `session_expiry/9000/${live.tokenHash}`,
        `session_of_userId/${a.id}/${live.tokenHash}`,
        "schema",
        `tally/sessions:${a.id}`,
      ].sort(),
    );
    // The sweep does not move the sessions tally.
    const [tally] = await records.read([
      { kind: "tally", key: `sessions:${a.id}` },
    ]);
    assertEquals(tally?.value, { key: `sessions:${a.id}`, count: 3 });
  });
});

Deno.test("KvRecords sweeps a schema-5 store written before notes by reading its records", async () => {
  await withKv(async (raw) => {
    const { kv, reads } = watched(raw);
    const records = new KvRecords(kv);
    const a = account();
    const old = Array.from(
      { length: 25 },
      (_, i) => session(a.id, { expiresAt: 1_000 + i }),
    );
    const noted = Array.from(
      { length: 25 },
      (_, i) => session(a.id, { expiresAt: 1_000 + i }),
    );
    await putAll(records, [...old, ...noted]);
    // The entries of `old` as the store wrote them before notes: null.
    for (const s of old) {
      await raw.set([...P, "session_expiry", s.expiresAt, s.tokenHash], null);
    }
    // One of them moved its expiry since (its entry left behind, as an
    // interrupted write could), one vanished behind the store's back.
    const moved = { ...old[0]!, expiresAt: 9_000 };
    await records.commit({
      puts: [{ kind: "session", value: moved, before: moved }],
    });
    await raw.delete([...P, "session", old[1]!.tokenHash]);
    assertEquals(await records.deleteExpired("session", 5_000, 1_000), 48);
    assert(reads() >= 3, `${reads()} getMany calls for 25 unnoted entries`);
    assertEquals(
      (await rawKeys(kv)).filter((key) => key.startsWith("session")),
      [
        `session/${moved.tokenHash}`,
        `session_expiry/9000/${moved.tokenHash}`,
        `session_of_userId/${a.id}/${moved.tokenHash}`,
        `session_of_userId/${a.id}/${old[1]!.tokenHash}`,
      ].sort(),
      "the moved session stays; only the vanished one's list entry is left",
    );
  });
});

Deno.test("KvRecords never deletes a record written after its expiry entry was listed", async () => {
  await withKv(async (raw) => {
    const other = new KvRecords(raw);
    const a = account();
    const b = account();
    const due = Array.from(
      { length: 20 },
      (_, i) => session(a.id, { expiresAt: 1_000 + i }),
    );
    await putAll(other, due);
    const [renewed, touched, relinked, reborn, recreated, ...rest] = due as [
      StoredSession,
      StoredSession,
      StoredSession,
      StoredSession,
      StoredSession,
      ...StoredSession[],
    ];
    const renewedNow = { ...renewed, expiresAt: 9_000 };
    const touchedNow = { ...touched, lastSeenAt: touched.lastSeenAt + 5 };
    const relinkedNow = { ...relinked, ssoSid: "sid-late" };
    const rebornNow = { ...reborn, expiresAt: 9_500 };
    const recreatedNow = { ...recreated, userId: b.id };
    // Written, through another KvRecords, after the sweep listed the
    // entries and before its first commit.
    const { kv, reads } = watched(raw, async () => {
      const written = await other.commit({
        puts: [
          { kind: "session", value: renewedNow, before: renewed },
          { kind: "session", value: touchedNow, before: touched },
          { kind: "session", value: relinkedNow, before: relinked },
        ],
      });
      assert(written);
      // Deleted and written again under the same key: once with a later
      // expiry, once with the same expiry and another account.
      await other.commit({
        deletes: [
          { kind: "session", value: reborn },
          { kind: "session", value: recreated },
        ],
      });
      await other.commit({
        puts: [
          { kind: "session", value: rebornNow },
          { kind: "session", value: recreatedNow },
        ],
      });
    });
    const sweeping = new KvRecords(kv);
    // The touched, relinked and recreated ones are still due: deleted, but
    // from what they hold now (each whole, none of their keys left).
    assertEquals(await sweeping.deleteExpired("session", 5_000, 1_000), 18);
    assert(reads() > 0, "the commit from notes failed and was done from reads");
    assertEquals(
      (await rawKeys(raw)).filter((key) => key.startsWith("session")),
      [
        `session/${renewed.tokenHash}`,
        `session/${reborn.tokenHash}`,
        `session_expiry/9000/${renewed.tokenHash}`,
        `session_expiry/9500/${reborn.tokenHash}`,
        `session_of_userId/${a.id}/${renewed.tokenHash}`,
        `session_of_userId/${a.id}/${reborn.tokenHash}`,
      ].sort(),
    );
    const found = await other.read([
      { kind: "session", key: renewed.tokenHash },
      { kind: "session", key: reborn.tokenHash },
    ]);
    assertEquals(found.map((f) => f?.value), [renewedNow, rebornNow]);
    assertEquals(rest.length, 15);
  });
});

// 600 due sessions written through `renewer`, every third renewed through
// it (read and committed with a check, as the rules do) while `sweeper`
// sweeps: exactly the renewed sessions are left, each whole.
async function sweepWhileRenewing(
  kv: Deno.Kv,
  sweeper: KvRecords,
  renewer: KvRecords,
): Promise<void> {
  const user = account();
  const due = Array.from(
    { length: 600 },
    (_, i) => session(user.id, { expiresAt: 1_000 + (i % 50) }),
  );
  for (let i = 0; i < due.length; i += 100) {
    await putAll(renewer, due.slice(i, i + 100));
  }
  // A renewal that finds its session swept has nothing to renew.
  const renewed = new Set<string>();
  const renewing = (async () => {
    for (let i = 0; i < due.length; i += 3) {
      const s = due[i]!;
      const [found] = await renewer.read([{
        kind: "session",
        key: s.tokenHash,
      }]);
      if (found === null || found === undefined) continue;
      const ok = await renewer.commit({
        checks: [{
          kind: "session",
          key: s.tokenHash,
          version: found.version,
        }],
        puts: [{
          kind: "session",
          value: { ...s, expiresAt: 9_000 },
          before: found.value as StoredSession,
        }],
      });
      if (ok) renewed.add(s.tokenHash);
    }
  })();
  let swept = 0;
  for (;;) {
    const n = await sweeper.deleteExpired("session", 5_000, 50);
    swept += n;
    if (n < 50) break;
  }
  await renewing;
  // What the sweep missed while the renewals ran.
  swept += await sweeper.deleteExpired("session", 5_000, 1_000);
  assertEquals(swept, due.length - renewed.size);
  const left = (await renewer.list("session", "userId", user.id))
    .map((f) => f.value);
  assertEquals(
    left.map((s) => s.tokenHash).sort(),
    [...renewed].sort(),
    "exactly the renewed sessions are left",
  );
  for (const s of left) assertEquals(s.expiresAt, 9_000);
  const keys = (await rawKeys(kv)).filter((k) => k.startsWith("session"));
  assertEquals(keys.length, 3 * renewed.size, "each whole, nothing else");
}

Deno.test("KvRecords sweep on one handle while another renews sessions on the same file: every renewed one stays whole", async () => {
  const file = await kvFileTwice();
  try {
    const a = new KvRecords(file.kv);
    const b = new KvRecords(file.other);
    await Promise.all([a.migrate(), b.migrate()]);
    await sweepWhileRenewing(file.kv, a, b);
  } finally {
    await file.close();
  }
});

Deno.test("KvRecords reading through its own handle: its renewals, read on one handle and committed on the other, race its sweep, and every renewed session stays whole", async () => {
  const file = await kvFileTwice();
  try {
    const records = new KvRecords(file.kv, { readKv: file.other });
    await records.migrate();
    await sweepWhileRenewing(file.kv, records, records);
  } finally {
    await file.close();
  }
});

Deno.test("KvRecords sweeps events with a long prefix within Deno KV's size of a commit", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Events naming two accounts under a prefix of 1 500 bytes: seven keys
    // of about 1 600 bytes each, 11 KB of deletes an event.
    const prefix = ["app", "x".repeat(1_500)];
    const records = new KvRecords(kv, { prefix });
    await records.migrate();
    const u = crypto.randomUUID();
    const v = crypto.randomUUID();
    const events = Array.from(
      { length: 2 * SWEEP_STEP },
      (_, i) => event({ at: 1_000 + i, actorId: u, targetId: v }),
    );
    // One a commit: the keys a commit writes are 80 KiB at most.
    for (const e of events) await records.commit({ events: [e] });
    assertEquals(await rawKeys(kv, prefix).then((k) => k.length), 701);
    assertEquals(await records.deleteExpired("event", 5_000, 1_000), 100);
    assertEquals(await rawKeys(kv, prefix), ["schema"]);
  } finally {
    kv.close();
  }
});

Deno.test("keyBytes() counts a key's bytes as Deno KV does, which its limits on a commit count", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    // Deletes of keys of strings (with a NUL and a non-ASCII character)
    // and numbers, filled to the limit on a commit's mutations exactly,
    // then one byte past it.
    const fill = (extra: number) => {
      const keys: Deno.KvKey[] = [];
      let bytes = 0;
      for (let i = 0; bytes < KV_MAX_MUTATION_BYTES - 2_000; i++) {
        const key = ["k\u0000é", i, "y".repeat(1_500)];
        keys.push(key);
        bytes += keyBytes(key);
      }
      // A key is 2 048 bytes at most: this one is 2 001 at most.
      const last = ["b".repeat(KV_MAX_MUTATION_BYTES - bytes + extra - 2)];
      assertEquals(bytes + keyBytes(last), KV_MAX_MUTATION_BYTES + extra);
      return [...keys, last];
    };
    const commitOf = (keys: Deno.KvKey[]) => {
      const op = kv.atomic();
      for (const key of keys) op.delete(key);
      return op.commit();
    };
    assertEquals((await commitOf(fill(0))).ok, true);
    let refused = "";
    await commitOf(fill(1)).catch((err) => refused = String(err));
    assert(refused.includes("mutation size"), refused);
  } finally {
    kv.close();
  }
});
