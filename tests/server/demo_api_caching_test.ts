// Every answer of the demo under /api says `Cache-Control: no-store`
// (issue 26, item 23; DESIGN.md §4): each operation of the contract, signed
// out and signed in, its refusals included, and the demo's own answers for
// what the API lacks: a JSON 404 for an unknown path, a JSON 405 (with
// `Allow`) for a known path under another method.

import assert from "node:assert/strict";
import {
  type Method,
  OPERATIONS,
  pathOf,
} from "@gatehouse/contract/operations";
import type { Handler } from "../../mod.ts";
import { INFO, ORIGIN, withSignedInDemo } from "../fixtures/demo_in_process.ts";

const UUID = "0190f0a0-0000-7000-8000-000000000001";

async function call(
  app: Handler,
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = cookie === "" ? {} : { cookie };
  const init: RequestInit = { method, headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await app(new Request(`${ORIGIN}${path}`, init), undefined, INFO);
  // Read the body so nothing is left open, whatever the answer.
  await res.arrayBuffer();
  return res;
}

function assertNoStore(res: Response, what: string): void {
  assert.equal(
    res.headers.get("cache-control"),
    "no-store",
    `${what} (${res.status}) carries no-store`,
  );
}

const ALL: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

Deno.test("demo: an unknown /api path is a JSON 404, never stored", async () => {
  await withSignedInDemo({}, async (app, cookie) => {
    for (const path of ["/api", "/api/", "/api/nowhere", "/api/auth/nope"]) {
      for (const method of [...ALL, "HEAD"]) {
        for (const who of ["", cookie]) {
          const res = await app(
            new Request(`${ORIGIN}${path}`, {
              method,
              headers: who === "" ? {} : { cookie: who },
            }),
            undefined,
            INFO,
          );
          const what = `${method} ${path}`;
          assert.equal(res.status, 404, what);
          assertNoStore(res, what);
          if (method !== "HEAD") {
            assert.equal((await res.json()).code, "not_found", what);
          } else await res.body?.cancel();
        }
      }
    }
  });
});

Deno.test("demo: a known /api path under another method is a JSON 405 with Allow, never stored", async () => {
  await withSignedInDemo({}, async (app, cookie) => {
    // Every path of the contract, with the methods some route of the
    // contract answers it under (`/api/users/invite` is also a user id).
    const specs = Object.values(OPERATIONS);
    const methods = new Map<string, Set<string>>();
    for (const spec of specs) {
      const path = spec.path.replaceAll(/:[a-z]+/gi, UUID);
      const allowed = new Set(
        specs.filter((other) =>
          new URLPattern({ pathname: other.path }).test({ pathname: path })
        ).flatMap((other) =>
          other.method === "GET" ? ["GET", "HEAD"] : [other.method]
        ),
      );
      methods.set(path, allowed);
    }
    for (const [path, allowed] of methods) {
      for (const method of ALL.filter((m) => !allowed.has(m))) {
        const res = await app(
          new Request(`${ORIGIN}${path}`, {
            method,
            headers: { cookie },
          }),
          undefined,
          INFO,
        );
        const what = `${method} ${path}`;
        assert.equal(res.status, 405, what);
        assertNoStore(res, what);
        assert.deepEqual(
          new Set(res.headers.get("allow")!.split(", ")),
          allowed,
          what,
        );
        assert.equal((await res.json()).code, "method_not_allowed", what);
      }
    }
  });
});

Deno.test("demo: every operation of the API answers with no-store, signed out and signed in", async () => {
  await withSignedInDemo({}, async (app, cookie) => {
    // Signing out last, so the session lives through the rest.
    const operations = Object.entries(OPERATIONS).sort(([a], [b]) =>
      Number(a === "logout") - Number(b === "logout")
    );
    for (const who of ["", cookie]) {
      for (const [name, spec] of operations) {
        const params = Object.fromEntries(
          [...spec.path.matchAll(/:([a-z]+)/gi)].map((m) => [m[1]!, UUID]),
        );
        const path = pathOf(name as keyof typeof OPERATIONS, params);
        const res = await call(
          app,
          spec.method,
          path,
          who,
          spec.method === "GET" || spec.method === "DELETE" ? undefined : {},
        );
        assertNoStore(res, `${spec.method} ${path}${who ? " signed in" : ""}`);
      }
    }
  });
});
