// The reaper on a real (in-memory KV) store: what a sweep deletes, its
// batches, the schedule, stop(), and surviving a failed sweep. Time is a
// clock the test owns; intervals are a few milliseconds.

import assert from "node:assert/strict";
import { Reaper, type Store } from "../../mod.ts";
import { uuidv7 } from "../../server/core/_crypto.ts";
import { linkRecord } from "../../server/stores/conformance/_helpers.ts";
import { addUser, memoryLogger, memoryStore } from "../fixtures/kv.ts";
import { gate, instrument, nextMacrotask } from "../fixtures/instrument.ts";

const HOUR = 60 * 60 * 1000;
const NOW = 1_800_000_000_000;

async function session(store: Store, userId: string, expiresAt: number) {
  const tokenHash = crypto.randomUUID();
  const created = await store.createSession({
    tokenHash,
    userId,
    createdAt: expiresAt - HOUR,
    expiresAt,
  });
  assert.ok(created);
  return tokenHash;
}

async function link(store: Store, expiresAt: number, invitedBy: string) {
  const tokenHash = crypto.randomUUID();
  await store.createLink(
    linkRecord(tokenHash, "invitation", {
      email: `${tokenHash}@example.com`,
      invitedBy,
      createdAt: expiresAt - HOUR,
      expiresAt,
    }),
  );
  return tokenHash;
}

// Resolves after the store's deleteExpiredSessions was called `times` times.
function countingSweeps(store: Store) {
  let calls = 0;
  const waiters: Array<{ at: number; resolve(): void }> = [];
  const counted = instrument(store, {
    async deleteExpiredSessions(now, limit) {
      const deleted = await store.deleteExpiredSessions(now, limit);
      calls++;
      for (const w of waiters.filter((w) => w.at <= calls)) w.resolve();
      return deleted;
    },
  });
  return {
    store: counted,
    calls: () => calls,
    reached(at: number): Promise<void> {
      const { promise, resolve } = Promise.withResolvers<void>();
      if (calls >= at) resolve();
      else waiters.push({ at, resolve });
      return promise;
    },
  };
}

Deno.test("Reaper.sweep() deletes what expired and nothing else", async () => {
  const { store, close } = await memoryStore();
  try {
    const ada = await addUser(store, {
      email: "ada@example.com",
      passwordHash: "h",
    });
    const expired = [
      await session(store, ada.id, NOW - HOUR),
      await session(store, ada.id, NOW - 1),
      await session(store, ada.id, NOW),
    ];
    const live = await session(store, ada.id, NOW + 1);
    const deadLink = await link(store, NOW, ada.id);
    const liveLink = await link(store, NOW + HOUR, ada.id);
    const attempt = (key: string, now: number) =>
      store.reserveAttempt(key, { now, windowMs: HOUR, limit: 10 });
    await attempt("login:ip:1.2.3.4", NOW - 2 * HOUR);
    await attempt("login:ip:5.6.7.8", NOW - HOUR + 1);

    const reaper = new Reaper(store, { now: () => NOW, batchSize: 2 });
    assert.deepEqual(await reaper.sweep(), {
      sessions: 3,
      links: 1,
      counters: 1,
      events: 0,
      factorRecords: 0,
      ssoRecords: 0,
    });

    // Gone, not merely expired: a clock before their expiry finds nothing.
    for (const token of expired) {
      assert.equal(await store.findSession(token, NOW - 2 * HOUR), null);
    }
    assert.equal((await store.findSession(live, NOW))?.user.id, ada.id);
    assert.equal(
      await store.readCounter("login:ip:1.2.3.4", NOW - 2 * HOUR),
      null,
    );
    assert.deepEqual(await store.readCounter("login:ip:5.6.7.8", NOW), {
      count: 1,
      resetAt: NOW + 1,
    });
    const accept = (token: string) =>
      store.acceptInvitation(token, {
        userId: uuidv7(),
        passwordHash: "h",
        now: NOW - 2 * HOUR,
        session: { tokenHash: crypto.randomUUID(), expiresAt: NOW + HOUR },
      });
    assert.equal(await accept(deadLink), null);
    assert.notEqual(await accept(liveLink), null);
    assert.equal(await store.userById(ada.id).then((u) => u?.disabled), false);

    assert.deepEqual(await reaper.sweep(), {
      sessions: 0,
      links: 0,
      counters: 0,
      events: 0,
      factorRecords: 0,
      ssoRecords: 0,
    });
  } finally {
    await close();
  }
});

Deno.test("Reaper.sweep() deletes in batches and lets timers run between them", async () => {
  const { store, close } = await memoryStore();
  try {
    const events: string[] = [];
    let left = 5;
    // Answers at once (no I/O), so only the reaper's own yield lets a timer in.
    const fast = instrument(store, {
      deleteExpiredSessions(_now, limit) {
        const deleted = Math.min(left, limit);
        left -= deleted;
        events.push(`batch ${deleted}`);
        return Promise.resolve(deleted);
      },
    });
    const reaper = new Reaper(fast, { now: () => NOW, batchSize: 2 });
    setTimeout(() => events.push("timer"), 0);
    const result = await reaper.sweep();
    assert.equal(result.sessions, 5);
    // The timer was due before the first batch; it runs at the first yield.
    assert.deepEqual(events, ["batch 2", "timer", "batch 2", "batch 1"]);
  } finally {
    await close();
  }
});

Deno.test("Reaper.start() sweeps every interval until stop()", async () => {
  const { store, close } = await memoryStore();
  const counted = countingSweeps(store);
  const reaper = new Reaper(counted.store, { interval: 5 });
  try {
    reaper.start();
    reaper.start(); // a second start() changes nothing
    await counted.reached(3);
    await reaper.stop();
    const afterStop = counted.calls();
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(counted.calls(), afterStop);

    reaper.start();
    await counted.reached(afterStop + 2);
    await reaper.stop();
  } finally {
    await reaper.stop();
    await close();
  }
});

Deno.test("Reaper.start() runs sweeps that see the clock of their time", async () => {
  const { store, close } = await memoryStore();
  let now = NOW;
  const ada = await addUser(store, {
    email: "ada@example.com",
    passwordHash: "h",
  });
  const token = await session(store, ada.id, NOW + HOUR);
  const counted = countingSweeps(store);
  const reaper = new Reaper(counted.store, { interval: 5, now: () => now });
  try {
    reaper.start();
    await counted.reached(1);
    assert.notEqual(await store.findSession(token, NOW), null);
    now = NOW + HOUR;
    await counted.reached(counted.calls() + 2);
    assert.equal(await store.findSession(token, NOW), null);
  } finally {
    await reaper.stop();
    await close();
  }
});

Deno.test("Reaper.stop() waits for the sweep in progress", async () => {
  const { store, close } = await memoryStore();
  const entered = gate();
  const release = gate();
  const calls: string[] = [];
  const held = instrument(store, {
    async deleteExpiredSessions(now, limit) {
      entered.open();
      await release.opened;
      calls.push("sessions");
      return await store.deleteExpiredSessions(now, limit);
    },
    async deleteExpiredCounters(now, limit) {
      calls.push("counters");
      return await store.deleteExpiredCounters(now, limit);
    },
  });
  const reaper = new Reaper(held, { interval: 1 });
  try {
    reaper.start();
    await entered.opened;
    let stopped = false;
    const stopping = reaper.stop().then(() => stopped = true);
    for (let i = 0; i < 5; i++) await nextMacrotask();
    assert.equal(stopped, false);
    release.open();
    await stopping;
    assert.deepEqual(calls, ["sessions", "counters"]);
  } finally {
    release.open();
    await reaper.stop();
    await close();
  }
});

Deno.test("Reaper keeps its schedule after a failed sweep, and logs it", async () => {
  const { store, close } = await memoryStore();
  const ada = await addUser(store, {
    email: "ada@example.com",
    passwordHash: "h",
  });
  const token = await session(store, ada.id, NOW - 1);
  const logger = memoryLogger();
  let failures = 1;
  const counted = countingSweeps(store);
  const flaky = instrument(counted.store, {
    deleteExpiredSessions(now, limit) {
      if (failures-- > 0) {
        return Promise.reject(new Error("connection reset"));
      }
      return counted.store.deleteExpiredSessions(now, limit);
    },
  });
  const reaper = new Reaper(flaky, { interval: 5, logger, now: () => NOW });
  try {
    reaper.start();
    await counted.reached(1);
    await reaper.stop();
    assert.equal(await store.findSession(token, NOW - HOUR), null);
    const errors = logger.lines.filter((line) => line.level === "error");
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.message, "reaper sweep failed");
    assert.equal(
      (errors[0]!.fields?.error as Error).message,
      "connection reset",
    );
  } finally {
    await reaper.stop();
    await close();
  }
});

Deno.test("Reaper.sweep() rejects with the store's error and logs it", async () => {
  const { store, close } = await memoryStore();
  const logger = memoryLogger();
  const broken = instrument(store, {
    deleteExpiredLinks: () => Promise.reject(new Error("disk full")),
  });
  try {
    const reaper = new Reaper(broken, { logger });
    await assert.rejects(reaper.sweep(), /disk full/);
    assert.deepEqual(logger.lines.map((l) => l.message), [
      "reaper sweep failed",
    ]);
    // One sweep at a time: a second call joins the first.
    const ok = new Reaper(store);
    const [a, b] = [ok.sweep(), ok.sweep()];
    assert.equal(a, b);
    await a;
  } finally {
    await close();
  }
});

Deno.test("Reaper.start() without an interval registers the hourly Deno.cron", async () => {
  const { store, close } = await memoryStore();
  const reaper = new Reaper(store);
  const probe = () => {
    const abort = new AbortController();
    const registered = Deno.cron("gatehouse-reaper", "0 * * * *", {
      signal: abort.signal,
    }, () => {});
    abort.abort();
    return registered;
  };
  try {
    reaper.start();
    // The name is taken while the reaper runs...
    assert.throws(() => probe(), /already exists/);
    await reaper.stop();
    // ...and free again once stop() aborted the registration.
    await probe();
  } finally {
    await reaper.stop();
    await close();
  }
});

Deno.test("Reaper refuses a bad interval or batch size", async () => {
  const { store, close } = await memoryStore();
  try {
    for (const interval of [0, -1, Number.NaN, Infinity]) {
      assert.throws(() => new Reaper(store, { interval }), RangeError);
    }
    for (const batchSize of [0, 1.5, -3]) {
      assert.throws(() => new Reaper(store, { batchSize }), RangeError);
    }
  } finally {
    await close();
  }
});
