// One composition root (issue 27, item 2): one context built once and
// read by every handler; factories as thin wrappers over it, their
// handlers already behind the contract's guard; the limiter told what
// counts by the error itself, not by a mark on the answer. Real argon2 and
// an in-memory KV store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import {
  AuthError,
  createGatehouse,
  loginRateLimiter,
  type Store,
  withIdentity,
} from "../../mod.ts";
import { createAccount } from "../../server/features/account.ts";
import { gatehouseContext } from "../../server/core/context.ts";
import { authOn } from "../../server/core/auth.ts";
import { adminOn } from "../../server/features/admin.ts";
import { countedGuess, isGuess } from "../../server/core/_counted.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  memoryStore,
  PASSWORD,
  serve,
} from "../fixtures/kv.ts";
import { adminApp, services } from "../fixtures/admin.ts";
import { mount, routesFor } from "../fixtures/app.ts";
import { testEachStore } from "../fixtures/stores.ts";

const PEER: Deno.ServeHandlerInfo = {
  remoteAddr: { transport: "tcp", hostname: "203.0.113.7", port: 40_000 },
  completed: Promise.resolve(),
};

function post(path: string, body: unknown, cookie?: string): Request {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(cookie === undefined ? {} : { cookie }),
    },
    body: JSON.stringify(body),
  });
}

Deno.test("the limiter asks a thrown refusal whether it counts, and marks no answer", async () => {
  const { store, close } = await memoryStore();
  try {
    const limited = loginRateLimiter({
      store,
      maxFailures: 2,
      logger: memoryLogger(),
      counts: () => false,
      countsRefusal: isGuess,
    });
    const guessed = limited(() => {
      throw countedGuess(new AuthError("code_invalid"));
    });
    const plain = limited(() => {
      throw new AuthError("code_invalid");
    });
    const req = () => new Request("http://localhost/x", { method: "POST" });
    // A refusal that is no guess is answered the same, and gives its
    // attempt back, however many come.
    for (let i = 0; i < 4; i++) {
      const res = await plain(req(), undefined, PEER);
      assertEquals(res.status, 400);
      assertEquals((await res.json()).code, "code_invalid");
    }
    const first = await guessed(req(), undefined, PEER);
    assertEquals(first.status, 400);
    // Nothing rides on the answer: no symbol-keyed verdict of ours.
    assertEquals(
      Object.getOwnPropertySymbols(first).filter((s) =>
        String(s).includes("gatehouse")
      ),
      [],
    );
    await first.body?.cancel();
    await (await guessed(req(), undefined, PEER)).body?.cancel();
    const third = await guessed(req(), undefined, PEER);
    assertEquals(third.status, 429);
    assertEquals((await third.json()).code, "login_rate_limited");
  } finally {
    await close();
  }
});

Deno.test("factories built on one context share its settings: authOn, adminOn, createAccount", async () => {
  const { store, close } = await memoryStore();
  try {
    const context = gatehouseContext({
      store,
      hasher,
      logger: memoryLogger(),
      privileged: ["admin"],
      limits: { maxBodyBytes: 256 },
    });
    const auth = authOn(context);
    assert(auth.context === context);
    const admin = adminOn(context);
    const root = await addUser(store, {
      email: "root@example.com",
      role: "admin",
    });
    const asRoot = (req: Request) =>
      withIdentity(req, {
        id: root.id,
        email: root.email,
        name: root.name,
        role: root.role,
      });
    // The context's body limit, not a default picked again by createAdmin.
    const big = await admin.createUser(asRoot(post("/api/users", {
      email: "big@example.com",
      name: "x".repeat(300),
      password: PASSWORD,
    })));
    assertEquals(big.status, 413);
    assertEquals((await big.json()).code, "body_too_large");
    // createAccount over the Auth (the old signature) reads the same
    // context: the session `auth.startSession` issued is its caller's.
    const cookie = (await auth.startSession(root.id)).split(";")[0]!;
    const account = createAccount({ auth });
    const listed = await account.listSessions(
      new Request("http://localhost/api/auth/sessions", {
        headers: { cookie },
      }),
    );
    assertEquals(listed.status, 200);
    const { sessions } = await listed.json();
    assertEquals(sessions.length, 1);
    assertEquals(sessions[0].current, true);
  } finally {
    await close();
  }
});

Deno.test("a factory's handler comes behind the contract's guard", async () => {
  const { store, close } = await memoryStore();
  try {
    const context = gatehouseContext({
      store,
      hasher,
      logger: memoryLogger(),
      privileged: ["admin"],
    });
    const admin = adminOn(context);
    const account = createAccount(context);
    const users = () => new Request("http://localhost/api/users");
    // No session: the guard's 401, before the handler.
    assertEquals((await admin.listUsers(users())).status, 401);
    // A role outside the privileged list: the guard's 403.
    const member = await admin.listUsers(withIdentity(users(), {
      id: "0190f0a0-0000-7000-8000-000000000002",
      email: "m@example.com",
      name: "M",
      role: "member",
    }));
    assertEquals(member.status, 403);
    assertEquals((await member.json()).code, "role_insufficient");
    // One's own sessions need the session itself, which an identity the
    // application attached does not carry.
    const own = await account.listSessions(withIdentity(
      new Request("http://localhost/api/auth/sessions"),
      {
        id: "0190f0a0-0000-7000-8000-000000000003",
        email: "a@example.com",
        name: "A",
        role: "",
      },
    ));
    assertEquals(own.status, 401);
    assertEquals((await own.json()).code, "session_absent");
  } finally {
    await close();
  }
});

Deno.test("a guarded admin route reads the session once", async () => {
  const { store: real, close } = await memoryStore();
  let reads = 0;
  const store = new Proxy(real, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === "findSession") {
        return (...args: Parameters<Store["findSession"]>) => {
          reads++;
          return target.findSession(...args);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as Store;
  try {
    const gatehouse = createGatehouse({
      store,
      hasher,
      logger: memoryLogger(),
      privileged: ["admin"],
    });
    await addUser(real, { email: "root@example.com", role: "admin" });
    const route = (op: string) =>
      gatehouse.routes.find((r) => r.operation === op)!;
    const login = await route("login").handler(
      post("/api/auth/login", {
        email: "root@example.com",
        password: PASSWORD,
      }),
      undefined,
      PEER,
    );
    assertEquals(login.status, 200);
    await login.body?.cancel();
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    reads = 0;
    const listed = await route("listUsers").handler(
      new Request("http://localhost/api/users", { headers: { cookie } }),
      undefined,
      PEER,
    );
    assertEquals(listed.status, 200);
    assertEquals((await listed.json()).users.length, 1);
    assertEquals(reads, 1);
    await gatehouse.settled();
  } finally {
    await close();
  }
});

testEachStore(
  "a factory's handler carries the contract's freshness check, mounted behind requireSession or alone: a stale session gets reauthentication_required",
  async (store) => {
    let now = Date.now();
    const root = await addUser(store, {
      email: "root@example.com",
      role: "admin",
    });
    const member = await addUser(store, {
      email: "m@example.com",
      role: "member",
    });
    const { auth, admin } = services(store, { now: () => now });
    const behindSession = adminApp(auth, admin);
    const alone = mount(routesFor({
      login: auth.login,
      setUserDisabled: admin.setUserDisabled,
    }));
    const server = serve((req, info) =>
      new URL(req.url).pathname.startsWith("/alone")
        ? alone(
          new Request(req.url.replace("/alone", ""), req),
          undefined,
          info,
        )
        : behindSession(req, undefined, info)
    );
    const call = async (path: string, cookie: string, disabled: boolean) => {
      const res = await fetch(`${server.url}${path}`, {
        method: "PATCH",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ disabled }),
      });
      return [res.status, (await res.json()).code ?? null];
    };
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: root.email, password: PASSWORD }),
      });
      await login.body?.cancel();
      const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
      const path = `/api/users/${member.id}`;
      // Fresh: both mounts act.
      assertEquals(await call(path, cookie, true), [200, null]);
      assertEquals(await call(`/alone${path}`, cookie, false), [200, null]);
      // Past the re-authentication window: both refuse, and nothing moves.
      now += 31 * 60_000;
      for (const mounted of [path, `/alone${path}`]) {
        assertEquals(await call(mounted, cookie, true), [
          403,
          "reauthentication_required",
        ], mounted);
      }
      assertEquals((await store.userById(member.id))?.disabled, false);
    } finally {
      await server.close();
    }
  },
);
