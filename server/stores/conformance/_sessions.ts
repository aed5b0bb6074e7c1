// Conformance cases of sessions (DESIGN.md §8): public ids and client
// fields, last-seen and re-authentication times, listing newest first,
// ending one (own only), all but one, or all at once (the generation), and
// a password change bound to its credential.

import assert from "node:assert/strict";
import { isUuid } from "../../core/_crypto.ts";
import type { Store } from "../../core/store.ts";
import {
  addSession,
  addUser,
  type Case,
  hash,
  HOUR,
  live,
  MINUTE,
  nextId,
  refused,
  tokenHash,
} from "./_helpers.ts";

async function sessionOf(
  store: Store,
  userId: string,
  createdAt: number,
  fields: { ip?: string; userAgent?: string } = {},
): Promise<string> {
  const token = tokenHash();
  const created = await store.createSession({
    tokenHash: token,
    id: nextId(),
    userId,
    createdAt,
    expiresAt: createdAt + HOUR,
    ...fields,
  });
  assert.equal(created, true);
  return token;
}

/** The session cases. */
export const SESSION_CASES: readonly Case[] = [
  [
    "listSessions() lists live sessions newest first, with their client",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const now = Date.now();
      await sessionOf(s, ada.id, now - 2 * HOUR); // expired
      await sessionOf(s, ada.id, now - MINUTE, {
        ip: "192.0.2.1",
        userAgent: "Firefox on Linux",
      });
      await sessionOf(s, ada.id, now, {
        ip: "192.0.2.2",
        userAgent: "Chrome on macOS",
      });
      await sessionOf(s, bob.id, now);
      const list = await s.listSessions(ada.id, now);
      assert.deepEqual(list.map((x) => [x.ip, x.userAgent]), [
        ["192.0.2.2", "Chrome on macOS"],
        ["192.0.2.1", "Firefox on Linux"],
      ]);
      assert.ok(list.every((x) => isUuid(x.id)));
      assert.equal(list[1]!.lastSeenAt, now - MINUTE);
      assert.equal(list[1]!.authenticatedAt, now - MINUTE);
      assert.deepEqual(await s.listSessions(nextId(), now), []);
    },
  ],
  [
    "touchSession() moves lastSeenAt forward only, and never revives a session",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const token = await sessionOf(s, ada.id, now);
      await s.touchSession(token, now + MINUTE);
      await s.touchSession(token, now + 30_000);
      assert.equal((await s.findSession(token, now))?.lastSeenAt, now + MINUTE);
      await s.deleteSession(token);
      await s.touchSession(token, now + 2 * MINUTE);
      assert.equal(await live(s, token, now), false);
      assert.deepEqual(await s.listSessions(ada.id, now), []);
    },
  ],
  [
    "deleteSessionById() ends only a live session of the account's own",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const now = Date.now();
      const ending = { now, idleCutoff: now - 10 * MINUTE };
      const idOf = async (token: string, at: number) =>
        (await s.findSession(token, at))!.id;
      const token = await sessionOf(s, ada.id, now);
      const id = await idOf(token, now);
      assert.equal(await s.deleteSessionById(bob.id, id, ending), false);
      assert.equal(await live(s, token, now), true);
      assert.equal(await s.deleteSessionById(ada.id, id, ending), true);
      assert.equal(await live(s, token, now), false);
      assert.equal(await s.deleteSessionById(ada.id, id, ending), false);
      // Dead already: expired, or last seen at the idle cutoff.
      const expired = await sessionOf(s, ada.id, now - 2 * HOUR);
      const idle = await sessionOf(s, ada.id, ending.idleCutoff);
      const expiredId = await idOf(expired, now - 2 * HOUR);
      const idleId = await idOf(idle, now);
      assert.equal(await s.deleteSessionById(ada.id, expiredId, ending), false);
      assert.equal(await s.deleteSessionById(ada.id, idleId, ending), false);
      assert.equal(await live(s, idle, now), true, "left as it was");
      // The cutoff is the caller's: with a longer idle timeout it is live.
      const longer = { now, idleCutoff: now - HOUR };
      assert.equal(await s.deleteSessionById(ada.id, idleId, longer), true);
    },
  ],
  [
    "deleteOtherSessions() keeps one session of the account and no other",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      const now = Date.now();
      const tokens = [];
      for (let i = 0; i < 12; i++) tokens.push(await sessionOf(s, ada.id, now));
      const keep = tokens.pop()!;
      const bobs = await sessionOf(s, bob.id, now);
      assert.equal(await s.deleteOtherSessions(ada.id, keep), 11);
      for (const token of tokens) {
        assert.equal(
          await live(s, token, now),
          false,
        );
      }
      assert.equal(await live(s, keep, now), true);
      assert.equal(await live(s, bobs, now), true);
    },
  ],
  [
    "deleteOtherSessions() writes its events with a deletion, and none without one",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const keep = await sessionOf(s, ada.id, now);
      const revoked = (n: number) => ({
        id: nextId(),
        type: "session.revoked" as const,
        at: now,
        actorId: ada.id,
        actorEmail: ada.email,
        targetId: ada.id,
        targetEmail: ada.email,
        ip: "192.0.2.1",
        userAgent: "Chrome on Linux",
        detail: { n },
      });
      const stored = async () =>
        (await s.listAuditEvents({ limit: 100 })).events.map((e) => e.detail);
      // Nothing else to end: no event, however often it is asked.
      for (let i = 0; i < 3; i++) {
        assert.equal(
          await s.deleteOtherSessions(ada.id, keep, { events: [revoked(0)] }),
          0,
        );
      }
      assert.deepEqual(await stored(), []);
      await sessionOf(s, ada.id, now);
      assert.equal(
        await s.deleteOtherSessions(ada.id, keep, { events: [revoked(1)] }),
        1,
      );
      assert.deepEqual(await stored(), [{ n: 1 }]);
      assert.equal(await live(s, keep, now), true);
    },
  ],
  [
    "revokeUserSessions() ends every session at once under the reach rule",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com", role: "admin" });
      const now = Date.now();
      const tokens = [];
      for (let i = 0; i < 5; i++) tokens.push(await addSession(s, ada.id, now));
      await refused(
        s.revokeUserSessions(ada.id, { reachableRoles: ["member"] }),
        "role_beyond_reach",
      );
      assert.equal(await live(s, tokens[0]!, now), true);
      await refused(s.revokeUserSessions(nextId(), {}), "user_not_found");
      const user = await s.revokeUserSessions(ada.id, {
        reachableRoles: ["admin"],
      });
      assert.equal(user.disabled, false);
      for (const token of tokens) {
        assert.equal(
          await live(s, token, now),
          false,
        );
      }
      // The account still signs in.
      const credentials = await s.credentialsByEmail("ada@example.com");
      assert.equal(
        await s.createSession({
          tokenHash: tokenHash(),
          userId: ada.id,
          createdAt: now,
          expiresAt: now + HOUR,
          expectedGeneration: credentials!.generation,
        }),
        true,
      );
    },
  ],
  ["renewAuthentication() renews a live session only", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com" });
    const now = Date.now();
    const token = await sessionOf(s, ada.id, now);
    assert.equal(
      await s.renewAuthentication(token, { now: now + MINUTE }),
      true,
    );
    assert.equal(
      (await s.findSession(token, now))?.authenticatedAt,
      now + MINUTE,
    );
    assert.equal(await s.renewAuthentication(tokenHash(), { now }), false);
    await s.revokeUserSessions(ada.id, {});
    assert.equal(
      await s.renewAuthentication(token, { now: now + MINUTE }),
      false,
    );
  }],
  [
    "changePassword() replaces the hash and every session, bound to its generation",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const old = await addSession(s, ada.id, now);
      const { generation } = (await s.credentialsByEmail("ada@example.com"))!;
      const fresh = {
        tokenHash: tokenHash(),
        id: nextId(),
        createdAt: now,
        expiresAt: now + HOUR,
        ip: "",
        userAgent: "",
      };
      const change = {
        userId: ada.id,
        expectedGeneration: generation,
        passwordHash: hash("new"),
        session: fresh,
      };
      assert.equal(await s.changePassword(change), true);
      assert.equal(await live(s, old, now), false);
      assert.equal(await live(s, fresh.tokenHash, now), true);
      assert.equal(
        (await s.credentialsByEmail("ada@example.com"))?.passwordHash,
        hash("new"),
      );
      // The same change again was verified under the old generation.
      const again = {
        ...change,
        passwordHash: hash("other"),
        session: { ...fresh, tokenHash: tokenHash(), id: nextId() },
      };
      assert.equal(await s.changePassword(again), false);
      assert.equal(
        (await s.credentialsByEmail("ada@example.com"))?.passwordHash,
        hash("new"),
      );
      assert.equal(await live(s, again.session.tokenHash, now), false);
    },
  ],
];
