import { assertEquals } from "../fixtures/assert.ts";
import { memoryLogger, serveHandler } from "../fixtures/kv.ts";
import { crossOriginGuard } from "../../mod.ts";
import { checkCrossOrigin } from "../../server/http/cross_origin.ts";

type Row = {
  method: string;
  fetchSite?: string;
  origin?: string;
  host?: string;
  allowed: boolean;
  reason?: "fetch-site" | "origin";
};

// SPEC.md's table and DESIGN.md §5, one row per case. The request's Host is
// app.example unless a row says otherwise.
const ROWS: Row[] = [
  // Safe methods pass whatever the headers say.
  ...["GET", "HEAD", "OPTIONS"].flatMap((method) => [
    { method, allowed: true },
    { method, fetchSite: "cross-site", allowed: true },
    { method, origin: "https://evil.example", allowed: true },
  ]),
  // Writes with Sec-Fetch-Site: same-origin and none pass, the rest are refused.
  ...["POST", "PUT", "PATCH", "DELETE"].flatMap((method) => [
    { method, fetchSite: "same-origin", allowed: true },
    { method, fetchSite: "none", allowed: true },
    {
      method,
      fetchSite: "same-site",
      allowed: false,
      reason: "fetch-site" as const,
    },
    {
      method,
      fetchSite: "cross-site",
      allowed: false,
      reason: "fetch-site" as const,
    },
    {
      method,
      fetchSite: "bogus",
      allowed: false,
      reason: "fetch-site" as const,
    },
    // Sec-Fetch-Site decides even when Origin says otherwise.
    {
      method,
      fetchSite: "cross-site",
      origin: "https://app.example",
      allowed: false,
      reason: "fetch-site" as const,
    },
    {
      method,
      fetchSite: "same-origin",
      origin: "https://evil.example",
      allowed: true,
    },
    // Neither header: scripts, servers, API clients.
    { method, allowed: true },
    // Old browsers: Origin only, host compared with Host, scheme ignored.
    { method, origin: "https://app.example", allowed: true },
    { method, origin: "http://app.example", allowed: true },
    {
      method,
      origin: "https://evil.example",
      allowed: false,
      reason: "origin" as const,
    },
    {
      method,
      origin: "https://app.example:8443",
      allowed: false,
      reason: "origin" as const,
    },
    { method, origin: "null", allowed: false, reason: "origin" as const },
    { method, origin: "not a url", allowed: false, reason: "origin" as const },
  ]),
  {
    method: "POST",
    origin: "http://localhost:8000",
    host: "localhost:8000",
    allowed: true,
  },
  {
    method: "POST",
    origin: "http://127.0.0.1:9000",
    host: "localhost:8000",
    allowed: false,
    reason: "origin",
  },
];

function request(row: Row): Request {
  const headers = new Headers({ host: row.host ?? "app.example" });
  if (row.fetchSite !== undefined) headers.set("sec-fetch-site", row.fetchSite);
  if (row.origin !== undefined) headers.set("origin", row.origin);
  return new Request(`https://${row.host ?? "app.example"}/api/users`, {
    method: row.method,
    headers,
  });
}

for (const row of ROWS) {
  const label = `${row.method} sec-fetch-site=${row.fetchSite ?? "-"} origin=${
    row.origin ?? "-"
  }`;
  Deno.test(`checkCrossOrigin() ${row.allowed ? "passes" : "refuses"} ${label}`, () => {
    const verdict = checkCrossOrigin(request(row));
    assertEquals(
      verdict,
      row.allowed ? { allowed: true } : { allowed: false, reason: row.reason! },
    );
  });
}

Deno.test("crossOriginGuard() answers 403 request_cross_origin and logs the reason", async () => {
  const logger = memoryLogger();
  let reached = 0;
  const guarded = crossOriginGuard({ logger })(() => {
    reached++;
    return new Response("ok");
  });
  const refused = await guarded(
    request({ method: "POST", fetchSite: "cross-site", allowed: false }),
  );
  assertEquals(refused.status, 403);
  assertEquals(await refused.json(), {
    error: "Cross-origin request refused",
    code: "request_cross_origin",
  });
  const refusedByOrigin = await guarded(
    request({ method: "PUT", origin: "https://evil.example", allowed: false }),
  );
  assertEquals(refusedByOrigin.status, 403);
  await refusedByOrigin.body?.cancel();
  assertEquals(reached, 0);
  assertEquals(
    logger.lines.map((line) => [line.level, line.message, line.fields?.reason]),
    [["warn", "write refused", "fetch-site"], [
      "warn",
      "write refused",
      "origin",
    ]],
  );
  const passed = await guarded(
    request({ method: "POST", fetchSite: "same-origin", allowed: true }),
  );
  assertEquals(await passed.text(), "ok");
  assertEquals(reached, 1);
});

Deno.test("crossOriginGuard() compares Origin with the Host a real server received", async () => {
  const logger = memoryLogger();
  const server = serveHandler(
    crossOriginGuard(logger)(() => new Response("ok")),
  );
  try {
    const host = new URL(server.url).host;
    const same = await fetch(server.url, {
      method: "POST",
      headers: { origin: `http://${host}` },
    });
    assertEquals([same.status, await same.text()], [200, "ok"]);
    const https = await fetch(server.url, {
      method: "POST",
      headers: { origin: `https://${host}` },
    });
    assertEquals(https.status, 200, "scheme is ignored");
    await https.body?.cancel();
    const other = await fetch(server.url, {
      method: "POST",
      headers: { origin: "http://127.0.0.1:1" },
    });
    assertEquals((await other.json()).code, "request_cross_origin");
    assertEquals(logger.lines.at(-1)?.fields?.reason, "origin");
  } finally {
    await server.close();
  }
});

Deno.test("crossOriginGuard() still takes the logger itself, the earlier form", async () => {
  const logger = memoryLogger();
  const guarded = crossOriginGuard(logger)(() => new Response("ok"));
  const refused = await guarded(
    request({ method: "POST", fetchSite: "cross-site", allowed: false }),
  );
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  assertEquals(logger.lines.map((line) => line.message), ["write refused"]);
});
