// The login rate limiter: in front of the real login handler (real argon2,
// in-memory KV), in front of the real password-reset request handler, and
// its address rules as a table. The clock is the test's.

import assert from "node:assert/strict";
import {
  createAuth,
  type Handler,
  loginRateLimiter,
  type LoginRateLimiterOptions,
  type Store,
} from "../../mod.ts";
import { clientAddress } from "../../server/http/client_address.ts";
import { createAccountLinks } from "../../server/features/account_links.ts";
import { settled } from "../../server/http/_background.ts";
import { settledCounter } from "../fixtures/stores.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
} from "../fixtures/kv.ts";
import { instrument } from "../fixtures/instrument.ts";

const MINUTE = 60_000;
const T0 = 1_800_000_000_000;

function info(hostname: string): Deno.ServeHandlerInfo {
  return {
    remoteAddr: { transport: "tcp", hostname, port: 40_000 },
    completed: Promise.resolve(),
  };
}

function loginRequest(password: string, headers: HeadersInit = {}): Request {
  return new Request("http://localhost/api/auth/login", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ email: "ada@example.com", password }),
  });
}

async function setup(options: Partial<LoginRateLimiterOptions> = {}) {
  const { store, close } = await memoryStore();
  await addUser(store, { email: "ada@example.com" });
  let now = T0;
  const auth = createAuth({ store, hasher, now: () => now });
  let calls = 0;
  const counted: Handler = (req, params, connection) => {
    calls++;
    return auth.login(req, params, connection);
  };
  const limiter = loginRateLimiter({
    store,
    maxFailures: 3,
    window: 10 * MINUTE,
    now: () => now,
    ...options,
  });
  return {
    store,
    close,
    login: limiter(counted),
    calls: () => calls,
    advance: (ms: number) => now += ms,
  };
}

async function status(res: Response | Promise<Response>): Promise<number> {
  const response = await res;
  await response.body?.cancel();
  return response.status;
}

Deno.test("loginRateLimiter() answers 429 with Retry-After after the failures", async () => {
  const t = await setup();
  try {
    const from = info("203.0.113.5");
    for (let i = 0; i < 3; i++) {
      assert.equal(
        await status(t.login(loginRequest("wrong password"), undefined, from)),
        401,
      );
    }
    const res = await t.login(loginRequest(PASSWORD), undefined, from);
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "600");
    const body = await res.json();
    assert.equal(body.code, "login_rate_limited");
    assert.equal(typeof body.error, "string");
    // Refused before the handler: no password work, no session.
    assert.equal(t.calls(), 3);
    assert.equal(res.headers.get("set-cookie"), null);

    t.advance(4 * MINUTE + 500);
    const later = await t.login(loginRequest(PASSWORD), undefined, from);
    assert.equal(later.status, 429);
    assert.equal(later.headers.get("retry-after"), "360");
    await later.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("loginRateLimiter() neither counts nor resets on a successful login", async () => {
  const t = await setup();
  try {
    const from = info("203.0.113.5");
    assert.equal(
      await status(t.login(loginRequest(PASSWORD), undefined, from)),
      200,
    );
    // Reserved before the handler, given back after a success.
    assert.equal(
      (await settledCounter(t.store, "login:ip:203.0.113.5", T0))?.count,
      0,
    );
    for (let i = 0; i < 2; i++) {
      assert.equal(
        await status(t.login(loginRequest("wrong password"), undefined, from)),
        401,
      );
    }
    assert.equal(
      await status(t.login(loginRequest(PASSWORD), undefined, from)),
      200,
    );
    assert.equal(
      (await settledCounter(t.store, "login:ip:203.0.113.5", T0))?.count,
      2,
    );
    assert.equal(
      await status(t.login(loginRequest("wrong password"), undefined, from)),
      401,
    );
    assert.equal(
      await status(t.login(loginRequest(PASSWORD), undefined, from)),
      429,
    );
  } finally {
    await t.close();
  }
});

Deno.test("loginRateLimiter() leaves other addresses alone", async () => {
  const t = await setup();
  try {
    for (let i = 0; i < 3; i++) {
      await status(
        t.login(loginRequest("wrong password"), undefined, info("203.0.113.5")),
      );
    }
    assert.equal(
      await status(
        t.login(loginRequest(PASSWORD), undefined, info("203.0.113.5")),
      ),
      429,
    );
    assert.equal(
      await status(
        t.login(loginRequest(PASSWORD), undefined, info("203.0.113.6")),
      ),
      200,
    );
    assert.equal(
      await status(
        t.login(loginRequest(PASSWORD), undefined, info("2001:db8::1")),
      ),
      200,
    );
  } finally {
    await t.close();
  }
});

Deno.test("loginRateLimiter() admits the client again when its window ends", async () => {
  const t = await setup();
  try {
    const from = info("203.0.113.5");
    for (let i = 0; i < 3; i++) {
      await status(t.login(loginRequest("wrong password"), undefined, from));
    }
    t.advance(10 * MINUTE - 1);
    assert.equal(
      await status(t.login(loginRequest(PASSWORD), undefined, from)),
      429,
    );
    t.advance(1);
    assert.equal(
      await status(t.login(loginRequest("wrong password"), undefined, from)),
      401,
    );
    // A fresh window: one failure so far.
    assert.equal(
      (await settledCounter(t.store, "login:ip:203.0.113.5", T0 + 10 * MINUTE))
        ?.count,
      1,
    );
    assert.equal(
      await status(t.login(loginRequest(PASSWORD), undefined, from)),
      200,
    );
  } finally {
    await t.close();
  }
});

// A handler that refuses every login, without the password work.
const alwaysFails: Handler = () =>
  new Response(JSON.stringify({ code: "credentials_invalid" }), {
    status: 401,
  });

async function limitedAfter(
  handler: Handler,
  requests: Array<[Request, Deno.ServeHandlerInfo | undefined]>,
): Promise<number[]> {
  const statuses = [];
  for (const [req, from] of requests) {
    statuses.push(await status(handler(req, undefined, from)));
  }
  return statuses;
}

Deno.test("loginRateLimiter() ignores X-Forwarded-For unless the proxy is configured", async () => {
  const { store, close } = await memoryStore();
  try {
    const forged = (n: number) =>
      loginRequest("x", { "x-forwarded-for": `198.51.100.${n}` });
    const plain = loginRateLimiter({ store, maxFailures: 2, now: () => T0 })(
      alwaysFails,
    );
    const peer = info("203.0.113.5");
    assert.deepEqual(
      await limitedAfter(plain, [[forged(1), peer], [forged(2), peer], [
        forged(3),
        peer,
      ]]),
      [401, 401, 429],
    );

    const proxied = loginRateLimiter({
      store,
      maxFailures: 2,
      namespace: "proxied",
      trustedProxy: { header: "X-Forwarded-For", addresses: ["10.0.0.1"] },
      now: () => T0,
    })(alwaysFails);
    const proxy = info("10.0.0.1");
    // Through the trusted proxy each client has its own count...
    assert.deepEqual(
      await limitedAfter(proxied, [[forged(1), proxy], [forged(2), proxy], [
        forged(1),
        proxy,
      ], [forged(1), proxy]]),
      [401, 401, 401, 429],
    );
    // ...a client cannot escape by writing its own entries on the left...
    const spoofed = loginRequest("x", {
      "x-forwarded-for": "192.0.2.99, 198.51.100.1",
    });
    assert.equal(await status(proxied(spoofed, undefined, proxy)), 429);
    // ...and the header means nothing from anyone else.
    const direct = info("203.0.113.77");
    assert.deepEqual(
      await limitedAfter(proxied, [[forged(7), direct], [forged(8), direct], [
        forged(9),
        direct,
      ]]),
      [401, 401, 429],
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() counts an IPv6 client by its /64", async () => {
  const { store, close } = await memoryStore();
  try {
    const limited = loginRateLimiter({ store, maxFailures: 2, now: () => T0 })(
      alwaysFails,
    );
    const req = () => loginRequest("x");
    assert.deepEqual(
      await limitedAfter(limited, [
        [req(), info("2001:db8:1:2::1")],
        [req(), info("2001:db8:1:2:ffff::9")],
        [req(), info("2001:db8:1:2::abcd")],
        [req(), info("2001:db8:1:3::1")],
      ]),
      [401, 401, 429, 401],
    );
    assert.equal(
      (await settledCounter(store, "login:ip:2001:db8:1:2::/64", T0))?.count,
      2,
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() counts every password-reset request", async () => {
  const { store, close } = await memoryStore();
  try {
    await addUser(store, { email: "ada@example.com" });
    const logger = memoryLogger();
    const auth = createAuth({ store, hasher, logger });
    const links = createAccountLinks({
      auth,
      store,
      hasher,
      logger,
      publicUrl: "https://app.example",
    });
    const limited = loginRateLimiter({ store, maxFailures: 2, logger })(
      links.requestPasswordReset,
    );
    const reset = (email: string) =>
      new Request("http://localhost/api/auth/password-reset", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
    const from = info("203.0.113.5");
    assert.deepEqual(
      await limitedAfter(limited, [
        [reset("ada@example.com"), from],
        [reset("nobody@example.com"), from],
        [reset("ada@example.com"), from],
      ]),
      [202, 202, 429],
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() counts only what `counts` accepts", async () => {
  const { store, close } = await memoryStore();
  try {
    const teapot: Handler = () => new Response(null, { status: 418 });
    const limited = loginRateLimiter({
      store,
      maxFailures: 1,
      counts: (res) => res.status === 418,
      now: () => T0,
    })(teapot);
    const from = info("203.0.113.5");
    assert.deepEqual(
      await limitedAfter(limited, [[loginRequest("x"), from], [
        loginRequest("x"),
        from,
      ]]),
      [418, 429],
    );
    const unlimited = loginRateLimiter({
      store,
      maxFailures: 1,
      namespace: "other",
    })(teapot);
    assert.deepEqual(
      await limitedAfter(unlimited, [[loginRequest("x"), from], [
        loginRequest("x"),
        from,
      ]]),
      [418, 418],
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() tells onRefusal of each refusal, or with reportFirstRefusalOnly of the first per address and window", async () => {
  const { store, close } = await memoryStore();
  try {
    let now = T0;
    const told: string[] = [];
    const limiter = (name: string, firstOnly: boolean, namespace: string) =>
      loginRateLimiter({
        store,
        maxFailures: 1,
        window: 10 * MINUTE,
        namespace,
        now: () => now,
        reportFirstRefusalOnly: firstOnly,
        onRefusal: (_req, connection) =>
          void told.push(
            `${name} ${namespace} ${
              (connection?.remoteAddr as Deno.NetAddr).hostname
            }`,
          ),
      })(alwaysFails);
    // Two instances of each kind on one store, as two processes would have.
    const each = [limiter("a", false, "each"), limiter("b", false, "each")];
    const first = [limiter("a", true, "first"), limiter("b", true, "first")];
    const run = async (handlers: Handler[], address: string, n: number) => {
      await Promise.all(
        Array.from(
          { length: n },
          (_, i) =>
            status(
              handlers[i % 2]!(loginRequest("x"), undefined, info(address)),
            ),
        ),
      );
      await settled(store);
    };
    await run(each, "203.0.113.5", 6);
    assert.equal(told.filter((t) => t.includes(" each ")).length, 5);
    await run(first, "203.0.113.5", 40);
    await run(first, "203.0.113.5", 40);
    await run(first, "198.51.100.7", 10);
    assert.deepEqual(
      told.filter((t) => t.includes(" first ")).map((t) => t.slice(2)).sort(),
      ["first 198.51.100.7", "first 203.0.113.5"],
    );
    // The next window reports again, once.
    now += 10 * MINUTE;
    await run(first, "203.0.113.5", 10);
    assert.equal(
      told.filter((t) => t.endsWith(" first 203.0.113.5")).length,
      2,
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() shares one count without connection info, and warns once", async () => {
  const { store, close } = await memoryStore();
  try {
    const logger = memoryLogger();
    const limited = loginRateLimiter({
      store,
      maxFailures: 2,
      logger,
      now: () => T0,
    })(alwaysFails);
    const unix: Deno.ServeHandlerInfo<Deno.Addr> = {
      remoteAddr: { transport: "unix", path: "/run/app.sock" },
      completed: Promise.resolve(),
    };
    assert.deepEqual(
      await limitedAfter(limited, [[loginRequest("x"), undefined], [
        loginRequest("x"),
        unix,
      ], [loginRequest("x"), undefined]]),
      [401, 401, 429],
    );
    assert.deepEqual(logger.lines.map((l) => [l.level, l.message]), [[
      "warn",
      "rate limiter sees no client address",
    ]]);
    assert.equal(
      (await settledCounter(store, "login:ip:unknown", T0))?.count,
      2,
    );
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() answers 500 internal when the store fails, without the cause", async () => {
  const { store, close } = await memoryStore();
  try {
    const logger = memoryLogger();
    const broken: Store = instrument(store, {
      reserveAttempt: () =>
        Promise.reject(new Error("ECONNREFUSED 10.1.2.3:5432")),
    });
    let called = false;
    const limited = loginRateLimiter({ store: broken, logger })(() => {
      called = true;
      return new Response(null, { status: 401 });
    });
    const res = await limited(
      loginRequest("x"),
      undefined,
      info("203.0.113.5"),
    );
    assert.equal(res.status, 500);
    const text = await res.text();
    assert.equal(JSON.parse(text).code, "internal");
    assert.doesNotMatch(text, /ECONNREFUSED|5432/);
    assert.equal(called, false);
    assert.equal(logger.lines[0]?.level, "error");
  } finally {
    await close();
  }
});

Deno.test("loginRateLimiter() refuses bad options when built", async () => {
  const { store, close } = await memoryStore();
  try {
    const bad: Array<Partial<LoginRateLimiterOptions>> = [
      { maxFailures: 0 },
      { maxFailures: 2.5 },
      { window: 999 },
      { window: Number.NaN },
      { namespace: "" },
      { trustedProxy: { header: "x-forwarded-for", addresses: [] } },
      {
        trustedProxy: { header: "x-forwarded-for", addresses: ["proxy.local"] },
      },
      { trustedProxy: { header: "bad header", addresses: ["10.0.0.1"] } },
    ];
    for (const options of bad) {
      assert.throws(
        () => loginRateLimiter({ store, ...options }),
        `${JSON.stringify(options)}`,
      );
    }
  } finally {
    await close();
  }
});

const PROXY = {
  header: "x-forwarded-for",
  addresses: ["10.0.0.1", "10.0.0.2", "::1"],
};

// [peer, x-forwarded-for, trusted proxy?, expected client]
const ADDRESS_TABLE: Array<
  [string | null, string | null, boolean, string | null]
> = [
  ["203.0.113.5", null, false, "203.0.113.5"],
  ["203.0.113.5", "198.51.100.1", false, "203.0.113.5"],
  ["203.0.113.5", "198.51.100.1", true, "203.0.113.5"],
  ["10.0.0.1", "198.51.100.1", false, "10.0.0.1"],
  ["10.0.0.1", "198.51.100.1", true, "198.51.100.1"],
  ["10.0.0.1", "192.0.2.1, 198.51.100.1", true, "198.51.100.1"],
  ["10.0.0.1", "198.51.100.1, 10.0.0.2", true, "198.51.100.1"],
  ["10.0.0.1", "10.0.0.2", true, "10.0.0.2"],
  ["10.0.0.1", "garbage, 198.51.100.1", true, "198.51.100.1"],
  ["10.0.0.1", "198.51.100.1, garbage", true, "10.0.0.1"],
  ["10.0.0.1", "", true, "10.0.0.1"],
  ["10.0.0.1", null, true, "10.0.0.1"],
  ["10.0.0.1", "[2001:DB8::1]:443", true, "2001:db8:0:0:0:0:0:1"],
  ["10.0.0.1", "198.51.100.1:8080", true, "198.51.100.1"],
  ["0:0:0:0:0:0:0:1", "198.51.100.1", true, "198.51.100.1"],
  ["::ffff:10.0.0.1", "198.51.100.1", true, "198.51.100.1"],
  ["::ffff:203.0.113.5", null, false, "203.0.113.5"],
  ["fe80::1%eth0", null, false, "fe80:0:0:0:0:0:0:1"],
  [null, "198.51.100.1", true, null],
];

for (const [peer, forwarded, trusted, expected] of ADDRESS_TABLE) {
  Deno.test(`clientAddress() from ${peer} with "${forwarded}"${trusted ? " via a trusted proxy" : ""} is ${expected}`, () => {
    const req = new Request("http://localhost/", {
      headers: forwarded === null ? {} : { "x-forwarded-for": forwarded },
    });
    const connection = peer === null ? undefined : info(peer);
    assert.equal(
      clientAddress(req, connection, trusted ? { trustedProxy: PROXY } : {}),
      expected,
    );
  });
}
