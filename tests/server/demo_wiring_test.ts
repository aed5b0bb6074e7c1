// How the demo wires Gatehouse: the reaper it hands out (and main.ts sweeps
// with) is the gatehouse's own, built with the demo's settings, and a write
// meets one cross-origin guard, not the demo's root guard and the route's.

import assert from "node:assert/strict";
import { createDemoApp } from "../../demo/app.ts";
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
    close();
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
    close();
  }
});
