// The reaper's batch sizes: a store that keeps each batch busy for longer
// than the reaper allows gets smaller batches, never below ten nor above
// `batchSize`, and the counts stay exact. The store here is the in-memory
// KV store behind a wrapper whose batches take at least 30 ms (a timer),
// so "too long" is certain, not a race.

import assert from "node:assert/strict";
import { Reaper } from "../../mod.ts";
import { memoryStore } from "../fixtures/kv.ts";
import { instrument } from "../fixtures/instrument.ts";

const NOW = 1_800_000_000_000;

Deno.test("Reaper.sweep() makes batches smaller when each keeps the store busy too long", async () => {
  const { store, close } = await memoryStore();
  try {
    let left = 400;
    const limits: number[] = [];
    const slow = instrument(store, {
      async deleteExpiredSessions(_now, limit) {
        limits.push(limit);
        await new Promise((resolve) => setTimeout(resolve, 30));
        const deleted = Math.min(left, limit);
        left -= deleted;
        return deleted;
      },
    });
    const reaper = new Reaper(slow, { now: () => NOW, batchSize: 200 });
    const result = await reaper.sweep();
    assert.equal(result.sessions, 400);
    assert.equal(left, 0);
    assert.equal(limits[0], 200);
    // 30 ms or more each: a third of the last at most, never below ten.
    for (let i = 1; i < limits.length; i++) {
      assert.ok(limits[i]! <= Math.max(10, limits[i - 1]! / 3), `${limits}`);
      assert.ok(limits[i]! >= 10, `${limits}`);
    }
  } finally {
    await close();
  }
});

Deno.test("Reaper.sweep() keeps batches of a small batchSize whole", async () => {
  const { store, close } = await memoryStore();
  try {
    let left = 25;
    const limits: number[] = [];
    const quick = instrument(store, {
      deleteExpiredSessions(_now, limit) {
        limits.push(limit);
        const deleted = Math.min(left, limit);
        left -= deleted;
        return Promise.resolve(deleted);
      },
    });
    const reaper = new Reaper(quick, { now: () => NOW, batchSize: 5 });
    assert.equal((await reaper.sweep()).sessions, 25);
    // Five full batches and the short one that ends the sweep. Never
    // fewer a batch: the floor is ten, or batchSize when that is smaller,
    // however long the machine took.
    assert.deepEqual(limits, [5, 5, 5, 5, 5, 5]);
  } finally {
    await close();
  }
});
