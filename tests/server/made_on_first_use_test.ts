// A guard made on first use (server/http/_lazy_import.ts, `madeOnFirstUse`):
// the context's privilege, freshness and second-factor guards and the
// cross-origin guard are made by the first request they handle, not when
// createGatehouse builds the routes (each prepares its refusal, an Error,
// which costs a cold start a parse of the application's module). Made
// once however many routes and requests come first, it admits and refuses
// as the guard itself.

import { assertEquals } from "../fixtures/assert.ts";
import { withIdentity } from "../../mod.ts";
import { privilegeGuard } from "../../server/core/guards.ts";
import { madeOnFirstUse } from "../../server/http/_lazy_import.ts";
import type { Handler } from "../../server/http/respond.ts";
import { defaultLogger } from "../../server/http/logger.ts";

const ok: Handler = () => new Response(null, { status: 204 });

function requestAs(role: string): Request {
  return withIdentity(new Request("http://localhost/api/users"), {
    id: "0190f0a0-0000-7000-8000-000000000001",
    email: "someone@example.com",
    name: "Someone",
    role,
  });
}

Deno.test("a guard made on first use is made once, by the first request, and answers as the guard itself", async () => {
  let made = 0;
  const guard = madeOnFirstUse(() => {
    made++;
    return privilegeGuard(["admin"], defaultLogger);
  });
  // Routes built: nothing made yet.
  const routes = [guard(ok), guard(ok), guard(ok)];
  assertEquals(made, 0);

  // The first requests, several routes at once: made once.
  const first = await Promise.all(
    routes.flatMap((route) => [
      route(requestAs("admin")),
      route(requestAs("member")),
    ]),
  );
  assertEquals(made, 1);
  assertEquals(first.map((res) => res.status), [204, 403, 204, 403, 204, 403]);
  const refused = await first[1]!.json();
  assertEquals(refused.code, "role_insufficient");

  // A route built after the first request uses the same guard.
  const later = guard(ok);
  assertEquals((await later(requestAs("member"))).status, 403);
  assertEquals((await later(requestAs("admin"))).status, 204);
  assertEquals(made, 1);
});
