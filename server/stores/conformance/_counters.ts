// Conformance cases for the limiter's counters: reserving attempts in fixed
// windows, giving them back, exact counts under hundreds of concurrent
// reservations, and the bounded sweep of ended windows.

import assert from "node:assert/strict";
import type { Store } from "../../core/store.ts";
import { type Case, MINUTE } from "./_helpers.ts";

const reserve = (s: Store, key: string, now: number, limit = 3) =>
  s.reserveAttempt(key, { now, windowMs: MINUTE, limit });

const counters: Case[] = [
  [
    "reserveAttempt() admits up to the limit in a window, then refuses without counting",
    async (s) => {
      const now = Date.now();
      const key = "login:ip:a";
      const window = now + MINUTE;
      for (let count = 1; count <= 3; count++) {
        assert.deepEqual(await reserve(s, key, now + count - 1), {
          admitted: true,
          count,
          resetAt: window,
        });
      }
      const refused = { admitted: false, count: 3, resetAt: window };
      assert.deepEqual(await reserve(s, key, now + 10), refused);
      assert.deepEqual(await reserve(s, key, now + 11), refused);
      assert.deepEqual(await s.readCounter(key, now + 12), {
        count: 3,
        resetAt: window,
      });
      // Other keys count apart.
      assert.deepEqual(await reserve(s, "login:ip:b", now), {
        admitted: true,
        count: 1,
        resetAt: window,
      });
      // The window ends at resetAt: the next reservation starts a fresh one.
      const fresh = { count: 1, resetAt: window + MINUTE };
      assert.deepEqual(await reserve(s, key, window), {
        admitted: true,
        ...fresh,
      });
      assert.deepEqual(await s.readCounter(key, window), fresh);
    },
  ],
  [
    "releaseAttempt() gives one back to the same window only",
    async (s) => {
      const now = Date.now();
      const { resetAt } = await reserve(s, "k", now);
      await reserve(s, "k", now);
      await s.releaseAttempt("k", resetAt);
      assert.deepEqual(await s.readCounter("k", now), { count: 1, resetAt });
      // Another window's reservation gives nothing back here.
      await s.releaseAttempt("k", resetAt + 1);
      assert.deepEqual(await s.readCounter("k", now), { count: 1, resetAt });
      await s.releaseAttempt("k", resetAt);
      await s.releaseAttempt("k", resetAt);
      assert.deepEqual(await s.readCounter("k", now), { count: 0, resetAt });
      // Nothing to give back to: no error, nothing written.
      await s.releaseAttempt("unknown", resetAt);
      assert.equal(await s.readCounter("unknown", now), null);
    },
  ],
  [
    "readCounter() answers null for an unknown key or an ended window",
    async (s) => {
      const now = Date.now();
      await reserve(s, "k", now);
      assert.equal(await s.readCounter("other", now), null);
      assert.equal(await s.readCounter("k", now + MINUTE), null);
    },
  ],
  [
    "deleteExpiredCounters() removes ended windows only, at most limit",
    async (s) => {
      const now = Date.now();
      for (const key of ["a", "b", "c"]) {
        await reserve(s, key, now - 2 * MINUTE);
      }
      await reserve(s, "live", now - MINUTE + 1);
      assert.equal(await s.deleteExpiredCounters(now, 2), 2);
      assert.equal(await s.deleteExpiredCounters(now, 2), 1);
      assert.equal(await s.deleteExpiredCounters(now, 2), 0);
      for (const key of ["a", "b", "c"]) {
        assert.equal(await s.readCounter(key, now - 2 * MINUTE), null);
      }
      assert.deepEqual(await s.readCounter("live", now), {
        count: 1,
        resetAt: now + 1,
      });
    },
  ],
  [
    "reserveAttempt() counts 300 parallel reservations exactly",
    async (store) => {
      const now = Date.now();
      const all = await Promise.all(
        Array.from({ length: 300 }, () => reserve(store, "x", now, 1000)),
      );
      const counts = all.map((r) => r.count).sort((a, b) => a - b);
      assert.deepEqual(counts, Array.from({ length: 300 }, (_, i) => i + 1));
      assert.equal(all.every((r) => r.admitted), true);
      assert.equal((await store.readCounter("x", now))?.count, 300);
    },
  ],
  [
    "reserveAttempt() admits exactly the limit of 300 parallel reservations",
    async (store) => {
      const now = Date.now();
      const all = await Promise.all(
        Array.from({ length: 300 }, () => reserve(store, "y", now, 10)),
      );
      assert.equal(all.filter((r) => r.admitted).length, 10);
      assert.equal((await store.readCounter("y", now))?.count, 10);
    },
  ],
  [
    "reserveAttempt() and releaseAttempt() in parallel keep the count exact",
    async (store) => {
      const now = Date.now();
      const held = await Promise.all(
        Array.from({ length: 100 }, () => reserve(store, "z", now, 1000)),
      );
      // Half of them given back while 100 more arrive.
      await Promise.all([
        ...held.slice(0, 50).map((r) => store.releaseAttempt("z", r.resetAt)),
        ...Array.from({ length: 100 }, () => reserve(store, "z", now, 1000)),
      ]);
      assert.equal((await store.readCounter("z", now))?.count, 150);
    },
  ],
];

/** The counter cases, in the order they are registered. */
export const COUNTER_CASES: readonly Case[] = counters;
