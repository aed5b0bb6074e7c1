// The window whose failures reach the 100 consecutive ones (DESIGN.md §15):
// its lock is the address's, until a reset, and is recorded once as such.
// A refusal of that window while its last failures were still being
// checked waited for them (so as to record a window full of failures, not
// of attempts in flight), and by then the consecutive failures had reached
// the limit: it recorded a `login.locked` of the window ("paused for a
// while", `locked_until` its end) for an account every browser was
// already refused for until a reset, and the next refusal recorded the
// hard lock too. The owner got two `account_locked` notices at once, the
// first saying that the browsers they signed in with were not affected,
// which was no longer true. On every store, over real HTTP with real
// argon2, on one instance and on two sharing the store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { addUser } from "../fixtures/kv.ts";
import {
  address,
  type LockServer,
  lockServer,
  shapeOf,
} from "../fixtures/lock_server.ts";
import { testEachStore } from "../fixtures/stores.ts";
import { CONSECUTIVE_FAILURE_LIMIT } from "../../server/core/_account_lock.ts";
import type { Store } from "../../mod.ts";

const WINDOW = 15 * 60_000;
const ADA = "ada@example.com";
const HARD = [429, "login_rate_limited", {
  scope: "account",
  until: "reset",
}] as const;

/**
 * 99 wrong passwords for Ada, ten windows of ten but the last, then a
 * burst of `burst` wrong ones in the tenth window (its last failure in
 * flight while the others are refused), then one more: the lock's events.
 */
async function reachTheLimit(servers: LockServer[], store: Store, burst = 40) {
  assertEquals(CONSECUTIVE_FAILURE_LIMIT, 100);
  const at = (i: number) => servers[i % servers.length]!;
  for (let n = 0; n < 99; n++) {
    if (n > 0 && n % 10 === 0) servers[0]!.advance(WINDOW);
    const answer = await at(n).signIn(ADA, `wrong ${n}`, { from: address(n) });
    assertEquals(answer.status, 401, `guess ${n}`);
  }
  const answers = await Promise.all(
    Array.from(
      { length: burst },
      (_, i) => at(i).signIn(ADA, `burst ${i}`, { from: address(1000 + i) }),
    ),
  );
  assertEquals(answers.filter((a) => a.status === 401).length, 1);
  for (const server of servers) await server.gatehouse.settled();
  // Every browser is refused now, until a reset.
  const after = await at(0).signIn(ADA, "one more", { from: address(5000) });
  assertEquals(shapeOf(after), HARD);
  for (const server of servers) await server.gatehouse.settled();
  const events = await servers[0]!.events("login.locked");
  const found = await store.credentialsByEmail(ADA);
  assert(found !== null);
  return { events, ada: found.user };
}

testEachStore(
  "the window that reaches 100 consecutive failures records one login.locked, until a reset, though refused while its last failure was in flight",
  async (store) => {
    await addUser(store, { email: ADA, role: "member" });
    const t = lockServer(store);
    try {
      const { events, ada } = await reachTheLimit([t], store);
      assertEquals(
        events.map((e) => e.detail.until ?? "window"),
        ["reset"],
        "one lock, the address's",
      );
      assertEquals(events[0]!.targetId, ada.id);
    } finally {
      await t.close();
    }
  },
);

pairTest(
  "the window that reaches 100 consecutive failures on two instances records one login.locked, until a reset",
  async (pair) => {
    await addUser(pair.a, { email: ADA });
    const clock = { now: Date.now() };
    const a = lockServer(pair.a, { clock });
    const b = lockServer(pair.b, { clock });
    try {
      const { events } = await reachTheLimit([a, b], pair.a);
      assertEquals(events.map((e) => e.detail.until ?? "window"), ["reset"]);
    } finally {
      await a.close();
      await b.close();
    }
  },
);
