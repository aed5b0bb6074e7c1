// What an instance keeps of an account's sessions after its own commit at
// the cap (`Rosters`, core/rules/_session_creation.ts): while the session
// tally's version is still that commit's, its next sign-in lists nothing;
// anything another instance, a use or the sweep changed makes it list
// again or stays harmless, and the cap and the tally's count stay exact,
// on every store, also when two instances race.

import { assertEquals } from "../fixtures/assert.ts";
import { addUser } from "../fixtures/kv.ts";
import { testEachStore } from "../fixtures/stores.ts";
import type { Store } from "../../mod.ts";
import type {
  RecordStore,
  StoredSession,
  StoredTally,
} from "../../server/core/records.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import { Rosters } from "../../server/core/rules/_session_creation.ts";
import { countingLists } from "../fixtures/counting_lists.ts";

const CAP = 4;
const HOUR = 3_600_000;

// The records with the session lists an instance reads counted.
function countingSessionLists(records: RecordStore) {
  const { counted, lists } = countingLists(records);
  const sessionLists = () =>
    lists.splice(0).filter((kind) => kind === "session").length;
  return { counted, sessionLists };
}

// One instance: the rules over the shared records, its own lists counted.
function instance(records: RecordStore) {
  const { counted, sessionLists } = countingSessionLists(records);
  return { store: new RuleStore(counted) as Store, sessionLists };
}

let made = 0;
const digest = () => `digest-${++made}-${crypto.randomUUID()}`;

// Signs `userId` in on `store` at `createdAt` (expiring `ttl` later).
async function signIn(
  store: Store,
  userId: string,
  createdAt: number,
  ttl = HOUR,
): Promise<string> {
  const tokenHash = digest();
  const created = await store.createSession({
    tokenHash,
    userId,
    createdAt,
    expiresAt: createdAt + ttl,
    maxSessions: CAP,
  });
  assertEquals(created, true);
  return tokenHash;
}

// The account's stored sessions (live or not) and its tally's count.
async function stored(records: RecordStore, userId: string) {
  const sessions = (await records.list("session", "userId", userId))
    .map((found) => found.value as StoredSession);
  const [tallied] = await records.read([
    { kind: "tally", key: `sessions:${userId}` },
  ]);
  return {
    digests: new Set(sessions.map((s) => s.tokenHash)),
    count: (tallied?.value as StoredTally | undefined)?.count ?? 0,
  };
}

const records = (store: Store) => (store as RuleStore).records;

testEachStore(
  "at the cap an instance lists an account's sessions once, then knows them from its own commits; the cap and the count stay exact",
  async (underlying) => {
    const shared = records(underlying);
    const a = instance(shared);
    const ada = await addUser(a.store, { email: "ada@example.com" });
    const now = Date.now();
    const digests: string[] = [];
    for (let i = 0; i < CAP; i++) {
      digests.push(await signIn(a.store, ada.id, now + i));
    }
    assertEquals(a.sessionLists(), 0, "below the cap no list is read");
    digests.push(await signIn(a.store, ada.id, now + CAP));
    assertEquals(a.sessionLists(), 1, "the first sign-in at the cap lists");
    for (let i = CAP + 1; i < CAP + 6; i++) {
      digests.push(await signIn(a.store, ada.id, now + i));
    }
    assertEquals(a.sessionLists(), 0, "the next ones know the sessions");
    const after = await stored(shared, ada.id);
    assertEquals(after.digests, new Set(digests.slice(-CAP)));
    assertEquals(after.count, CAP);
  },
);

testEachStore(
  "what another instance or a recorded use changes makes an instance list again; the cap and the count stay exact",
  async (underlying) => {
    const shared = records(underlying);
    const a = instance(shared);
    const b = instance(shared);
    const ada = await addUser(a.store, { email: "ada@example.com" });
    const now = Date.now();
    const live: string[] = [];
    let at = now;
    const expect = async (label: string) => {
      const after = await stored(shared, ada.id);
      assertEquals(after.digests, new Set(live.slice(-CAP)), label);
      assertEquals(after.count, CAP, label);
    };
    for (let i = 0; i <= CAP; i++) {
      live.push(await signIn(a.store, ada.id, ++at));
    }
    a.sessionLists();

    // Another instance signs in: the tally moved past a's commit.
    live.push(await signIn(b.store, ada.id, ++at));
    assertEquals(b.sessionLists(), 1);
    live.push(await signIn(a.store, ada.id, ++at));
    assertEquals(a.sessionLists(), 1, "a sign-in elsewhere: listed again");
    await expect("after a sign-in elsewhere");
    live.push(await signIn(a.store, ada.id, ++at));
    assertEquals(a.sessionLists(), 0, "its own commit: known again");
    await expect("after its own commit");

    // Another instance ends a session: below the cap, nothing to list; the
    // next sign-in at the cap lists, since nothing known is current.
    const [ended] = [...(await stored(shared, ada.id)).digests]
      .filter((d) => d !== live[live.length - 1]);
    assertEquals(await b.store.deleteSession(ended!), true);
    live.splice(live.indexOf(ended!), 1);
    live.push(await signIn(a.store, ada.id, ++at));
    assertEquals(a.sessionLists(), 0, "below the cap no list is read");
    live.push(await signIn(a.store, ada.id, ++at));
    assertEquals(a.sessionLists(), 1, "an ended session: listed again");
    await expect("after a session ended elsewhere");

    // A use recorded on the session a's last commit recorded moves its
    // version off the tally's: listed again.
    await b.store.touchSession(live[live.length - 1]!, at + 1);
    live.push(await signIn(a.store, ada.id, ++at));
    assertEquals(a.sessionLists(), 1, "a recorded use: listed again");
    await expect("after a recorded use");
  },
);

testEachStore(
  "sessions the sweep removed after an instance kept them are ended again in passing, and the count stays the stored sessions'",
  async (underlying) => {
    const shared = records(underlying);
    const a = instance(shared);
    const ada = await addUser(a.store, { email: "ada@example.com" });
    const now = Date.now();
    // Short sessions to the cap, then a long one: the commit that ends the
    // first keeps three short ones and the long one, its witness.
    for (let i = 0; i < CAP; i++) await signIn(a.store, ada.id, now + i, 1_000);
    const witness = await signIn(a.store, ada.id, now + CAP);
    assertEquals(a.sessionLists(), 1);
    // The sweep (it moves no tally) removes the three, now dead.
    assertEquals(
      await a.store.deleteExpiredSessions(now + 5_000, 100),
      CAP - 1,
    );
    const fresh = await signIn(a.store, ada.id, now + 6_000);
    assertEquals(a.sessionLists(), 0, "still known: the tally did not move");
    const after = await stored(shared, ada.id);
    assertEquals(after.digests, new Set([witness, fresh]));
    assertEquals(after.count, 2);
  },
);

testEachStore(
  "two instances signing one account in at once keep the cap and the count exact",
  async (underlying) => {
    const shared = records(underlying);
    const a = instance(shared);
    const b = instance(shared);
    const ada = await addUser(a.store, { email: "ada@example.com" });
    const now = Date.now();
    // Each instance first knows the sessions from a commit of its own.
    for (let i = 0; i <= CAP; i++) await signIn(a.store, ada.id, now + i);
    await signIn(b.store, ada.id, now + CAP + 1);
    await signIn(a.store, ada.id, now + CAP + 2);
    const racing = await Promise.all(
      Array.from(
        { length: 60 },
        (_, i) =>
          signIn(i % 2 === 0 ? a.store : b.store, ada.id, now + 10, HOUR + i),
      ),
    );
    const after = await stored(shared, ada.id);
    // The sessions that end last are the ones kept.
    assertEquals(after.digests, new Set(racing.slice(-CAP)));
    assertEquals(after.count, CAP);
  },
);

Deno.test("Rosters keeps at most 256 accounts, the latest, and no account with more than 256 sessions", () => {
  const rosters = new Rosters();
  const session = (i: number) => ({ tokenHash: `d${i}` }) as StoredSession;
  for (let i = 0; i < 300; i++) rosters.keep(`u${i}`, `d${i}`, [session(i)]);
  assertEquals(rosters.size, 256);
  assertEquals(rosters.of("u0"), undefined);
  assertEquals(rosters.of("u299")?.witness, "d299");
  rosters.keep(
    "u299",
    "d",
    Array.from({ length: 257 }, (_, i) => session(i)),
  );
  assertEquals(rosters.of("u299"), undefined);
  rosters.forget("u298");
  assertEquals(rosters.size, 254);
});
