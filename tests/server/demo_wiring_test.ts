// How the demo wires Gatehouse: the reaper it hands out (and main.ts sweeps
// with) is the gatehouse's own, built with the demo's settings, and a write
// meets one cross-origin guard, not the demo's root guard and the route's;
// its trusted proxy and device keys reach Gatehouse.

import assert from "node:assert/strict";
import { createDemoApp } from "../../demo/app.ts";
import { trustedProxyFromEnv } from "../../demo_config.ts";
import { INFO, ISLANDS, ORIGIN } from "../fixtures/demo_in_process.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
} from "../fixtures/kv.ts";

const DAY = 86_400_000;

function login(origin?: string): Request {
  return new Request(`${ORIGIN}/api/auth/login`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(origin === undefined ? {} : { origin }),
    },
    body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }),
  });
}

Deno.test("the demo's reaper is the gatehouse's: it sweeps on the demo's clock", async () => {
  const { store, close } = await memoryStore();
  try {
    let clock = Date.now();
    const demo = await createDemoApp({
      store,
      islands: ISLANDS,
      publicUrl: ORIGIN,
      logger: memoryLogger(),
      hasher,
      now: () => clock,
    });
    await addUser(store, { email: "ada@example.com", role: "admin" });
    const res = await demo.handler(login(), undefined, INFO);
    assert.equal(res.status, 200);
    await res.body?.cancel();

    // Nothing has expired yet on the demo's clock.
    assert.equal((await demo.reaper.sweep()).sessions, 0);
    // A year later on the demo's clock (not the wall clock a reaper of its
    // own would read), the session is past every lifetime: swept.
    clock += 400 * DAY;
    assert.equal((await demo.reaper.sweep()).sessions, 1);
  } finally {
    await close();
  }
});

Deno.test("a write to the demo's API passes one cross-origin guard; a cross-origin one is refused once, with one log line", async () => {
  const { store, close } = await memoryStore();
  try {
    const logger = memoryLogger();
    const demo = await createDemoApp({
      store,
      islands: ISLANDS,
      publicUrl: ORIGIN,
      logger,
      hasher,
    });
    await addUser(store, { email: "ada@example.com", role: "admin" });

    // The guard is the only reader of Sec-Fetch-Site: count its reads.
    let reads = 0;
    const counted = login();
    const headers = counted.headers;
    const get = headers.get.bind(headers);
    headers.get = (name: string) => {
      if (name.toLowerCase() === "sec-fetch-site") reads++;
      return get(name);
    };
    headers.set("sec-fetch-site", "same-origin");
    const ok = await demo.handler(counted, undefined, INFO);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.equal(reads, 1);

    const refused = await demo.handler(
      login("https://evil.example"),
      undefined,
      INFO,
    );
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).code, "request_cross_origin");
    const lines = logger.lines.filter((line) =>
      line.message === "write refused"
    );
    assert.equal(lines.length, 1);
    assert.equal(lines[0]!.fields?.path, "/api/auth/login");
  } finally {
    await close();
  }
});

Deno.test("the demo hands its trusted proxy and device keys to Gatehouse: the account lock counts each forwarded client, and a trusted browser passes", async () => {
  const { store, close } = await memoryStore();
  try {
    const demo = await createDemoApp({
      store,
      islands: ISLANDS,
      publicUrl: ORIGIN,
      logger: memoryLogger(),
      hasher,
      trustedProxy: trustedProxyFromEnv("x-forwarded-for")!,
      deviceKeys: [btoa("k".repeat(32))],
    });
    await addUser(store, { email: "ada@example.com", role: "admin" });
    const signIn = (password: string, from: string, cookie?: string) =>
      demo.handler(
        new Request(`${ORIGIN}/api/auth/login`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-forwarded-for": from,
            ...(cookie === undefined ? {} : { cookie }),
          },
          body: JSON.stringify({ email: "ada@example.com", password }),
        }),
        undefined,
        INFO,
      );
    const first = await signIn(PASSWORD, "198.51.100.1");
    assert.equal(first.status, 200);
    await first.body?.cancel();
    const device = first.headers.getSetCookie()
      .find((c) => c.startsWith("__Host-gatehouse-device="))!.split(";")[0]!;
    // Eleven clients behind the proxy (the address limiter counts each
    // apart, 10 a window): the eleventh is stopped by the account lock.
    for (let i = 0; i < 11; i++) {
      const res = await signIn("wrong", `198.51.100.${10 + i}`);
      const body = await res.json();
      assert.equal(res.status, i < 10 ? 401 : 429, `guess ${i}`);
      if (i === 10) assert.deepEqual(body.meta, { scope: "account" });
    }
    const trusted = await signIn(PASSWORD, "198.51.100.99", device);
    assert.equal(trusted.status, 200);
    await trusted.body?.cancel();
  } finally {
    await close();
  }
});
