// Conformance cases for the administrator's view of invitations: the
// pending ones, newest first, and revoking one under the reach rule, once,
// also when revocations race.

import assert from "node:assert/strict";
import {
  acceptance,
  addLink,
  addUser,
  type Case,
  HOUR,
  linkRecord,
  nextId,
  refused,
  tokenHash,
} from "./_helpers.ts";

const invitations: Case[] = [
  [
    "listInvitations() answers the pending invitations, newest first",
    async (s) => {
      const owner = await addUser(s, { email: "o@example.com", role: "admin" });
      const now = Date.now();
      const records = [];
      for (let i = 0; i < 3; i++) {
        const record = linkRecord(tokenHash(), "invitation", {
          email: `p${i}@example.com`,
          role: i === 0 ? "" : "member",
          invitedBy: owner.id,
          createdAt: now - 3 * HOUR + i,
          expiresAt: now + HOUR,
        });
        await s.createLink(record);
        records.push(record);
      }
      await addLink(s, "invitation", {
        email: "expired@example.com",
        expiresAt: now,
      });
      await addLink(s, "reset", {
        email: owner.email,
        userId: owner.id,
        expiresAt: now + HOUR,
      });
      const spent = await addLink(s, "invitation", {
        email: "spent@example.com",
        invitedBy: owner.id,
        expiresAt: now + HOUR,
      });
      await s.acceptInvitation(spent, acceptance(now));
      assert.deepEqual(await s.listInvitations(now), records.reverse());
    },
  ],
  [
    "revokeInvitation() deletes a pending invitation within reach, once",
    async (s) => {
      const now = Date.now();
      const record = linkRecord(tokenHash(), "invitation", {
        email: "new@example.com",
        role: "member",
        expiresAt: now + HOUR,
      });
      await s.createLink(record);
      const revocation = { now, reachableRoles: ["member"] };
      assert.deepEqual(await s.revokeInvitation(record.id, revocation), record);
      assert.deepEqual(await s.listInvitations(now), []);
      assert.equal(await s.findLink(record.tokenHash, "invitation", now), null);
      assert.equal(
        await s.acceptInvitation(record.tokenHash, acceptance(now)),
        null,
      );
      await refused(
        s.revokeInvitation(record.id, revocation),
        "invitation_not_found",
      );
    },
  ],
  [
    "revokeInvitation() refuses an unknown, expired or out-of-reach one",
    async (s) => {
      const now = Date.now();
      const admin = linkRecord(tokenHash(), "invitation", {
        email: "a@example.com",
        role: "admin",
        expiresAt: now + HOUR,
      });
      const expired = linkRecord(tokenHash(), "invitation", {
        email: "e@example.com",
        expiresAt: now,
      });
      const plain = linkRecord(tokenHash(), "invitation", {
        email: "p@example.com",
        expiresAt: now + HOUR,
      });
      for (const record of [admin, expired, plain]) await s.createLink(record);
      const reach = { now, reachableRoles: ["member"] };
      await refused(s.revokeInvitation(admin.id, reach), "role_beyond_reach");
      await refused(
        s.revokeInvitation(expired.id, reach),
        "invitation_not_found",
      );
      await refused(
        s.revokeInvitation(nextId(), reach),
        "invitation_not_found",
      );
      await refused(
        s.revokeInvitation("not-a-uuid", reach),
        "invitation_not_found",
      );
      assert.equal(
        (await s.findLink(admin.tokenHash, "invitation", now))?.id,
        admin.id,
      );
      // No role is always within reach, even of an empty list.
      await s.revokeInvitation(plain.id, { now, reachableRoles: [] });
      assert.deepEqual(
        (await s.listInvitations(now)).map((r) => r.id),
        [admin.id],
      );
    },
  ],
  [
    "revokeInvitation() racing 20 times succeeds once",
    async (s) => {
      const now = Date.now();
      const record = linkRecord(tokenHash(), "invitation", {
        email: "new@example.com",
        expiresAt: now + HOUR,
      });
      await s.createLink(record);
      const results = await Promise.allSettled(
        Array.from(
          { length: 20 },
          () => s.revokeInvitation(record.id, { now }),
        ),
      );
      assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
      for (const result of results) {
        if (result.status === "rejected") {
          assert.equal(result.reason.code, "invitation_not_found");
        }
      }
    },
  ],
];

/** The invitation cases, in the order they are registered. */
export const INVITATION_CASES: readonly Case[] = invitations;
