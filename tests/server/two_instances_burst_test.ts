// The account lock (DESIGN.md §15) with two createGatehouse instances over
// one store (tests/fixtures/instances.ts), each behind its own real
// `Deno.serve` on 127.0.0.1, with a mailer that keeps every message:
//
// - one `login.locked` and one `account_locked` notice for a lock spread
//   over both, and none for a window that only right sign-ins in flight
//   fill. Before, an instance refused while the other still checked its
//   right passwords waited only for its own attempts, found the window
//   full and recorded a lock and mailed the owner that their account was
//   locked, though no password had been wrong;
// - a password change whose right current password is read after another
//   change of the account landed (a double submission, the two on two
//   instances) answers 401 `session_absent`, like a change whose commit
//   finds the account moved, and counts no guess. Before, it answered 403
//   `password_incorrect` and counted a failure toward the lock. Likewise a
//   re-authentication by password raced by a change of the password.

import { assertEquals } from "../fixtures/assert.ts";
import { type Pair, pairTest } from "../fixtures/instances.ts";
import type { PasswordHasher, Store } from "../../mod.ts";
import type { MailMessage } from "../../server/mail.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../fixtures/admin.ts";
import {
  addUser,
  hasher,
  memoryLogger,
  PASSWORD,
  serve,
} from "../fixtures/kv.ts";
import { answerOf, tally } from "../fixtures/security.ts";

/** One instance: the whole API over `store`, mail kept, served. */
function instance(
  store: Store,
  clock: { now: number },
  options: { hasher?: PasswordHasher } = {},
) {
  const logger = memoryLogger();
  const mail: MailMessage[] = [];
  const { gatehouse, app } = gatehouseApp({
    store,
    logger,
    hasher: options.hasher ?? hasher,
    now: () => clock.now,
    roles: ROLES,
    publicUrl: "https://app.example",
    trustedProxy: {
      header: "x-forwarded-for",
      addresses: ["127.0.0.1", "::1"],
    },
    rateLimit: { maxFailures: 100_000 },
    mailer: { send: (m) => Promise.resolve(void mail.push(m)) },
  });
  const server = serve((req, info) => app(req, undefined, info));
  function call(
    method: string,
    path: string,
    body?: unknown,
    init: { cookie?: string; from?: string } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "x-forwarded-for": init.from ?? "203.0.113.5",
    };
    if (init.cookie !== undefined) headers.cookie = init.cookie;
    return fetch(`${server.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }
  return {
    gatehouse,
    logger,
    mail,
    call,
    async close() {
      await gatehouse.settled();
      await server.close();
    },
  };
}

type Instance = ReturnType<typeof instance>;

async function both(
  pair: Pair,
  fn: (a: Instance, b: Instance) => Promise<void>,
) {
  const clock = { now: Date.now() };
  const a = instance(pair.a, clock);
  const b = instance(pair.b, clock);
  try {
    await fn(a, b);
  } finally {
    await a.close();
    await b.close();
  }
}

async function events(store: Store, type: string) {
  const all = [];
  let cursor: string | undefined;
  do {
    const page = await store.listAuditEvents({
      limit: 100,
      ...(cursor === undefined ? {} : { cursor }),
    });
    all.push(...page.events);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return all.filter((e) => e.type === type);
}

const errors = (a: Instance, b: Instance) =>
  [...a.logger.lines, ...b.logger.lines].filter((l) => l.level === "error");

const address = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.7`;

pairTest(
  "over HTTP: 300 wrong sign-ins spread over both send one account_locked notice",
  async (pair) => {
    await addUser(pair.a, { email: "ada@example.com" });
    await both(pair, async (a, b) => {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          (i % 2 === 0 ? a : b).call(
            "POST",
            "/api/auth/login",
            { email: "ada@example.com", password: `wrong ${i}` },
            { from: address(i) },
          ).then(answerOf)),
      );
      assertEquals(tally(answers), {
        "401 credentials_invalid": 10,
        "429 login_rate_limited": 290,
      });
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
      const locked = [...a.mail, ...b.mail].filter((m) =>
        m.kind === "account_locked"
      );
      assertEquals(locked.length, 1, "one account_locked notice");
      assertEquals((await events(pair.a, "login.locked")).length, 1);
      assertEquals(errors(a, b), []);
    });
  },
);

pairTest(
  "over HTTP: right sign-ins refused on one while the other still verifies its own record no login.locked and mail no account_locked notice",
  async (pair) => {
    const ada = await addUser(pair.a, { email: "ada@example.com" });
    const clock = { now: Date.now() };
    // B's argon2 verifications wait for the gate: its ten right sign-ins
    // hold the account lock's window while A is refused.
    const gate = Promise.withResolvers<void>();
    let checking = 0;
    const gated: PasswordHasher = {
      ...hasher,
      verify: async (hash, password) => {
        checking++;
        await gate.promise;
        return await hasher.verify(hash, password);
      },
    };
    const a = instance(pair.a, clock);
    const b = instance(pair.b, clock, { hasher: gated });
    try {
      const signIn = (x: Instance, i: number) =>
        x.call("POST", "/api/auth/login", {
          email: ada.email,
          password: PASSWORD,
        }, { from: address(i) }).then(answerOf);
      const held = Array.from({ length: 10 }, (_, i) => signIn(b, i));
      while (checking < 10) await new Promise((r) => setTimeout(r, 5));
      const refused = await Promise.all(
        Array.from({ length: 5 }, (_, i) => signIn(a, 100 + i)),
      );
      assertEquals(tally(refused), { "429 login_rate_limited": 5 });
      // A's work after its answers runs while B's sign-ins still hold the
      // window (it used to record the lock within this pause).
      const settledA = a.gatehouse.settled();
      await new Promise((r) => setTimeout(r, 100));
      gate.resolve();
      assertEquals(tally(await Promise.all(held)), { "200": 10 });
      await Promise.all([settledA, b.gatehouse.settled()]);
      // Not one wrong password: nothing to report, nothing to tell Ada.
      assertEquals(await events(pair.a, "login.locked"), []);
      assertEquals(
        [...a.mail, ...b.mail].filter((m) => m.kind === "account_locked"),
        [],
      );
      assertEquals(errors(a, b), []);
    } finally {
      gate.resolve();
      await a.close();
      await b.close();
    }
  },
);

// Ada signed in on A, and B whose first argon2 hash (the made-up hash its
// first password check verifies unknown addresses against) waits for the
// gate: a request of B's past its session check reads the password only
// once the gate opens, after what A does meanwhile.
async function heldPasswordCheck(pair: Pair) {
  const ada = await addUser(pair.a, { email: "ada@example.com" });
  const clock = { now: Date.now() };
  const gate = Promise.withResolvers<void>();
  let hashing = 0;
  const gated: PasswordHasher = {
    ...hasher,
    hash: async (password) => {
      hashing++;
      await gate.promise;
      return await hasher.hash(password);
    },
  };
  const a = instance(pair.a, clock);
  const b = instance(pair.b, clock, { hasher: gated });
  const signedIn = await a.call("POST", "/api/auth/login", {
    email: ada.email,
    password: PASSWORD,
  });
  await signedIn.body?.cancel();
  return {
    ada,
    a,
    b,
    gate,
    cookie: signedIn.headers.get("set-cookie")!.split(";")[0]!,
    async held() {
      while (hashing < 1) await new Promise((r) => setTimeout(r, 5));
    },
  };
}

// Nine mistakes of Ada's own: still below the threshold, so her right
// password is let in (with a late request counted, the window was full).
async function stillSignsIn(a: Instance, email: string, password: string) {
  for (let i = 0; i < 9; i++) {
    const wrong = await a.call("POST", "/api/auth/login", {
      email,
      password: `mistyped ${i}`,
    }, { from: address(i) });
    assertEquals(await answerOf(wrong), "401 credentials_invalid");
  }
  const right = await a.call("POST", "/api/auth/login", { email, password }, {
    from: address(50),
  });
  assertEquals(await answerOf(right), "200");
}

pairTest(
  "over HTTP: a password change that reads the password after the other instance's change of it landed is session_absent, and no guess",
  async (pair) => {
    const { ada, a, b, gate, cookie, held } = await heldPasswordCheck(pair);
    try {
      const change = (x: Instance, to: string) =>
        x.call("POST", "/api/auth/password", {
          current_password: PASSWORD,
          new_password: to,
        }, { cookie }).then(answerOf);
      const late = change(b, "the second submission of it");
      await held();
      assertEquals(await change(a, "the first submission of it"), "204");
      gate.resolve();
      assertEquals(await late, "401 session_absent");
      await stillSignsIn(a, ada.email, "the first submission of it");
      assertEquals(errors(a, b), []);
    } finally {
      gate.resolve();
      await a.close();
      await b.close();
    }
  },
);

pairTest(
  "over HTTP: a re-authentication that reads the password after the other instance's change of it landed is session_absent, and no guess",
  async (pair) => {
    const { ada, a, b, gate, cookie, held } = await heldPasswordCheck(pair);
    try {
      const late = b.call("POST", "/api/auth/reauthenticate", {
        password: PASSWORD,
      }, { cookie }).then(answerOf);
      await held();
      const changed = await a.call("POST", "/api/auth/password", {
        current_password: PASSWORD,
        new_password: "the new password of it",
      }, { cookie });
      assertEquals(await answerOf(changed), "204");
      gate.resolve();
      assertEquals(await late, "401 session_absent");
      await stillSignsIn(a, ada.email, "the new password of it");
      assertEquals(errors(a, b), []);
    } finally {
      gate.resolve();
      await a.close();
      await b.close();
    }
  },
);
