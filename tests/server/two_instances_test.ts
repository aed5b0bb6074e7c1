// Two app instances on one store (tests/fixtures/instances.ts): two
// createAuth over two Store objects with their own connections. Whatever one
// instance writes, the other must see: sessions, logouts, disables and
// limiter counts.

import assert from "node:assert/strict";
import {
  type Auth,
  createAuth,
  type Handler,
  loginRateLimiter,
} from "../../mod.ts";
import { addUser, hasher, PASSWORD } from "../fixtures/kv.ts";
import { type Pair, pairTest } from "../fixtures/instances.ts";

function instances(pair: Pair): [Auth, Auth] {
  return [
    createAuth({ store: pair.a, hasher }),
    createAuth({ store: pair.b, hasher }),
  ];
}

const from: Deno.ServeHandlerInfo = {
  remoteAddr: { transport: "tcp", hostname: "203.0.113.5", port: 40_000 },
  completed: Promise.resolve(),
};

function login(handler: Handler, password: string): Promise<Response> {
  return Promise.resolve(handler(
    new Request("http://localhost/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "ada@example.com", password }),
    }),
    undefined,
    from,
  ));
}

async function signIn(auth: Auth): Promise<string> {
  const res = await login(auth.login, PASSWORD);
  assert.equal(res.status, 200);
  await res.body?.cancel();
  return res.headers.get("set-cookie")!.split(";")[0]!;
}

async function statusOf(res: Response | Promise<Response>): Promise<number> {
  const response = await res;
  await response.body?.cancel();
  return response.status;
}

const withCookie = (path: string, cookie: string, method = "GET") =>
  new Request(`http://localhost${path}`, { method, headers: { cookie } });

pairTest("see each other's logins and logouts", async (pair) => {
  const [authA, authB] = instances(pair);
  const ada = await addUser(pair.a, { email: "ada@example.com" });
  const cookie = await signIn(authA);
  const seen = await authB.session(withCookie("/api/auth/session", cookie));
  assert.equal(seen.status, 200);
  assert.equal((await seen.json()).id, ada.id);

  const out = await authB.logout(
    withCookie("/api/auth/logout", cookie, "POST"),
  );
  assert.equal(out.status, 204);
  assert.equal(
    await statusOf(authA.session(withCookie("/api/auth/session", cookie))),
    401,
  );
});

pairTest("see each other's disables at once", async (pair) => {
  const [authA, authB] = instances(pair);
  const ada = await addUser(pair.a, { email: "ada@example.com" });
  const cookie = await signIn(authA);
  assert.equal(
    await statusOf(authB.session(withCookie("/api/auth/session", cookie))),
    200,
  );

  await pair.b.updateUser(ada.id, { disabled: true });
  assert.equal(
    await statusOf(authA.session(withCookie("/api/auth/session", cookie))),
    401,
  );
  assert.equal(await statusOf(login(authA.login, PASSWORD)), 401);

  // Re-enabled on A: the old session stays dead on B, a new one works.
  await pair.a.updateUser(ada.id, { disabled: false });
  assert.equal(
    await statusOf(authB.session(withCookie("/api/auth/session", cookie))),
    401,
  );
  const fresh = await signIn(authB);
  assert.equal(
    await statusOf(authA.session(withCookie("/api/auth/session", fresh))),
    200,
  );
});

pairTest("share the login limiter's counts", async (pair) => {
  const [authA, authB] = instances(pair);
  await addUser(pair.a, { email: "ada@example.com" });
  const limitA = loginRateLimiter({ store: pair.a, maxFailures: 3 })(
    authA.login,
  );
  const limitB = loginRateLimiter({ store: pair.b, maxFailures: 3 })(
    authB.login,
  );
  assert.equal(await statusOf(login(limitA, "wrong password")), 401);
  assert.equal(await statusOf(login(limitB, "wrong password")), 401);
  assert.equal(await statusOf(login(limitA, "wrong password")), 401);
  assert.equal(await statusOf(login(limitB, PASSWORD)), 429);
  assert.equal(await statusOf(login(limitA, PASSWORD)), 429);
});
