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
import { testEachStore } from "../fixtures/stores.ts";

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
    assertEquals(
      (await store.readCounter(`login:ip:${ADDRESS}`, T0))?.count,
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
