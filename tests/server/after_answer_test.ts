// Work done after an answer, over a real Deno.serve on 127.0.0.1 (KV and
// Postgres): once Deno has written an answer the request is closed, so
// what such work reads is captured before (a limiter's refusal event names
// the client), and it starts only once the answer has been written (a
// reset mail's synchronous work never holds back the 202). Handlers called
// with a plain `info` object cannot see either: the request never closes.

import { OPERATIONS } from "@gatehouse/contract";
import type { GatehouseOptions, Store } from "../../mod.ts";
import type { Mailer } from "../../server/mail.ts";
import { assert, assertEquals } from "../fixtures/assert.ts";
import { ROLES } from "../fixtures/admin.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import type { FetchAnswer, FetchOrder } from "../fixtures/fetch_worker.ts";
import { addUser, hasher, memoryLogger, serve } from "../fixtures/kv.ts";
import { CHROME_LINUX } from "../fixtures/security.ts";
import { testEachStore } from "../fixtures/stores.ts";

// createGatehouse's routes on a real server; `onCompleted` hears each
// answer once Deno has written it (its `info.completed`).
function served(
  store: Store,
  options: Partial<GatehouseOptions>,
  onCompleted?: () => void,
) {
  const logger = memoryLogger();
  const { gatehouse, app } = gatehouseApp({
    store,
    logger,
    hasher,
    roles: ROLES,
    publicUrl: "https://app.example",
    ...options,
  });
  const server = serve((req, info) => {
    if (onCompleted !== undefined) info.completed.then(onCompleted, () => {});
    return app(req, undefined, info);
  });
  return { gatehouse, logger, server };
}

async function post(url: string, body: unknown): Promise<number> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": CHROME_LINUX },
    body: JSON.stringify(body),
  });
  await res.body?.cancel();
  return res.status;
}

async function rateLimitedEvents(store: Store) {
  const { events } = await store.listAuditEvents({ limit: 100 });
  return events.filter((e) => e.type === "login.rate_limited");
}

testEachStore(
  "a limiter refusal over a real server records one login.rate_limited event naming the client, and logs no error",
  async (store) => {
    const { gatehouse, logger, server } = served(store, {
      rateLimit: { maxFailures: 3, maxChallenges: 2 },
    });
    try {
      const login = `${server.url}${OPERATIONS.login.path}`;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push(
          await post(login, {
            email: "nobody@example.com",
            password: `wrong guess ${i}`,
          }),
        );
      }
      assertEquals(statuses, [401, 401, 401, 429, 429, 429]);
      await gatehouse.settled();
      const signIns = await rateLimitedEvents(store);
      assertEquals(signIns.length, 1);
      assertEquals(signIns[0]!.ip, "127.0.0.1");
      assertEquals(signIns[0]!.userAgent, "Chrome on Linux");
      assertEquals(signIns[0]!.detail, { path: OPERATIONS.login.path });
      // The challenge limiter reports through the same hook.
      const options = `${server.url}${OPERATIONS.passkeyLoginOptions.path}`;
      const challenges: number[] = [];
      for (let i = 0; i < 4; i++) challenges.push(await post(options, {}));
      assertEquals(challenges, [200, 200, 429, 429]);
      await gatehouse.settled();
      const all = await rateLimitedEvents(store);
      assertEquals(all.length, 2);
      assertEquals(
        all.map((e) => `${e.ip} ${e.detail.path}`).sort(),
        [
          `127.0.0.1 ${OPERATIONS.login.path}`,
          `127.0.0.1 ${OPERATIONS.passkeyLoginOptions.path}`,
        ],
      );
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      await server.close();
    }
  },
);

testEachStore(
  "a reset request over a real server is answered before the mailer runs, however long its send blocks",
  async (store) => {
    const member = await addUser(store, { email: "member@example.com" });
    const order: string[] = [];
    const sends: { startedAt: number; endedAt: number }[] = [];
    // A send that blocks its thread for 200 ms, as heavy synchronous work
    // of a mailer would.
    const mailer: Mailer = {
      kinds: ["password_reset"],
      send() {
        order.push("send");
        const startedAt = Date.now();
        while (Date.now() - startedAt < 200) {
          // busy
        }
        sends.push({ startedAt, endedAt: Date.now() });
        return Promise.resolve();
      },
    };
    const { gatehouse, logger, server } = served(
      store,
      { mailer },
      () => order.push("answered"),
    );
    // The client runs on a thread of its own: an in-process fetch would
    // wait for the server's blocked thread whichever ran first.
    const worker = new Worker(
      new URL("../fixtures/fetch_worker.ts", import.meta.url),
      { type: "module" },
    );
    try {
      const answer = new Promise<FetchAnswer>((resolve) => {
        worker.onmessage = (event: MessageEvent<FetchAnswer>) =>
          resolve(event.data);
      });
      const request: FetchOrder = {
        url: `${server.url}${OPERATIONS.requestPasswordReset.path}`,
        method: "POST",
        body: { email: member.email },
      };
      worker.postMessage(request);
      const { status, at } = await answer;
      assertEquals(status, 202);
      await gatehouse.settled();
      assertEquals(sends.length, 1, "the known address is mailed once");
      // Deno wrote the answer before the send began…
      assertEquals(order, ["answered", "send"]);
      // …and the client had it while the send still blocked the server (a
      // send begun first would have held the answer back until it ended).
      assert(
        at < sends[0]!.endedAt,
        `answer at ${at}, send ${sends[0]!.startedAt}..${sends[0]!.endedAt}`,
      );
      assertEquals(logger.lines.filter((l) => l.level === "error"), []);
    } finally {
      worker.terminate();
      await server.close();
    }
  },
);
