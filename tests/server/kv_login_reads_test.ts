// What a password sign-in reads (issue 31): on KV, the account by its
// address, the account lock's counters and the session's early reads
// (account, tally, roster witness) asked for in one turn go in one getMany,
// and an address this instance saw before has its early reads begun for
// the account it saw there, in that same turn. A guess only saves a read:
//
// - the operations are counted on a real KV handle, for a first and a
//   repeat sign-in, and for a wrong password and an unknown address, which
//   must make the same ones;
// - an address that gains an account on the other instance after this one
//   guessed it had none signs in to that account (all three stores);
// - counters moved by the other instance decide the next sign-in read in
//   the combined read: it is refused while they lock the address, and
//   signs in once they no longer do (all three stores).

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { addUser, PASSWORD, serve } from "../fixtures/kv.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { address, lockServer, shapeOf } from "../fixtures/lock_server.ts";
import { KvStore } from "../../server/stores/kv/mod.ts";
import { hasher } from "../fixtures/kv.ts";

const ADA = "ada@example.com";
const WINDOW = 15 * 60_000;
const LOCKED = [429, "login_rate_limited", { scope: "account" }] as const;

// A Deno KV handle that logs each operation it is asked for: `getMany:N`
// (N keys), `get`, `list`, `commit`.
function countingKv(kv: Deno.Kv): { kv: Deno.Kv; ops: string[] } {
  const ops: string[] = [];
  const counted = {
    get: (key: Deno.KvKey) => {
      ops.push("get");
      return kv.get(key);
    },
    getMany: (keys: Deno.KvKey[]) => {
      ops.push(`getMany:${keys.length}`);
      return kv.getMany(keys);
    },
    list: (selector: Deno.KvListSelector, options?: Deno.KvListOptions) => {
      ops.push("list");
      return kv.list(selector, options);
    },
    atomic: () => {
      const op = kv.atomic();
      const commit = op.commit.bind(op);
      op.commit = () => {
        ops.push("commit");
        return commit();
      };
      return op;
    },
    close: () => kv.close(),
  };
  return { kv: counted as unknown as Deno.Kv, ops };
}

Deno.test("a repeat sign-in on KV reads the account, its lock's counters and its session's early reads in one getMany", async () => {
  const raw = await Deno.openKv(":memory:");
  const { kv, ops } = countingKv(raw);
  const store = new KvStore(kv);
  await store.migrate();
  await addUser(store, { email: ADA });
  const { app, gatehouse } = gatehouseApp({ store, hasher });
  const server = serve((req, info) => app(req, undefined, info));
  // The operations of one sign-in, the work after its answer included.
  const signIn = async (email: string, password: string) => {
    ops.length = 0;
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    await res.body?.cancel();
    await gatehouse.settled();
    return { status: res.status, ops: [...ops] };
  };
  const reads = (o: string[]) => o.filter((op) => op.startsWith("getMany"));
  try {
    const first = await signIn(ADA, PASSWORD);
    assertEquals(first.status, 200);
    // The address limiter's reservation reads in a turn of its own, before
    // the handler. The address is new here: the early reads wait for the
    // account's.
    assertEquals(reads(first.ops), ["getMany:1", "getMany:6", "getMany:3"]);
    for (let i = 0; i < 3; i++) {
      const again = await signIn(ADA, PASSWORD);
      assertEquals(again.status, 200);
      // The account by its address, the lock's three naming counters, its
      // scope's count (the reservation's read) and its consecutive count,
      // the account, tally and witness: one read.
      assertEquals(reads(again.ops), ["getMany:1", "getMany:9"]);
      // One session commit, whatever the limiter's counts write.
      assertEquals(
        again.ops.filter((op) => op === "commit").length,
        first.ops.filter((op) => op === "commit").length,
      );
    }
    // A wrong password and an unknown address: the same operations, the
    // first time each address is seen here and after. (Bob's account is
    // new to this instance, like the unknown address.)
    await addUser(store, { email: "bob@example.com" });
    const wrong = [
      await signIn("bob@example.com", "wrong 1"),
      await signIn("bob@example.com", "wrong 2"),
    ];
    const unknown = [
      await signIn("nobody@example.com", PASSWORD),
      await signIn("nobody@example.com", PASSWORD),
    ];
    assertEquals(wrong.map((a) => a.status), [401, 401]);
    assertEquals(unknown.map((a) => a.status), [401, 401]);
    assertEquals(unknown[0]!.ops, wrong[0]!.ops);
    assertEquals(unknown[1]!.ops, wrong[1]!.ops);
    // As a right password's, then the failure's counts, one after the
    // other: the consecutive failures, then the window's own (so that a
    // report on any instance that finds the window full of failures finds
    // each among the consecutive ones: account_lock_hard_report_test).
    assertEquals(reads(unknown[0]!.ops), [
      "getMany:1",
      "getMany:6",
      "getMany:3",
      "getMany:1",
      "getMany:1",
    ]);
    assertEquals(reads(unknown[1]!.ops), [
      "getMany:1",
      "getMany:9",
      "getMany:1",
      "getMany:1",
    ]);
  } finally {
    await server.close();
    raw.close();
  }
});

pairTest(
  "an address that gains an account on the other instance after a sign-in guessed it had none signs in to that account",
  async ({ a, b }) => {
    const { app, gatehouse } = gatehouseApp({ store: a, hasher });
    const server = serve((req, info) => app(req, undefined, info));
    const signIn = async () => {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: ADA, password: PASSWORD }),
      });
      const body = await res.json();
      await gatehouse.settled();
      return {
        status: res.status,
        body,
        cookie: res.headers.get("set-cookie"),
      };
    };
    try {
      // Twice: the second sign-in is the one whose reads go with a guess.
      assertEquals((await signIn()).status, 401);
      assertEquals((await signIn()).status, 401);
      const ada = await addUser(b, { email: ADA });
      const signedIn = await signIn();
      assertEquals(signedIn.status, 200);
      assertEquals(signedIn.body.id, ada.id);
      const sessions = await b.listSessions(ada.id, Date.now());
      assertEquals(sessions.length, 1);
      // And again, now that the guess is the account.
      assertEquals((await signIn()).status, 200);
      assertEquals((await b.listSessions(ada.id, Date.now())).length, 2);
    } finally {
      await gatehouse.settled();
      await server.close();
    }
  },
);

pairTest(
  "counters moved by the other instance decide the next sign-in, read with its account in one turn",
  async ({ a, b }) => {
    await addUser(a, { email: ADA });
    const clock = { now: Date.now() };
    const one = lockServer(a, { clock });
    const other = lockServer(b, { clock });
    try {
      // This instance has seen the address: its next reads go together,
      // under the counter keys it used last.
      assertEquals((await one.signIn(ADA, PASSWORD)).status, 200);
      assertEquals((await one.signIn(ADA, PASSWORD)).status, 200);
      // The other locks the address with wrong guesses from ten clients.
      for (let i = 0; i < 10; i++) {
        const answer = await other.signIn(ADA, `wrong ${i}`, {
          from: address(i),
        });
        assertEquals(answer.status, 401);
      }
      const verified = one.calls.verify;
      assertEquals(
        shapeOf(await one.signIn(ADA, PASSWORD, { from: address(50) })),
        LOCKED,
      );
      assertEquals(one.calls.verify, verified, "refused before argon2");
      // Once the window ends, the address signs in again here, and a
      // completed sign-in on the other starts the count again for both.
      one.advance(WINDOW);
      assertEquals(
        (await other.signIn(ADA, PASSWORD, { from: address(51) })).status,
        200,
      );
      for (let i = 0; i < 9; i++) {
        const answer = await one.signIn(ADA, `wrong again ${i}`, {
          from: address(100 + i),
        });
        assertEquals(answer.status, 401);
      }
      assertEquals(
        (await one.signIn(ADA, PASSWORD, { from: address(200) })).status,
        200,
      );
    } finally {
      await one.close();
      await other.close();
    }
  },
);
