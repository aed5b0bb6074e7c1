// Two reapers, one per instance, sweeping one store at once: between them
// they delete every expired record exactly once (their counts add up to
// what expired), nothing live, and neither stops short. Deno KV's counter
// sweep deleted an expiry entry unchecked, so both reapers counted one
// entry, and a commit lost to the other ended a batch short, leaving most
// expired counters for the next hour.

import assert from "node:assert/strict";
import { Reaper, type Store } from "../../mod.ts";
import { linkRecord } from "../../server/stores/conformance/_helpers.ts";
import { addUser } from "../fixtures/kv.ts";
import { pairTest } from "../fixtures/instances.ts";

const HOUR = 60 * 60 * 1000;
const NOW = 1_800_000_000_000;
const N = 60;

async function seed(store: Store, userId: string, expiresAt: number) {
  const tokenHash = crypto.randomUUID();
  await store.createSession({
    tokenHash,
    userId,
    createdAt: expiresAt - HOUR,
    expiresAt,
  });
  await store.createLink(
    linkRecord(crypto.randomUUID(), "invitation", {
      email: `${crypto.randomUUID()}@example.com`,
      invitedBy: userId,
      createdAt: expiresAt - HOUR,
      expiresAt,
    }),
  );
  await store.createChallenge({
    tokenHash: crypto.randomUUID(),
    challenge: "c",
    use: "login",
    userId: "",
    createdAt: expiresAt - HOUR,
    expiresAt,
  });
  await store.reserveAttempt(`login:ip:${crypto.randomUUID()}`, {
    now: expiresAt - HOUR,
    windowMs: HOUR,
    limit: 10,
  });
  return tokenHash;
}

pairTest(
  "two reapers sweeping at once delete each expired record once, and nothing live",
  async ({ a, b }) => {
    const ada = await addUser(a, {
      email: "ada@example.com",
      passwordHash: "h",
    });
    for (let i = 0; i < N; i++) await seed(i % 2 ? a : b, ada.id, NOW - i - 1);
    const live = await seed(a, ada.id, NOW + HOUR);
    const one = new Reaper(a, { now: () => NOW, batchSize: 7 });
    const two = new Reaper(b, { now: () => NOW, batchSize: 5 });
    const [x, y] = await Promise.all([one.sweep(), two.sweep()]);
    assert.deepEqual(
      {
        sessions: x.sessions + y.sessions,
        links: x.links + y.links,
        counters: x.counters + y.counters,
        factorRecords: x.factorRecords + y.factorRecords,
      },
      { sessions: N, links: N, counters: N, factorRecords: N },
      JSON.stringify([x, y]),
    );
    // Neither stopped short of what the other had not swept.
    assert.deepEqual(await new Reaper(a, { now: () => NOW }).sweep(), {
      sessions: 0,
      links: 0,
      counters: 0,
      events: 0,
      factorRecords: 0,
      ssoRecords: 0,
    });
    assert.equal((await b.findSession(live, NOW))?.user.id, ada.id);
  },
);
