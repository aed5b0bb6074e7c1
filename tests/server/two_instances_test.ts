// Two app instances on one store: two createAuth over two Store objects with
// their own connections (two Deno.openKv handles on one KV file; two
// postgres.js pools on one schema). Whatever one instance writes, the other
// must see: sessions, logouts, disables and limiter counts.

import assert from "node:assert/strict";
import {
  type Auth,
  createAuth,
  type Handler,
  loginRateLimiter,
  type Store,
} from "../../mod.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { addUser, hasher, PASSWORD } from "../fixtures/kv.ts";
import { ignorePostgres, pool, uniqueSchema } from "../fixtures/postgres.ts";

interface Pair {
  a: Store;
  b: Store;
  close(): Promise<void>;
}

const PAIRS: Array<{ name: string; ignore: boolean; open(): Promise<Pair> }> = [
  {
    name: "one KV file",
    ignore: false,
    async open() {
      const path = await Deno.makeTempFile({ suffix: ".kv" });
      const kvA = await Deno.openKv(path);
      const kvB = await Deno.openKv(path);
      const a = new KvStore(kvA);
      const b = new KvStore(kvB);
      await Promise.all([a.migrate(), b.migrate()]);
      return {
        a,
        b,
        async close() {
          kvA.close();
          kvB.close();
          await Deno.remove(path);
        },
      };
    },
  },
  {
    name: "one Postgres schema",
    ignore: ignorePostgres,
    async open() {
      const schema = uniqueSchema();
      const sqlA = pool();
      const sqlB = pool();
      const a = new PostgresStore(sqlA, { schema });
      const b = new PostgresStore(sqlB, { schema });
      await Promise.all([a.migrate(), b.migrate()]);
      return {
        a,
        b,
        async close() {
          await sqlA.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await Promise.all([sqlA.end(), sqlB.end()]);
        },
      };
    },
  },
];

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

function pairTest(title: string, fn: (pair: Pair) => Promise<void>) {
  for (const { name, ignore, open } of PAIRS) {
    Deno.test({
      name: `Two instances on ${name} ${title}`,
      ignore,
      async fn() {
        const pair = await open();
        try {
          await fn(pair);
        } finally {
          await pair.close();
        }
      },
    });
  }
}

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
