// A body the client stops sending (it hangs up after half of it) is the
// client's malformed input, not the server's failure: every public route
// that reads a body answers 400 `body_malformed`, logs no error (anyone
// could otherwise fill the error log and page whoever watches it), and
// writes nothing — on KV, Postgres and SQLite, through a real server.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { type OperationName, OPERATIONS } from "@gatehouse/contract/operations";
import { SHAPES } from "@gatehouse/contract/shapes";
import { gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../fixtures/admin.ts";
import { addUser, hasher, memoryLogger, serve } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";

// The public operations that take a body, at a fixed path: each reads its
// body before anything else (the ones with a path value or a session read
// it with the same `decode`).
const WRITES = (Object.keys(OPERATIONS) as OperationName[]).filter((name) =>
  OPERATIONS[name].guard === "public" && SHAPES[name].body !== undefined &&
  !OPERATIONS[name].path.includes(":")
).map((name) => OPERATIONS[name].path);

testEachStore(
  "a body cut off by the client answers 400 body_malformed on every public write, logs no error and writes nothing",
  async (store) => {
    assert(WRITES.includes("/api/auth/login"), WRITES.join());
    await addUser(store, { email: "ada@example.com", role: "admin" });
    const logger = memoryLogger();
    const { gatehouse, app } = gatehouseApp({
      store,
      hasher,
      logger,
      roles: ROLES,
      publicUrl: "https://app.example",
    });
    const answered: { path: string; status: number; code: unknown }[] = [];
    const server = serve(async (req, info) => {
      const res = await app(req, undefined, info);
      const copy = res.clone();
      answered.push({
        path: new URL(req.url).pathname,
        status: res.status,
        code: (await copy.json().catch(() => null))?.code,
      });
      return res;
    });
    const { hostname, port } = new URL(server.url);
    const half = '{"email":"ada@example.com","password":"correct hor';
    try {
      await Promise.all(WRITES.map(async (path) => {
        const conn = await Deno.connect({ hostname, port: Number(port) });
        await conn.write(new TextEncoder().encode(
          `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
            `Origin: http://${hostname}:${port}\r\n` +
            `Content-Type: application/json\r\nContent-Length: 400\r\n\r\n${half}`,
        ));
        // Hung up once the server is reading the body.
        await new Promise((resolve) => setTimeout(resolve, 50));
        conn.close();
      }));
      // Every handler has answered (bounded: the test fails, not hangs).
      const deadline = Date.now() + 10_000;
      while (answered.length < WRITES.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await gatehouse.settled();
      assertEquals(
        answered.map(({ path, status, code }) => [path, status, code]).sort(),
        WRITES.map((path) => [path, 400, "body_malformed"]).sort(),
      );
      assertEquals(
        logger.lines.filter((line) => line.level === "error"),
        [],
      );
      // Nothing written: no event, no account, no link.
      const trail = await store.listAuditEvents({ limit: 100 });
      assertEquals(trail.events.map((event) => event.type), []);
      const users = await store.listUsers({ limit: 100 });
      assertEquals(users.users.map((user) => user.email), ["ada@example.com"]);
      assertEquals(await store.listInvitations(Date.now()), []);
    } finally {
      await server.close();
    }
  },
);
