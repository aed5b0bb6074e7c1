// The limiter holds under a burst (DESIGN.md §5): hundreds of simultaneous
// requests from one address evaluate at most `maxFailures` handlers, and the
// count in the store afterwards is exact. On both stores, in front of the
// real handlers.

import {
  type Handler,
  loginRateLimiter,
  type LoginRateLimiterOptions,
} from "../../mod.ts";
import { assertEquals } from "../fixtures/assert.ts";
import { apiOn, from } from "../fixtures/api.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { settledCounter, testEachStore } from "../fixtures/stores.ts";
import { gate, instrument } from "../fixtures/instrument.ts";
import { settled } from "../../server/http/_background.ts";

const T0 = 1_800_000_000_000;
const ADDRESS = "203.0.113.5";

function post(path: string, body: unknown): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

// Calls `handler` `n` times at once from one address; returns how many
// reached `inner` and each answer's status.
async function burst(
  limited: (inner: Handler) => Handler,
  inner: Handler,
  request: () => Request,
  n: number,
): Promise<{ evaluated: number; statuses: Map<number, number> }> {
  let evaluated = 0;
  const handler = limited((req, params, info) => {
    evaluated++;
    return inner(req, params, info);
  });
  const answers = await Promise.all(
    Array.from({ length: n }, async () => {
      const res = await handler(request(), undefined, from(ADDRESS));
      await res.body?.cancel();
      return res.status;
    }),
  );
  const statuses = new Map<number, number>();
  for (const status of answers) {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
  }
  return { evaluated, statuses };
}

testEachStore(
  "1000 simultaneous wrong-password sign-ins evaluate 10 and count 10",
  async (store) => {
    const t = apiOn(store);
    await addUser(store, { email: "ada@example.com" });
    const options: LoginRateLimiterOptions = { store, now: () => T0 };
    const { evaluated, statuses } = await burst(
      loginRateLimiter(options),
      t.auth.login,
      () =>
        post("/api/auth/login", {
          email: "ada@example.com",
          password: "wrong password, again",
        }),
      1000,
    );
    assertEquals(evaluated, 10);
    assertEquals(t.calls.verify, 10);
    assertEquals(statuses, new Map([[401, 10], [429, 990]]));
    assertEquals(
      (await store.readCounter(`login:ip:${ADDRESS}`, T0))?.count,
      10,
    );
    // The owner still cannot get in from that address until the window ends.
    const res = await loginRateLimiter(options)(t.auth.login)(
      post("/api/auth/login", { email: "ada@example.com", password: PASSWORD }),
      undefined,
      from(ADDRESS),
    );
    assertEquals(res.status, 429);
    await res.body?.cancel();
  },
);

testEachStore(
  "300 simultaneous reset requests answer 10 × 202 and 290 × 429",
  async (store) => {
    const t = apiOn(store);
    await addUser(store, { email: "ada@example.com" });
    const { evaluated, statuses } = await burst(
      loginRateLimiter({ store, namespace: "reset", now: () => T0 }),
      t.links.requestPasswordReset,
      () => post("/api/auth/password-reset", { email: "ada@example.com" }),
      300,
    );
    assertEquals(evaluated, 10);
    assertEquals(statuses, new Map([[202, 10], [429, 290]]));
    assertEquals(
      (await store.readCounter(`reset:ip:${ADDRESS}`, T0))?.count,
      10,
    );
  },
);

testEachStore(
  "answers the limiter does not count give their attempt back, also in a burst",
  async (store) => {
    // Half the answers count (401), half do not (200): every request is
    // evaluated, since each 200 gives its reservation back, and the count
    // ends at the number of 401s.
    let n = 0;
    const alternating: Handler = () =>
      new Response(null, { status: n++ % 2 === 0 ? 401 : 200 });
    const { evaluated, statuses } = await burst(
      loginRateLimiter({ store, maxFailures: 400, now: () => T0 }),
      alternating,
      () => post("/api/auth/login", {}),
      300,
    );
    assertEquals(evaluated, 300);
    assertEquals(statuses, new Map([[401, 150], [200, 150]]));
    // Given back after the answers: settled once written.
    assertEquals(
      (await settledCounter(store, `login:ip:${ADDRESS}`, T0))?.count,
      150,
    );
  },
);

testEachStore(
  "a legitimate sign-in from another address is not refused by a burst",
  async (store) => {
    const t = apiOn(store);
    await addUser(store, { email: "ada@example.com" });
    const limited = loginRateLimiter({ store, now: () => T0 });
    const flood = burst(
      limited,
      t.auth.login,
      () => post("/api/auth/login", { email: "x@example.com", password: "x" }),
      500,
    );
    const res = await limited(t.auth.login)(
      post("/api/auth/login", { email: "ada@example.com", password: PASSWORD }),
      undefined,
      from("198.51.100.7"),
    );
    assertEquals(res.status, 200);
    await res.body?.cancel();
    assertEquals((await flood).evaluated, 10);
  },
);

testEachStore(
  "an attempt is given back after its answer, and the client's next request waits for it",
  async (base) => {
    // The store's give-back is held until the test opens the gate.
    const held = gate();
    let givingBack = 0;
    const store = instrument(base, {
      releaseAttempt: async (key, resetAt) => {
        givingBack++;
        await held.opened;
        return await base.releaseAttempt(key, resetAt);
      },
    });
    // One attempt per window: the second request is admitted only if the
    // first one's attempt was given back before it was reserved.
    const limited = loginRateLimiter({ store, maxFailures: 1, now: () => T0 })(
      () => new Response(null, { status: 200 }),
    );
    // The first answer is written when the test says so.
    const written = Promise.withResolvers<void>();
    const first = await limited(post("/x", {}), undefined, {
      ...from(ADDRESS),
      completed: written.promise,
    });
    assertEquals(first.status, 200, "answered while its give-back waits");
    await new Promise((resolve) => setTimeout(resolve, 20));
    assertEquals(givingBack, 0, "nothing is given back before the answer");
    written.resolve();
    while (givingBack === 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    assertEquals(givingBack, 1, "then its attempt is given back");
    let secondAnswered = false;
    const second = Promise.resolve(
      limited(post("/x", {}), undefined, from(ADDRESS)),
    ).then((res) => {
      secondAnswered = true;
      return res;
    });
    // Another client is not held up by this one's give-back.
    const other = await limited(
      post("/x", {}),
      undefined,
      from("198.51.100.7"),
    );
    assertEquals(other.status, 200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assertEquals(secondAnswered, false, "the next request waits");
    held.open();
    assertEquals((await second).status, 200, "and is admitted");
    assertEquals(
      (await settledCounter(store, `login:ip:${ADDRESS}`, T0))?.count ?? 0,
      0,
    );
  },
);

testEachStore(
  "across two instances on one store, an attempt not yet given back counts on the other: one too many, never one too few",
  async (base) => {
    const held = gate();
    const slow = instrument(base, {
      releaseAttempt: async (key, resetAt) => {
        await held.opened;
        return await base.releaseAttempt(key, resetAt);
      },
    });
    const ok = () => new Response(null, { status: 200 });
    const options = { maxFailures: 1, now: () => T0 };
    const onA = loginRateLimiter({ store: slow, ...options })(ok);
    const onB = loginRateLimiter({ store: base, ...options })(ok);
    const first = await onA(post("/x", {}), undefined, from(ADDRESS));
    assertEquals(first.status, 200);
    // B does not know of A's give-back in flight: the attempt still counts.
    const early = await onB(post("/x", {}), undefined, from(ADDRESS));
    assertEquals(early.status, 429);
    await early.body?.cancel();
    held.open();
    await settled(slow);
    const later = await onB(post("/x", {}), undefined, from(ADDRESS));
    assertEquals(later.status, 200, "admitted once it is given back");
    assertEquals(
      (await settledCounter(base, `login:ip:${ADDRESS}`, T0))?.count ?? 0,
      0,
    );
  },
);
