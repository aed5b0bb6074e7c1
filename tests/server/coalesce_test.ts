// The coalescing reader under the stores' session checks
// (server/stores/_coalesce.ts): a read goes at once when a slot is free,
// reads in flight never exceed the limit, waiting queries share the next
// read, every caller gets its own answer, and a failed read fails only the
// queries it carried.

import { assertEquals, assertRejects } from "../fixtures/assert.ts";
import { coalescing } from "../../server/stores/_coalesce.ts";

// A readMany whose reads the test finishes by hand.
function manualReads() {
  const reads: Array<{
    queries: readonly number[];
    finish(): void;
    fail(error: Error): void;
  }> = [];
  let inFlight = 0;
  let maxSeen = 0;
  const readMany = (queries: readonly number[]) =>
    new Promise<number[]>((resolve, reject) => {
      inFlight++;
      maxSeen = Math.max(maxSeen, inFlight);
      reads.push({
        queries,
        finish: () => {
          inFlight--;
          resolve(queries.map((q) => q * 10));
        },
        fail: (error) => {
          inFlight--;
          reject(error);
        },
      });
    });
  return { reads, readMany, maxSeen: () => maxSeen };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("coalescing() reads at once while a slot is free", () => {
  const { reads, readMany } = manualReads();
  const read = coalescing({ readMany, take: (w) => w.length, maxInFlight: 2 });
  read(1);
  read(2);
  // Both started synchronously, each alone: no waiting when there is room.
  assertEquals(reads.map((r) => r.queries), [[1], [2]]);
});

Deno.test("coalescing() makes waiting queries share the next read, each answered its own", async () => {
  const { reads, readMany, maxSeen } = manualReads();
  const read = coalescing({ readMany, take: (w) => w.length, maxInFlight: 2 });
  const answers = Array.from({ length: 300 }, (_, i) => read(i));
  assertEquals(reads.length, 2, "two in flight, the rest wait");
  reads[0]!.finish();
  await tick();
  assertEquals(reads[2]!.queries.length, 298, "the next read carries all");
  reads[1]!.finish();
  reads[2]!.finish();
  assertEquals(
    await Promise.all(answers),
    Array.from({ length: 300 }, (_, i) => i * 10),
  );
  assertEquals(maxSeen(), 2);
});

Deno.test("coalescing() takes no more waiting queries per read than take() allows", async () => {
  const { reads, readMany, maxSeen } = manualReads();
  const read = coalescing({
    readMany,
    take: (w) => Math.min(w.length, 4),
    maxInFlight: 1,
  });
  const answers = Array.from({ length: 11 }, (_, i) => read(i));
  for (let i = 0; i < 4; i++) {
    reads[i]!.finish();
    await tick();
  }
  assertEquals(reads.map((r) => r.queries.length), [1, 4, 4, 2]);
  assertEquals((await Promise.all(answers)).length, 11);
  assertEquals(maxSeen(), 1);
});

Deno.test("coalescing() fails only the queries of the read that failed", async () => {
  const { reads, readMany } = manualReads();
  const read = coalescing({ readMany, take: (w) => w.length, maxInFlight: 1 });
  const first = read(1);
  const waiting = [read(2), read(3)];
  reads[0]!.fail(new Error("connection lost"));
  await assertRejects(() => first, Error, "connection lost");
  await tick();
  reads[1]!.finish();
  assertEquals(await Promise.all(waiting), [20, 30]);
  // A read that throws before returning a promise fails its queries too.
  const throwing = coalescing<number, number>({
    readMany: () => {
      throw new Error("bad statement");
    },
    take: (w) => w.length,
    maxInFlight: 1,
  });
  await assertRejects(() => throwing(1), Error, "bad statement");
  await assertRejects(() => throwing(2), Error, "bad statement");
});

Deno.test("coalescing() refuses a read that answers a different number of queries", async () => {
  const read = coalescing<number, number>({
    readMany: () => Promise.resolve([]),
    take: (w) => w.length,
    maxInFlight: 1,
  });
  await assertRejects(() => read(1), Error, "answered 0 of 1 queries");
});

Deno.test("coalescing() refuses a limit that is not a whole number of at least 1", () => {
  for (const maxInFlight of [0, -1, 1.5, NaN]) {
    let thrown: unknown;
    try {
      coalescing({
        readMany: () => Promise.resolve([]),
        take: () => 1,
        maxInFlight,
      });
    } catch (err) {
      thrown = err;
    }
    assertEquals(thrown instanceof RangeError, true, String(maxInFlight));
  }
});

Deno.test("coalescing() answers a query asked during a read of the same key from a later read", async () => {
  // What keeps revocation instant: a check that arrives while an older
  // read of the same session is in flight must not take that read's answer
  // (the session may have ended in between).
  let version = 0;
  const reads: Array<() => void> = [];
  const read = coalescing<string, number>({
    readMany: (queries) =>
      new Promise((resolve) => {
        const seen = version; // the state when this read started
        reads.push(() => resolve(queries.map(() => seen)));
      }),
    take: (w) => w.length,
    maxInFlight: 1,
  });
  const before = read("session");
  version = 1; // the session ended after the first read started
  const after = read("session");
  reads[0]!();
  assertEquals(await before, 0);
  await tick();
  assertEquals(reads.length, 2, "the later query waited for its own read");
  reads[1]!();
  assertEquals(await after, 1);
});

Deno.test("coalescing() with sameTurn reads every query of one turn together, within take() and the reads in flight", async () => {
  const { reads, readMany, maxSeen } = manualReads();
  const read = coalescing({
    readMany,
    take: (w) => Math.min(w.length, 3),
    maxInFlight: 2,
    sameTurn: true,
  });
  const first = [1, 2, 3, 4, 5, 6, 7].map((q) => read(q));
  assertEquals(reads.length, 0, "nothing goes before the turn ends");
  await Promise.resolve();
  // Two reads of three (the slots), the last query waits for a slot.
  assertEquals(reads.map((r) => r.queries), [[1, 2, 3], [4, 5, 6]]);
  reads[0]!.finish();
  await tick();
  assertEquals(reads[2]!.queries, [7]);
  reads[1]!.finish();
  reads[2]!.finish();
  assertEquals(await Promise.all(first), [10, 20, 30, 40, 50, 60, 70]);
  // A later turn's query goes in a read of its own.
  const later = read(8);
  await Promise.resolve();
  assertEquals(reads[3]!.queries, [8]);
  reads[3]!.finish();
  assertEquals(await later, 80);
  assertEquals(maxSeen(), 2);
});

Deno.test("coalescing() with sameTurn answers a query asked during a read of the same key from a later read", async () => {
  let version = 0;
  const reads: Array<() => void> = [];
  const read = coalescing<string, number>({
    readMany: (queries) =>
      new Promise((resolve) => {
        const seen = version;
        reads.push(() => resolve(queries.map(() => seen)));
      }),
    take: (w) => w.length,
    maxInFlight: 2,
    sameTurn: true,
  });
  const before = read("session");
  await Promise.resolve();
  version = 1; // the session ended after the first read started
  const after = read("session");
  await Promise.resolve();
  assertEquals(reads.length, 2, "the later query has a read of its own");
  reads[1]!();
  reads[0]!();
  assertEquals(await before, 0);
  assertEquals(await after, 1);
});
