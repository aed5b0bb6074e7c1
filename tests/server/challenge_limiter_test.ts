// The public passkey options route writes a WebAuthn challenge for anyone
// who asks, so it is limited by requests (the `challenge` limiter,
// `rateLimit.maxChallenges`): a burst from one address writes at most the
// threshold, the rest answer 429 with Retry-After; other addresses, two
// instances on one store, forged forwarding headers, the one audit event of
// a flood, and the reaper's sweep of what the admitted requests left. On
// both stores; every answer is checked against the contract by `mount()`.

import { type GatehouseOptions, Reaper, type Store } from "../../mod.ts";
import type { AuditEvent } from "../../server/core/store.ts";
import { assertEquals, assertThrows } from "../fixtures/assert.ts";
import { ROLES } from "../fixtures/admin.ts";
import { from } from "../fixtures/api.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { pairTest } from "../fixtures/instances.ts";
import { instrument } from "../fixtures/instrument.ts";
import { addUser, hasher, memoryLogger } from "../fixtures/kv.ts";
import { settledCounter, testEachStore } from "../fixtures/stores.ts";

const T0 = 1_800_000_000_000;
const MINUTE = 60_000;
const WINDOW = 15 * MINUTE;
const ADDRESS = "203.0.113.5";
const OPTIONS_PATH = "/api/auth/passkeys/login/options";

/**
 * createGatehouse on `store`, its challenge writes counted (a wrapper
 * around the real store), with a clock the test moves.
 */
function optionsApi(
  store: Store,
  extra: Partial<GatehouseOptions> = {},
) {
  let now = T0;
  const written = { challenges: 0, uses: [] as string[] };
  const counting = instrument(store, {
    createChallenge: (challenge) => {
      written.challenges++;
      written.uses.push(challenge.use);
      return store.createChallenge(challenge);
    },
  });
  const { gatehouse, app } = gatehouseApp({
    store: counting,
    logger: memoryLogger(),
    hasher,
    now: () => now,
    roles: ROLES,
    publicUrl: "https://app.example",
    ...extra,
  });

  async function ask(
    address = ADDRESS,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    return await app(
      new Request(`http://localhost${OPTIONS_PATH}`, {
        method: "POST",
        headers,
      }),
      undefined,
      from(address),
    );
  }

  // Many requests at once; the statuses counted, each Retry-After kept.
  async function burst(
    n: number,
    address = ADDRESS,
    headers: (i: number) => Record<string, string> = () => ({}),
  ) {
    const answers = await Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const res = await ask(address, headers(i));
        await res.body?.cancel();
        return [res.status, res.headers.get("retry-after")] as const;
      }),
    );
    const statuses = new Map<number, number>();
    for (const [status] of answers) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    const retryAfter = new Set(
      answers.filter(([status]) => status === 429).map(([, after]) => after),
    );
    return { statuses, retryAfter };
  }

  async function rateLimitedEvents(): Promise<AuditEvent[]> {
    await gatehouse.settled();
    return (await store.listAuditEvents({
      limit: 100,
      type: "login.rate_limited",
    })).events;
  }

  return {
    gatehouse,
    written,
    ask,
    burst,
    rateLimitedEvents,
    clock: () => now,
    advance: (ms: number) => void (now += ms),
  };
}

testEachStore(
  "400 simultaneous passkey options requests from one address write 100 challenges; 300 answer 429 with Retry-After",
  async (store) => {
    const api = optionsApi(store);
    const { statuses, retryAfter } = await api.burst(400);
    assertEquals(statuses, new Map([[200, 100], [429, 300]]));
    assertEquals(api.written.challenges, 100);
    // The window began with the burst, at the test's clock: 15 minutes.
    assertEquals([...retryAfter], [String(WINDOW / 1000)]);
    assertEquals(
      (await settledCounter(store, `challenge:ip:${ADDRESS}`, T0))?.count,
      100,
    );
    // The 429 is the contract's limiter refusal.
    const refused = await api.ask();
    assertEquals(refused.status, 429);
    assertEquals((await refused.json()).code, "login_rate_limited");
    assertEquals(api.written.challenges, 100);
    // One audit event for the flood, not 301: refusals write nothing each.
    const events = await api.rateLimitedEvents();
    assertEquals(events.length, 1);
    assertEquals(events[0]!.ip, ADDRESS);
    assertEquals(events[0]!.detail, { path: OPTIONS_PATH });
    // The sign-in limiter's count is its own.
    assertEquals(await settledCounter(store, `login:ip:${ADDRESS}`, T0), null);
  },
);

testEachStore(
  "another address is not refused by a flood of passkey options requests",
  async (store) => {
    const api = optionsApi(store, { rateLimit: { maxChallenges: 20 } });
    const [flood, other] = await Promise.all([
      api.burst(200),
      api.burst(5, "198.51.100.7"),
    ]);
    assertEquals(flood.statuses, new Map([[200, 20], [429, 180]]));
    assertEquals(other.statuses, new Map([[200, 5]]));
    assertEquals(api.written.challenges, 25);
    // An IPv6 client is counted by its /64: another /64 is another client.
    const v6 = await api.burst(30, "2001:db8:1:2::1");
    const sameNet = await api.burst(1, "2001:db8:1:2:ffff::9");
    const otherNet = await api.burst(1, "2001:db8:1:3::1");
    assertEquals(v6.statuses, new Map([[200, 20], [429, 10]]));
    assertEquals(sameNet.statuses, new Map([[429, 1]]));
    assertEquals(otherNet.statuses, new Map([[200, 1]]));
  },
);

testEachStore(
  "forged forwarding headers do not move the passkey options count to another key",
  async (store) => {
    const forged = (i: number): Record<string, string> => ({
      "x-forwarded-for": `198.51.100.${i % 250}, 10.0.0.${i % 250}`,
      "forwarded": `for=192.0.2.${i % 250}`,
      "x-real-ip": `192.0.2.${i % 250}`,
      "cf-connecting-ip": `2001:db8::${i.toString(16)}`,
      "true-client-ip": "\r\nx: y, ' OR 1=1 --, ::1, unknown",
    });
    const plain = optionsApi(store, { rateLimit: { maxChallenges: 10 } });
    assertEquals(
      (await plain.burst(60, ADDRESS, forged)).statuses,
      new Map([[200, 10], [429, 50]]),
    );
    assertEquals(plain.written.challenges, 10);
    assertEquals(
      (await settledCounter(store, `challenge:ip:${ADDRESS}`, T0))?.count,
      10,
    );
    for (const i of [1, 2, 3]) {
      assertEquals(
        await settledCounter(store, `challenge:ip:198.51.100.${i}`, T0),
        null,
      );
    }
    // With a trusted proxy configured, the header still counts for nothing
    // when the peer is not that proxy.
    const proxied = optionsApi(store, {
      rateLimit: { maxChallenges: 10 },
      trustedProxy: { header: "x-forwarded-for", addresses: ["10.9.9.9"] },
    });
    const peer = "192.0.2.200";
    assertEquals(
      (await proxied.burst(30, peer, forged)).statuses,
      new Map([[200, 10], [429, 20]]),
    );
    assertEquals(
      (await settledCounter(store, `challenge:ip:${peer}`, T0))?.count,
      10,
    );
  },
);

testEachStore(
  "every use of the passkey options route counts: a sign-in's and a re-authentication's alike",
  async (store) => {
    const api = optionsApi(store, { rateLimit: { maxChallenges: 3 } });
    const ada = await addUser(store, {
      email: "ada@example.com",
      passwordHash: "h",
    });
    const session = (await api.gatehouse.auth.startSession(ada.id))
      .split(";")[0]!;
    const cookies = [
      session,
      // A pending sign-in that is not live: options for a sign-in.
      `__Host-gatehouse-pending=${"A".repeat(43)}`,
      "",
    ];
    for (const cookie of cookies) {
      const res = await api.ask(ADDRESS, cookie === "" ? {} : { cookie });
      assertEquals(res.status, 200);
      await res.body?.cancel();
    }
    const fourth = await api.ask(ADDRESS, { cookie: session });
    assertEquals(fourth.status, 429);
    await fourth.body?.cancel();
    assertEquals(api.written.uses, ["reauthenticate", "login", "login"]);
  },
);

testEachStore(
  "the window's end admits the address again, and the reaper removes the challenges the burst left",
  async (store) => {
    const api = optionsApi(store, { rateLimit: { maxChallenges: 50 } });
    assertEquals(
      (await api.burst(120)).statuses,
      new Map([[200, 50], [429, 70]]),
    );
    // Challenges live 5 minutes: after 6 a sweep deletes all 50, batch
    // after batch (here of 16), and leaves nothing for the next.
    api.advance(6 * MINUTE);
    const reaper = new Reaper(store, { now: api.clock, batchSize: 16 });
    assertEquals((await reaper.sweep()).factorRecords, 50);
    assertEquals((await api.gatehouse.reaper.sweep()).factorRecords, 0);
    // The window still refuses until it ends, then admits again.
    const refused = await api.ask();
    assertEquals(refused.status, 429);
    assertEquals(refused.headers.get("retry-after"), String(9 * 60));
    await refused.body?.cancel();
    api.advance(9 * MINUTE);
    const admitted = await api.burst(60);
    assertEquals(admitted.statuses, new Map([[200, 50], [429, 10]]));
    assertEquals(api.written.challenges, 100);
    // One event per window: the second window's flood adds one.
    assertEquals((await api.rateLimitedEvents()).length, 2);
    // The ended window's counters (and its refusal marker) are swept too.
    api.advance(WINDOW + MINUTE);
    const later = await api.gatehouse.reaper.sweep();
    assertEquals(later.factorRecords, 50);
    assertEquals(later.counters, 2);
  },
);

pairTest("share the passkey options count", async (pair) => {
  const settings = { rateLimit: { maxChallenges: 30 } };
  const a = optionsApi(pair.a, settings);
  const b = optionsApi(pair.b, settings);
  const [fromA, fromB] = await Promise.all([a.burst(100), b.burst(100)]);
  assertEquals(
    (fromA.statuses.get(200) ?? 0) + (fromB.statuses.get(200) ?? 0),
    30,
  );
  assertEquals(
    (fromA.statuses.get(429) ?? 0) + (fromB.statuses.get(429) ?? 0),
    170,
  );
  assertEquals(a.written.challenges + b.written.challenges, 30);
  assertEquals(
    (await settledCounter(pair.a, `challenge:ip:${ADDRESS}`, T0))?.count,
    30,
  );
  // Both instances refused; the store's marker let one of them report it.
  await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
  assertEquals((await a.rateLimitedEvents()).length, 1);
});

testEachStore(
  "rateLimit.window is the challenge limiter's window too; a bad maxChallenges throws at once",
  async (store) => {
    const api = optionsApi(store, {
      rateLimit: { maxChallenges: 2, maxFailures: 50, window: MINUTE },
    });
    const { statuses, retryAfter } = await api.burst(5);
    assertEquals(statuses, new Map([[200, 2], [429, 3]]));
    assertEquals([...retryAfter], ["60"]);
    for (const maxChallenges of [0, -1, 1.5, Number.NaN]) {
      assertThrows(
        () => optionsApi(store, { rateLimit: { maxChallenges } }),
        RangeError,
      );
    }
  },
);
