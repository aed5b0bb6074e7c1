// The development mailbox (`/dev/mail`) is kept only while the demo
// listens on a loopback address, so that only this machine reads its live
// links. A loopback address is not enough: a web page whose name the
// attacker points at 127.0.0.1 (DNS rebinding) is same-origin with the
// demo under that name, and reads whatever the demo answers it. The
// request then names the attacker's host in `Host`, which the mailbox must
// refuse. Over raw HTTP to a real server on 127.0.0.1 (fetch() does not let
// a test choose the Host header).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { createDemoApp } from "../../demo/app.ts";
import { demoMailFromEnv } from "../../demo/mail.ts";
import { ISLANDS } from "../fixtures/demo_in_process.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  serve,
} from "../fixtures/kv.ts";
import type { Handler } from "../../mod.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** One request over its own connection, with the Host header given. */
async function raw(
  port: number,
  host: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? "" : JSON.stringify(body);
  const origin = `http://${host}`;
  const head = [
    `${method} ${path} HTTP/1.1`,
    `host: ${host}`,
    // What a browser sends for a page's own fetch() under that name.
    `origin: ${origin}`,
    "sec-fetch-site: same-origin",
    "connection: close",
    ...(body === undefined ? [] : [
      "content-type: application/json",
      `content-length: ${encoder.encode(payload).length}`,
    ]),
    "",
    "",
  ].join("\r\n");
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(encoder.encode(head + payload));
  const chunks: Uint8Array[] = [];
  for await (const chunk of conn.readable) chunks.push(chunk);
  const text = decoder.decode(
    new Uint8Array(chunks.flatMap((chunk) => [...chunk])),
  );
  return { status: Number(text.split(" ")[1]), text };
}

Deno.test("/dev/mail answers only a Host that names this machine or the public URL, not a rebound name", async () => {
  const { store, close } = await memoryStore();
  const logger = memoryLogger();
  let handler: Handler | undefined;
  const server = serve((req, info) =>
    handler?.(req, undefined, info) ?? new Response(null, { status: 503 })
  );
  const port = Number(new URL(server.url).port);
  const publicUrl = `http://localhost:${port}`;
  const mail = demoMailFromEnv({}, {
    listening: "127.0.0.1",
    logger,
    publicUrl,
  });
  try {
    handler = (await createDemoApp({
      store,
      islands: ISLANDS,
      publicUrl,
      logger,
      hasher,
      mail,
    })).handler;
    await addUser(store, { email: "zoe@example.com", name: "Zoë Núñez" });
    const rebound = `rebound.example:${port}`;

    // The attacker's page asks for a reset link of the owner's address…
    const asked = await raw(port, rebound, "POST", "/api/auth/password-reset", {
      email: "zoe@example.com",
    });
    assertEquals(asked.status, 202);
    const deadline = Date.now() + 5_000;
    let own = await raw(port, `localhost:${port}`, "GET", "/dev/mail");
    while (!own.text.includes("#token=") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      own = await raw(port, `localhost:${port}`, "GET", "/dev/mail");
    }
    // …which the developer's own browser sees, under a loopback name…
    assertEquals(own.status, 200);
    assert(own.text.includes(`${publicUrl}/reset#token=`));
    for (const host of [`127.0.0.1:${port}`, "localhost"]) {
      const page = await raw(port, host, "GET", "/dev/mail");
      assertEquals(page.status, 200, host);
    }
    // …and the page under the rebound name does not.
    for (
      const host of [
        rebound,
        "rebound.example",
        `localhost.rebound.example:${port}`,
        `127.0.0.1.nip.io:${port}`,
      ]
    ) {
      const page = await raw(port, host, "GET", "/dev/mail");
      assert(page.status !== 200, `${host}: ${page.status}`);
      assert(!page.text.includes("#token="), `${host} read the reset link`);
    }
  } finally {
    await server.close();
    await close();
  }
});
