// Conformance cases for what hangs off accounts: sessions and their
// revocation, single-use links, and the limiter's counters, including their
// bounded expiry sweeps and concurrent hits.

import assert from "node:assert/strict";
import type { UserRecord } from "../store.ts";
import {
  addLink,
  addSession,
  addUser,
  allUsers,
  type Case,
  hash,
  HOUR,
  MINUTE,
  nextId,
  remainingLinks,
  tokenHash,
} from "./_conformance_helpers.ts";

const sessions: Case[] = [
  ["findSession() answers the account until the session expires", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com", role: "admin" });
    const now = Date.now();
    const token = await addSession(s, ada.id, now, now + HOUR);
    const live = { user: ada, expiresAt: now + HOUR };
    assert.deepEqual(await s.findSession(token, now), live);
    assert.deepEqual(await s.findSession(token, now + HOUR - 1), live);
    assert.equal(await s.findSession(token, now + HOUR), null);
    assert.equal(await s.findSession(tokenHash(), now), null);
  }],
  ["createSession() refuses a disabled or missing account", async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    await store.updateUser(ada.id, { disabled: true });
    const now = Date.now();
    for (const userId of [ada.id, nextId()]) {
      const token = tokenHash();
      const created = await store.createSession({
        tokenHash: token,
        userId,
        createdAt: now,
        expiresAt: now + HOUR,
      });
      assert.equal(created, false);
      assert.equal(await store.findSession(token, now), null);
    }
  }],
  ["updateUser() disabling revokes every session, for good", async (store) => {
    const ada = await addUser(store, { email: "ada@example.com" });
    const bob = await addUser(store, { email: "bob@example.com" });
    const now = Date.now();
    const adas = [
      await addSession(store, ada.id, now),
      await addSession(store, ada.id, now),
    ];
    const bobs = await addSession(store, bob.id, now);
    await store.updateUser(ada.id, { disabled: true });
    for (const token of adas) {
      assert.equal(await store.findSession(token, now), null);
    }
    await store.updateUser(ada.id, { disabled: false });
    for (const token of adas) {
      assert.equal(await store.findSession(token, now), null);
    }
    assert.notEqual(await store.findSession(bobs, now), null);
    const fresh = await addSession(store, ada.id, now);
    assert.equal((await store.findSession(fresh, now))?.user.id, ada.id);
  }],
  [
    "deleteSession() removes one session; an absent one is no error",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const gone = await addSession(s, ada.id, now);
      const kept = await addSession(s, ada.id, now);
      await s.deleteSession(gone);
      await s.deleteSession(gone);
      await s.deleteSession(tokenHash());
      assert.equal(await s.findSession(gone, now), null);
      assert.notEqual(await s.findSession(kept, now), null);
    },
  ],
  [
    "deleteExpiredSessions() removes expired sessions only, at most limit",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const expired = [];
      for (const ago of [3, 2, 1, 0]) {
        expired.push(
          await addSession(s, ada.id, now - HOUR, now - ago * MINUTE),
        );
      }
      const live = await addSession(s, ada.id, now - HOUR, now + 1);
      assert.equal(await s.deleteExpiredSessions(now, 3), 3);
      assert.equal(await s.deleteExpiredSessions(now, 3), 1);
      assert.equal(await s.deleteExpiredSessions(now, 3), 0);
      // Deleted, not just expired: an earlier clock would still see them.
      for (const token of expired) {
        assert.equal(await s.findSession(token, now - 2 * HOUR + 1), null);
      }
      assert.notEqual(await s.findSession(live, now), null);
    },
  ],
];

const links: Case[] = [
  ["acceptInvitation() creates the invited account, once", async (store) => {
    const now = Date.now();
    const token = await addLink(store, "invitation", {
      email: "New@Example.com",
      role: "member",
      expiresAt: now + HOUR,
    });
    const id = nextId();
    const accepted = await store.acceptInvitation(token, {
      userId: id,
      passwordHash: hash("chosen"),
      now,
    });
    const expected: UserRecord = {
      id,
      email: "New@Example.com",
      name: "Invited Person",
      role: "member",
      disabled: false,
      createdAt: now,
    };
    assert.deepEqual(accepted, expected);
    assert.deepEqual(await store.credentialsByEmail("new@example.com"), {
      user: expected,
      passwordHash: hash("chosen"),
    });
    const again = await store.acceptInvitation(token, {
      userId: nextId(),
      passwordHash: hash("again"),
      now,
    });
    assert.equal(again, null);
    assert.equal(await remainingLinks(store), 0);
  }],
  [
    "acceptInvitation() refuses an expired, unknown or reset link",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const expired = await addLink(s, "invitation", {
        email: "x@example.com",
        expiresAt: now,
      });
      const reset = await addLink(s, "reset", {
        email: ada.email,
        userId: ada.id,
        expiresAt: now + HOUR,
      });
      for (const token of [expired, reset, tokenHash()]) {
        const accepted = await s.acceptInvitation(token, {
          userId: nextId(),
          passwordHash: hash("p"),
          now,
        });
        assert.equal(accepted, null);
      }
      assert.deepEqual(await allUsers(s), [ada]);
      // The reset link was not spent by the wrong flow.
      const confirmed = await s.confirmReset(reset, {
        passwordHash: hash("p"),
        now,
      });
      assert.equal(confirmed?.id, ada.id);
    },
  ],
  [
    "acceptInvitation() spends the link when the address has an account",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const token = await addLink(s, "invitation", {
        email: "ADA@example.com",
        expiresAt: now + HOUR,
      });
      const accepted = await s.acceptInvitation(token, {
        userId: nextId(),
        passwordHash: hash("p"),
        now,
      });
      assert.equal(accepted, null);
      assert.deepEqual(await allUsers(s), [ada]);
      assert.equal(await remainingLinks(s), 0);
    },
  ],
  ["acceptInvitation() lets one of two racing acceptances win", async (s) => {
    const now = Date.now();
    const token = await addLink(s, "invitation", {
      email: "new@example.com",
      expiresAt: now + HOUR,
    });
    const accept = () =>
      s.acceptInvitation(token, {
        userId: nextId(),
        passwordHash: hash("p"),
        now,
      });
    const results = await Promise.all([accept(), accept(), accept()]);
    assert.equal(results.filter((user) => user !== null).length, 1);
    assert.equal((await allUsers(s)).length, 1);
  }],
  [
    "confirmReset() sets the password, revokes sessions and works once",
    async (s) => {
      const ada = await addUser(s, {
        email: "ada@example.com",
        passwordHash: hash("old"),
      });
      const now = Date.now();
      const session = await addSession(s, ada.id, now);
      const token = await addLink(s, "reset", {
        email: ada.email,
        userId: ada.id,
        expiresAt: now + HOUR,
      });
      const confirm = (password: string) =>
        s.confirmReset(token, { passwordHash: hash(password), now });
      assert.deepEqual(await confirm("new"), ada);
      const stored = await s.credentialsByEmail(ada.email);
      assert.equal(stored?.passwordHash, hash("new"));
      assert.equal(await s.findSession(session, now), null);
      const fresh = await addSession(s, ada.id, now);
      assert.notEqual(await s.findSession(fresh, now), null);
      assert.equal(await confirm("again"), null);
      const after = await s.credentialsByEmail(ada.email);
      assert.equal(after?.passwordHash, hash("new"));
    },
  ],
  [
    "confirmReset() refuses dead links and spends one whose account is gone",
    async (s) => {
      const ada = await addUser(s, {
        email: "ada@example.com",
        passwordHash: hash("old"),
      });
      const now = Date.now();
      const expired = await addLink(s, "reset", {
        email: ada.email,
        userId: ada.id,
        expiresAt: now,
      });
      const invitation = await addLink(s, "invitation", {
        email: "x@example.com",
        expiresAt: now + HOUR,
      });
      const confirm = (token: string) =>
        s.confirmReset(token, { passwordHash: hash("new"), now });
      for (const token of [expired, invitation, tokenHash()]) {
        assert.equal(await confirm(token), null);
      }
      const stored = await s.credentialsByEmail(ada.email);
      assert.equal(stored?.passwordHash, hash("old"));
      const orphan = await addLink(s, "reset", {
        email: "gone@example.com",
        userId: nextId(),
        expiresAt: now + HOUR,
      });
      assert.equal(await confirm(orphan), null);
      // Left: the expired reset link and the invitation, not the orphan.
      assert.equal(await remainingLinks(s), 2);
    },
  ],
  [
    "deleteExpiredLinks() removes expired links only, at most limit",
    async (s) => {
      const now = Date.now();
      for (const ago of [2, 1, 0]) {
        await addLink(s, "invitation", {
          email: `x${ago}@example.com`,
          expiresAt: now - ago * MINUTE,
        });
      }
      const live = await addLink(s, "invitation", {
        email: "live@example.com",
        expiresAt: now + 1,
      });
      assert.equal(await s.deleteExpiredLinks(now, 2), 2);
      assert.equal(await s.deleteExpiredLinks(now, 2), 1);
      assert.equal(await s.deleteExpiredLinks(now, 2), 0);
      const accepted = await s.acceptInvitation(live, {
        userId: nextId(),
        passwordHash: hash("p"),
        now,
      });
      assert.equal(accepted?.email, "live@example.com");
    },
  ],
];

const counters: Case[] = [
  [
    "hitCounter() counts within a window and starts a new one after",
    async (s) => {
      const now = Date.now();
      const key = "login:ip:a";
      assert.deepEqual(await s.hitCounter(key, now, MINUTE), {
        count: 1,
        resetAt: now + MINUTE,
      });
      assert.deepEqual(await s.hitCounter(key, now + 10, MINUTE), {
        count: 2,
        resetAt: now + MINUTE,
      });
      assert.deepEqual(await s.hitCounter("login:ip:b", now + 10, MINUTE), {
        count: 1,
        resetAt: now + 10 + MINUTE,
      });
      assert.deepEqual(await s.readCounter(key, now + MINUTE - 1), {
        count: 2,
        resetAt: now + MINUTE,
      });
      // The window ends at resetAt: the next hit starts a fresh one.
      const later = now + MINUTE;
      const fresh = { count: 1, resetAt: later + MINUTE };
      assert.deepEqual(await s.hitCounter(key, later, MINUTE), fresh);
      assert.deepEqual(await s.readCounter(key, later), fresh);
    },
  ],
  [
    "readCounter() answers null for an unknown key or an ended window",
    async (s) => {
      const now = Date.now();
      await s.hitCounter("k", now, MINUTE);
      assert.equal(await s.readCounter("other", now), null);
      assert.equal(await s.readCounter("k", now + MINUTE), null);
    },
  ],
  [
    "deleteExpiredCounters() removes ended windows only, at most limit",
    async (s) => {
      const now = Date.now();
      for (const key of ["a", "b", "c"]) {
        await s.hitCounter(key, now - 2 * MINUTE, MINUTE);
      }
      await s.hitCounter("live", now - MINUTE + 1, MINUTE);
      assert.equal(await s.deleteExpiredCounters(now, 2), 2);
      assert.equal(await s.deleteExpiredCounters(now, 2), 1);
      assert.equal(await s.deleteExpiredCounters(now, 2), 0);
      for (const key of ["a", "b", "c"]) {
        assert.equal(await s.readCounter(key, now - 2 * MINUTE), null);
      }
      assert.deepEqual(await s.readCounter("live", now), {
        count: 1,
        resetAt: now + 1,
      });
    },
  ],
  ["hitCounter() counts parallel hits exactly", async (store) => {
    const now = Date.now();
    const hits = await Promise.all(
      Array.from(
        { length: 20 },
        () => store.hitCounter("login:ip:x", now, MINUTE),
      ),
    );
    const counts = hits.map((hit) => hit.count).sort((a, b) => a - b);
    assert.deepEqual(counts, Array.from({ length: 20 }, (_, i) => i + 1));
    assert.deepEqual(await store.readCounter("login:ip:x", now), {
      count: 20,
      resetAt: now + MINUTE,
    });
  }],
];

/** The session, link and counter cases, in the order they are registered. */
export const RECORD_CASES: readonly Case[] = [
  ...sessions,
  ...links,
  ...counters,
];
