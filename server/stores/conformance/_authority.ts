// Conformance cases for the authority of credentials where they are spent
// (DESIGN.md §5): sessions bound to the generation their password was
// verified under and capped per account, reset links bound to the
// generation they were issued under, invitations bound to their inviter's
// authority, the first-run link to an empty store, and the cheap lookup
// that refuses dead links before any hashing.

import assert from "node:assert/strict";
import type { NewSession, Store } from "../../core/store.ts";
import {
  acceptance,
  addLink,
  addSession,
  addUser,
  allUsers,
  type Case,
  hash,
  HOUR,
  live,
  nextId,
  tokenHash,
} from "./_helpers.ts";

const sessionOf = (
  userId: string,
  now: number,
  fields: Partial<NewSession> = {},
): NewSession => ({
  tokenHash: tokenHash(),
  userId,
  createdAt: now,
  expiresAt: now + HOUR,
  ...fields,
});

// `count` sign-ins of one account at once, each with a cap of `cap` (and
// after `before`, when given); how many of their sessions are live after.
async function raceForCap(
  s: Store,
  userId: string,
  count: number,
  cap: number,
  before: (userId: string) => void = () => {},
): Promise<number> {
  const now = Date.now();
  const all = Array.from(
    { length: count },
    (_, i) =>
      sessionOf(userId, now, { expiresAt: now + HOUR + i, maxSessions: cap }),
  );
  const created = await Promise.all(all.map((session) => {
    before(userId);
    return s.createSession(session);
  }));
  assert.equal(created.every(Boolean), true);
  let alive = 0;
  for (const session of all) {
    if (await live(s, session.tokenHash, now)) alive++;
  }
  return alive;
}

const sessions: Case[] = [
  [
    "createSession() refuses a generation that moved since the password was verified",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const read = await s.credentialsByEmail("ada@example.com");
      const verified = { expectedGeneration: read!.generation };
      const reset = await addLink(s, "reset", {
        email: ada.email,
        userId: ada.id,
        generation: read!.generation,
        expiresAt: now + HOUR,
      });
      assert.notEqual(
        await s.confirmReset(reset, { passwordHash: hash("new"), now }),
        null,
      );
      const late = sessionOf(ada.id, now, verified);
      assert.equal(await s.createSession(late), false);
      assert.equal(await live(s, late.tokenHash, now), false);
      // A rehash on sign-in is not a new credential: it moves nothing.
      const again = await s.credentialsByEmail("ada@example.com");
      await s.replacePasswordHash(ada.id, hash("new"), hash("rehashed"));
      const fresh = sessionOf(ada.id, now, {
        expectedGeneration: again!.generation,
      });
      assert.equal(await s.createSession(fresh), true);
      assert.equal(await live(s, fresh.tokenHash, now), true);
      // A disable and re-enable moves it too.
      await s.updateUser(ada.id, { disabled: true });
      await s.updateUser(ada.id, { disabled: false });
      const stale = sessionOf(ada.id, now, {
        expectedGeneration: again!.generation,
      });
      assert.equal(await s.createSession(stale), false);
    },
  ],
  [
    "createSession() with maxSessions ends the sessions that end first",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const now = Date.now();
      const tokens: string[] = [];
      for (let i = 0; i < 5; i++) {
        const session = sessionOf(ada.id, now + i, { maxSessions: 3 });
        assert.equal(await s.createSession(session), true);
        tokens.push(session.tokenHash);
      }
      const bobs = await addSession(s, bob.id, now);
      const alive = [];
      for (const token of tokens) alive.push(await live(s, token, now + 10));
      assert.deepEqual(alive, [false, false, true, true, true]);
      assert.equal(await live(s, bobs, now + 10), true);
      // Expired sessions do not count against the cap.
      const later = now + HOUR + 3;
      const next = sessionOf(ada.id, later, { maxSessions: 3 });
      assert.equal(await s.createSession(next), true);
      assert.equal(await live(s, tokens[4]!, later), true);
      assert.equal(await live(s, next.tokenHash, later), true);
    },
  ],
  [
    "createSession() at the cap ends idled-out sessions before one in use",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const cap = { maxSessions: 3 };
      // Three sessions fill the cap; they end in this order.
      const [first, second, third] = [0, 1, 2].map((i) =>
        sessionOf(ada.id, now, { ...cap, expiresAt: now + 10 * HOUR + i })
      );
      for (const session of [first!, second!, third!]) {
        assert.equal(await s.createSession(session), true);
      }
      // At the cap, with nothing idle: the one that ends first makes room.
      // This commit lists the sessions, and an instance may keep that list,
      // in which `second` stays last seen at `now`.
      const fourth = sessionOf(ada.id, now + 1, {
        ...cap,
        expiresAt: now + 10 * HOUR + 3,
        idleCutoff: now + 1 - HOUR,
      });
      assert.equal(await s.createSession(fourth), true);
      assert.equal(await live(s, first!.tokenHash, now + 1), false);
      // Two hours on, with an idle timeout of one: `second` was used a
      // moment ago, `third` and `fourth` idled out. The new session ends
      // the two unused ones and keeps `second`, though it would end first.
      const later = now + 2 * HOUR;
      await s.touchSession(second!.tokenHash, later);
      const fifth = sessionOf(ada.id, later, {
        ...cap,
        expiresAt: later + 10 * HOUR,
        idleCutoff: later - HOUR,
      });
      assert.equal(await s.createSession(fifth), true);
      assert.equal(await live(s, second!.tokenHash, later), true);
      assert.equal(await live(s, fifth.tokenHash, later), true);
      assert.equal(await live(s, third!.tokenHash, later), false);
      assert.equal(await live(s, fourth.tokenHash, later), false);
      // The cap now counts the two in use: one more fits, and nothing ends.
      const sixth = sessionOf(ada.id, later + 1, {
        ...cap,
        expiresAt: later + 10 * HOUR,
        idleCutoff: later + 1 - HOUR,
      });
      assert.equal(await s.createSession(sixth), true);
      for (const session of [second!, fifth, sixth]) {
        assert.equal(await live(s, session.tokenHash, later + 1), true);
      }
    },
  ],
  [
    "createSession() keeps the cap under 300 parallel sign-ins of one account",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      assert.equal(await raceForCap(s, ada.id, 300, 50), 50);
    },
  ],
  [
    "createSession() after anticipateSession() decides on what holds when it commits",
    async (s) => {
      // The hint is optional; without it every step below still holds.
      const anticipate = (id: string) => s.anticipateSession?.(id);
      const ghost = nextId();
      anticipate(ghost);
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      assert.equal(await s.userById(ghost), null);
      assert.deepEqual(await s.listSessions(ghost, now), []);
      // A reset lands between the hint and the commit.
      const read = await s.credentialsByEmail("ada@example.com");
      anticipate(ada.id);
      const reset = await addLink(s, "reset", {
        email: ada.email,
        userId: ada.id,
        generation: read!.generation,
        expiresAt: now + HOUR,
      });
      await s.confirmReset(reset, { passwordHash: hash("new"), now });
      const late = sessionOf(ada.id, now, {
        expectedGeneration: read!.generation,
      });
      assert.equal(await s.createSession(late), false);
      assert.equal(await live(s, late.tokenHash, now), false);
      // A disable lands between the hint and the commit.
      anticipate(ada.id);
      await s.updateUser(ada.id, { disabled: true });
      assert.equal(await s.createSession(sessionOf(ada.id, now)), false);
      await s.updateUser(ada.id, { disabled: false });
      // 100 sign-ins, each hinted, racing for a cap of 20.
      assert.equal(await raceForCap(s, ada.id, 100, 20, anticipate), 20);
    },
  ],
];

const resets: Case[] = [
  [
    "confirmReset() kills the account's other reset links",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const issue = () =>
        addLink(s, "reset", {
          email: ada.email,
          userId: ada.id,
          generation: 0,
          expiresAt: now + HOUR,
        });
      const [first, second] = [await issue(), await issue()];
      assert.equal(
        (await s.confirmReset(first, { passwordHash: hash("one"), now }))?.id,
        ada.id,
      );
      assert.equal(
        await s.confirmReset(second, { passwordHash: hash("two"), now }),
        null,
      );
      const stored = await s.credentialsByEmail("ada@example.com");
      assert.equal(stored?.passwordHash, hash("one"));
    },
  ],
  [
    "confirmReset() refuses a link issued before a disable, also after re-enabling",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const link = () =>
        addLink(s, "reset", {
          email: ada.email,
          userId: ada.id,
          generation: 0,
          expiresAt: now + HOUR,
        });
      const whileDisabled = await link();
      const afterEnable = await link();
      await s.updateUser(ada.id, { disabled: true });
      const confirm = (token: string) =>
        s.confirmReset(token, { passwordHash: hash("new"), now });
      assert.equal(await confirm(whileDisabled), null);
      await s.updateUser(ada.id, { disabled: false });
      assert.equal(await confirm(afterEnable), null);
      const stored = await s.credentialsByEmail("ada@example.com");
      assert.equal(stored?.passwordHash, hash("initial"));
    },
  ],
  [
    "findLink() answers a live link without spending it, and nothing else",
    async (s) => {
      const now = Date.now();
      const token = await addLink(s, "invitation", {
        email: "new@example.com",
        expiresAt: now + HOUR,
      });
      const expired = await addLink(s, "reset", {
        email: "new@example.com",
        expiresAt: now,
      });
      const found = await s.findLink(token, "invitation", now);
      assert.equal(found?.tokenHash, token);
      assert.equal(found?.emailKey, "new@example.com");
      assert.equal((await s.findLink(token, "invitation", now))?.id, found?.id);
      assert.equal(await s.findLink(token, "reset", now), null);
      assert.equal(await s.findLink(expired, "reset", now), null);
      assert.equal(await s.findLink(tokenHash(), "invitation", now), null);
      assert.notEqual(await s.acceptInvitation(token, acceptance(now)), null);
      assert.equal(await s.findLink(token, "invitation", now), null);
    },
  ],
];

const invitations: Case[] = [
  [
    "acceptInvitation() needs the inviter enabled and holding a granting role",
    async (s) => {
      const owner = await addUser(s, { email: "o@example.com", role: "admin" });
      const now = Date.now();
      const invite = (email: string) =>
        addLink(s, "invitation", {
          email,
          role: "admin",
          invitedBy: owner.id,
          expiresAt: now + HOUR,
        });
      const granters = { granters: ["admin"] };
      const wrongRole = await invite("a@example.com");
      assert.equal(
        await s.acceptInvitation(
          wrongRole,
          acceptance(now, { granters: ["owner"] }),
        ),
        null,
      );
      const whileDisabled = await invite("b@example.com");
      await s.updateUser(owner.id, { disabled: true });
      assert.equal(
        await s.acceptInvitation(whileDisabled, acceptance(now, granters)),
        null,
      );
      await s.updateUser(owner.id, { disabled: false });
      // Spent by the refusals: re-enabling revives neither.
      for (const token of [wrongRole, whileDisabled]) {
        assert.equal(await s.acceptInvitation(token, acceptance(now)), null);
      }
      const good = await invite("c@example.com");
      assert.equal(
        (await s.acceptInvitation(good, acceptance(now, granters)))?.email,
        "c@example.com",
      );
      assert.deepEqual(
        (await allUsers(s)).map((u) => u.email),
        ["o@example.com", "c@example.com"],
      );
    },
  ],
  [
    "updateUser() with granters ends the invitations the new role may not grant, after the role change",
    async (s) => {
      const owner = await addUser(s, { email: "o@example.com", role: "admin" });
      const now = Date.now();
      const invite = (email: string, role: string) =>
        addLink(s, "invitation", {
          email,
          role,
          invitedBy: owner.id,
          expiresAt: now + HOUR,
        });
      await invite("a@example.com", "admin");
      await invite("m@example.com", "member");
      // admin grants every role, support only member.
      const granters = (role: string) =>
        Promise.resolve(role === "member" ? ["admin", "support"] : ["admin"]);
      const pending = async () =>
        (await s.listInvitations(now)).map((link) => link.email).sort();
      await s.updateUser(owner.id, { role: "support", granters });
      assert.deepEqual(await pending(), ["m@example.com"]);
      // Given back its role, the account has its dead invitation no more.
      await s.updateUser(owner.id, { role: "admin", granters });
      assert.deepEqual(await pending(), ["m@example.com"]);
      // Without granters a role change ends none.
      await s.updateUser(owner.id, { role: "member" });
      assert.deepEqual(await pending(), ["m@example.com"]);
    },
  ],
  [
    "acceptInvitation() refuses an invitation whose inviter is gone",
    async (s) => {
      await addUser(s, { email: "someone@example.com" });
      const now = Date.now();
      const token = await addLink(s, "invitation", {
        email: "a@example.com",
        invitedBy: "0190f0a0-0000-7000-8000-00000000dead",
        expiresAt: now + HOUR,
      });
      assert.equal(await s.acceptInvitation(token, acceptance(now)), null);
    },
  ],
  [
    "acceptInvitation() of a first-run link works only on a store with no account",
    async (s) => {
      const now = Date.now();
      const firstRun = await addLink(s, "invitation", {
        email: "first@example.com",
        role: "admin",
        expiresAt: now + HOUR,
      });
      await addUser(s, { email: "made-another-way@example.com" });
      assert.equal(await s.acceptInvitation(firstRun, acceptance(now)), null);
      assert.equal((await allUsers(s)).length, 1);
    },
  ],
  [
    "acceptInvitation() of three first-run links at once makes one account",
    async (s) => {
      const now = Date.now();
      const links = [];
      for (const name of ["a", "b", "c"]) {
        links.push(
          await addLink(s, "invitation", {
            email: `${name}@example.com`,
            expiresAt: now + HOUR,
          }),
        );
      }
      const results = await Promise.all(
        links.map((token) => s.acceptInvitation(token, acceptance(now))),
      );
      assert.equal(results.filter((user) => user !== null).length, 1);
      assert.equal((await allUsers(s)).length, 1);
    },
  ],
];

/** The authority cases, in the order they are registered. */
export const AUTHORITY_CASES: readonly Case[] = [
  ...sessions,
  ...resets,
  ...invitations,
];
