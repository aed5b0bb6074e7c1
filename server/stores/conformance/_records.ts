// Conformance cases for what hangs off accounts: sessions and their
// revocation, and single-use links, including their bounded expiry sweeps.

import { isUuid } from "../../core/_crypto.ts";
import assert from "node:assert/strict";
import type { UserRecord } from "../../core/store.ts";
import {
  acceptance,
  addLink,
  addSession,
  addUser,
  allUsers,
  type Case,
  hash,
  HOUR,
  MINUTE,
  nextId,
  NO_FACTORS,
  passkeyOf,
  remainingLinks,
  tokenHash,
} from "./_helpers.ts";

const sessions: Case[] = [
  [
    "createSession() with expectedFactorVersion refuses once a factor was removed; findSession() answers the factors",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const passkey = passkeyOf(ada.id);
      await s.addPasskey(passkey, 10);
      const { factorVersion } = (await s.accountFactors(ada.id))!;
      const bound = (version: number) =>
        s.createSession({
          tokenHash: tokenHash(),
          userId: ada.id,
          createdAt: now,
          expiresAt: now + HOUR,
          expectedFactorVersion: version,
        });
      const token = tokenHash();
      assert.equal(
        await s.createSession({
          tokenHash: token,
          userId: ada.id,
          createdAt: now,
          expiresAt: now + HOUR,
          expectedFactorVersion: factorVersion,
        }),
        true,
      );
      assert.deepEqual((await s.findSession(token, now))?.factors, {
        ...NO_FACTORS,
        passkeyCount: 1,
        factorVersion,
      });
      assert.equal(await s.removePasskey(ada.id, passkey.id), true);
      assert.equal(await bound(factorVersion), false);
      assert.equal(await bound(factorVersion + 1), true);
      assert.deepEqual((await s.findSession(token, now))?.factors, {
        ...NO_FACTORS,
        factorVersion: factorVersion + 1,
      });
    },
  ],
  [
    "createSession() withoutSecondFactor refuses while the account has one",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const passwordAlone = () =>
        s.createSession({
          tokenHash: tokenHash(),
          userId: ada.id,
          createdAt: now,
          expiresAt: now + HOUR,
          withoutSecondFactor: true,
        });
      assert.equal(await passwordAlone(), true);
      const passkey = passkeyOf(ada.id);
      await s.addPasskey(passkey, 10);
      assert.equal(await passwordAlone(), false);
      assert.equal(await s.removePasskey(ada.id, passkey.id), true);
      assert.equal(await passwordAlone(), true);
    },
  ],
  ["findSession() answers the account until the session expires", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com", role: "admin" });
    const now = Date.now();
    const token = await addSession(s, ada.id, now, now + HOUR);
    const found = await s.findSession(token, now);
    assert.ok(found !== null && isUuid(found.id), "a session has a UUID");
    const live = {
      user: ada,
      id: found.id,
      createdAt: now,
      expiresAt: now + HOUR,
      lastSeenAt: now,
      authenticatedAt: now,
      generation: 0,
      factors: NO_FACTORS,
    };
    assert.deepEqual(found, live);
    assert.deepEqual(await s.findSession(token, now + HOUR - 1), live);
    assert.equal(await s.findSession(token, now + HOUR), null);
    assert.equal(await s.findSession(tokenHash(), now), null);
    // A session issued after every session ended carries the new generation
    // (what an administrator's changes are bound to).
    await s.revokeUserSessions(ada.id, {});
    const later = await addSession(s, ada.id, now, now + HOUR);
    assert.equal((await s.findSession(later, now))?.generation, 1);
  }],
  [
    "findSession() given the account the token names answers its session, and null for a session of another account",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const now = Date.now();
      const adas = await addSession(s, ada.id, now);
      assert.equal((await s.findSession(adas, now, ada.id))?.user.id, ada.id);
      assert.equal(await s.findSession(adas, now, bob.id), null);
      assert.equal(await s.findSession(adas, now, nextId()), null);
      assert.equal(await s.findSession(tokenHash(), now, ada.id), null);
      // Many at once, of both accounts and of none (the stores read
      // concurrent checks together): each answers its own.
      const bobs = await addSession(s, bob.id, now);
      const asked = Array.from({ length: 300 }, (_, i) => {
        const [token, named, owner] = [
          [adas, ada.id, ada.id],
          [bobs, bob.id, bob.id],
          [adas, bob.id, null],
          [bobs, ada.id, null],
          [tokenHash(), ada.id, null],
        ][i % 5]!;
        return { token, named, owner };
      });
      const found = await Promise.all(
        asked.map(({ token, named }) => s.findSession(token!, now, named!)),
      );
      assert.deepEqual(
        found.map((f) => f?.user.id ?? null),
        asked.map((a) => a.owner),
      );
    },
  ],
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
    // The language of the person's mail, from their browser (§14).
    const first = { ...acceptance(now), locale: "es" };
    const accepted = await store.acceptInvitation(token, first);
    const expected: UserRecord = {
      id: first.userId,
      email: "New@Example.com",
      name: "Invited Person",
      role: "member",
      disabled: false,
      createdAt: now,
      locale: "es",
      localeChosen: false,
    };
    assert.deepEqual(accepted, expected);
    assert.deepEqual(await store.credentialsByEmail("new@example.com"), {
      user: expected,
      passwordHash: hash("chosen"),
      generation: 0,
      factors: NO_FACTORS,
    });
    // The account's first session was recorded in the same commit.
    const session = await store.findSession(first.session.tokenHash, now);
    assert.deepEqual(session?.user, expected);
    assert.equal(session?.expiresAt, now + HOUR);
    assert.equal(session?.authenticatedAt, now);
    const again = await store.acceptInvitation(token, acceptance(now));
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
        assert.equal(await s.acceptInvitation(token, acceptance(now)), null);
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
      const accepted = await s.acceptInvitation(token, acceptance(now));
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
    const accept = () => s.acceptInvitation(token, acceptance(now));
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
      const accepted = await s.acceptInvitation(live, acceptance(now));
      assert.equal(accepted?.email, "live@example.com");
    },
  ],
];

/** The session and link cases, in the order they are registered. */
export const RECORD_CASES: readonly Case[] = [
  ...sessions,
  ...links,
];
