// A sign-in lets the store begin its session's reads while argon2id
// verifies the password (`Store.anticipateSession`), so that only the
// commit waits for the verify. Those reads are a head start, never a
// decision: here the verify is held open on one instance while the other
// changes the account, and the session the sign-in records must be decided
// on what holds when it commits (DESIGN.md §5), on both stores:
//
// - a password reset or a disable on the other instance: 401, no session;
// - the other instance filling the account to its cap meanwhile: the cap
//   still holds;
// - hundreds of concurrent sign-ins, right and wrong, of one account on
//   two instances: every right one gets a live session, the cap holds, and
//   every wrong one is refused;
// - a store whose hint throws: the sign-in goes on without it, logged.

import assert from "node:assert/strict";
import type { Handler, PasswordHasher, Store } from "../../mod.ts";
import { ROLES } from "../fixtures/admin.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { from } from "../fixtures/api.ts";
import { type Pair, pairTest } from "../fixtures/instances.ts";
import { gate, instrument } from "../fixtures/instrument.ts";
import { addUser, hasher, memoryLogger, PASSWORD } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";

const CAP = 5;

// The real argon2 hasher; its verify can be held until the test opens it.
function holdingHasher(): PasswordHasher & {
  hold(): { verifying: Promise<void>; release(): void };
} {
  let held: { started: () => void; opened: Promise<void> } | undefined;
  return {
    hash: (password) => hasher.hash(password),
    needsRehash: (hash) => hasher.needsRehash(hash),
    async verify(hash, password) {
      const answer = await hasher.verify(hash, password);
      const now = held;
      held = undefined;
      if (now !== undefined) {
        now.started();
        await now.opened;
      }
      return answer;
    },
    hold() {
      const verifying = Promise.withResolvers<void>();
      const released = gate();
      held = { started: verifying.resolve, opened: released.opened };
      return { verifying: verifying.promise, release: released.open };
    },
  };
}

function app(store: Store, withHasher: PasswordHasher = hasher): Handler {
  return gatehouseApp({
    store,
    hasher: withHasher,
    roles: ROLES,
    // Hundreds of sign-ins of one address at once: each holds an attempt
    // of the account lock while it is checked, so the lock (DESIGN.md §15,
    // account_lock_test.ts) is lifted out of the way.
    limits: { maxSessionsPerAccount: CAP, accountLockThreshold: 10_000 },
    rateLimit: { maxFailures: 10_000 },
  }).app;
}

async function call(
  on: Handler,
  path: string,
  body: unknown,
  cookie?: string,
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
  };
  if (cookie !== undefined) headers.cookie = cookie;
  return await on(
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
    undefined,
    from("203.0.113.9"),
  );
}

async function login(on: Handler, password = PASSWORD) {
  const res = await call(on, "/api/auth/login", {
    email: "ada@example.com",
    password,
  });
  await res.body?.cancel();
  return {
    status: res.status,
    cookie: res.headers.get("set-cookie")?.split(";")[0] ?? null,
  };
}

async function isLive(on: Handler, cookie: string): Promise<boolean> {
  const res = await on(
    new Request("http://localhost/api/auth/session", { headers: { cookie } }),
    undefined,
    from("203.0.113.9"),
  );
  await res.body?.cancel();
  return res.status === 200;
}

async function liveCount(on: Handler, cookies: string[]): Promise<number> {
  let live = 0;
  for (const cookie of cookies) if (await isLive(on, cookie)) live++;
  return live;
}

pairTest(
  "refuse a sign-in whose account was disabled on the other while its password was verified",
  async ({ a, b }: Pair) => {
    const holding = holdingHasher();
    const onA = app(a, holding);
    const ada = await addUser(a, { email: "ada@example.com" });
    const { verifying, release } = holding.hold();
    const signIn = login(onA);
    await verifying;
    await b.updateUser(ada.id, { disabled: true });
    release();
    const late = await signIn;
    assert.equal(late.status, 401);
    assert.equal(late.cookie, null);
    assert.deepEqual(await b.listSessions(ada.id, Date.now()), []);
  },
);

pairTest(
  "refuse a sign-in whose password was changed on the other while it was verified",
  async ({ a, b }: Pair) => {
    const holding = holdingHasher();
    const [onA, onB] = [app(a, holding), app(b)];
    await addUser(a, { email: "ada@example.com" });
    const other = await login(onB);
    assert.equal(other.status, 200);
    const { verifying, release } = holding.hold();
    const signIn = login(onA);
    await verifying;
    const changed = await call(onB, "/api/auth/password", {
      current_password: PASSWORD,
      new_password: "a brand new passphrase",
    }, other.cookie!);
    assert.equal(changed.status, 204, await changed.text());
    release();
    const late = await signIn;
    assert.equal(late.status, 401);
    assert.equal(late.cookie, null);
  },
);

pairTest(
  "keep the cap for a sign-in whose account filled up on the other while it was verified",
  async ({ a, b }: Pair) => {
    const holding = holdingHasher();
    const [onA, onB] = [app(a, holding), app(b)];
    await addUser(a, { email: "ada@example.com" });
    const { verifying, release } = holding.hold();
    const signIn = login(onA);
    await verifying;
    const fromB: string[] = [];
    for (let i = 0; i < CAP; i++) fromB.push((await login(onB)).cookie!);
    release();
    const late = await signIn;
    assert.equal(late.status, 200);
    // The late sign-in is the newest: it lives, and it ended the oldest.
    assert.equal(await isLive(onB, late.cookie!), true);
    assert.equal(await liveCount(onB, [...fromB, late.cookie!]), CAP);
    assert.equal(await isLive(onB, fromB[0]!), false);
  },
);

pairTest(
  "answer 300 concurrent sign-ins of one account, right and wrong, across both, within the cap",
  async ({ a, b }: Pair) => {
    const [onA, onB] = [app(a), app(b)];
    await addUser(a, { email: "ada@example.com" });
    const attempts = Array.from(
      { length: 300 },
      (_, i) =>
        login(
          i % 2 === 0 ? onA : onB,
          i % 3 === 0 ? "wrong password" : PASSWORD,
        ),
    );
    const results = await Promise.all(attempts);
    const cookies: string[] = [];
    results.forEach((result, i) => {
      if (i % 3 === 0) {
        assert.equal(result.status, 401, `attempt ${i}`);
        assert.equal(result.cookie, null);
      } else {
        assert.equal(result.status, 200, `attempt ${i}`);
        cookies.push(result.cookie!);
      }
    });
    assert.equal(cookies.length, 200);
    assert.equal(await liveCount(onA, cookies), CAP);
  },
);

testEachStore(
  "sign in when the store's hint throws, and log it without the password",
  async (real) => {
    const store = instrument(real, {
      anticipateSession: () => {
        throw new Error("hint broke");
      },
    });
    const logger = memoryLogger();
    const on = gatehouseApp({
      store,
      hasher,
      logger,
      rateLimit: { maxFailures: 100 },
    }).app;
    await addUser(real, { email: "ada@example.com" });
    const ok = await login(on);
    assert.equal(ok.status, 200);
    assert.equal(await isLive(on, ok.cookie!), true);
    assert.equal((await login(on, "wrong password")).status, 401);
    const logged = logger.lines.filter((l) =>
      l.message === "anticipateSession failed"
    );
    assert.equal(logged.length, 2);
    assert.equal(JSON.stringify(logger.lines).includes(PASSWORD), false);
  },
);
