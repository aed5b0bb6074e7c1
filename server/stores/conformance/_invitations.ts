// Conformance cases for the administrator's view of invitations: the
// pending ones (for addresses without an account), newest first; revoking
// one under the reach rule, once, also when revocations race, with events
// made from what it deleted; one invitation per address, also when
// invitations race, replacing only those its inviter could revoke.

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
  remainingLinks,
  tokenHash,
} from "./_helpers.ts";
import type { AuditEvent, LinkRecord } from "../../core/store.ts";

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
  [
    "revokeInvitation() writes the events made from the invitation it deletes",
    async (s) => {
      const now = Date.now();
      const record = linkRecord(tokenHash(), "invitation", {
        email: "New@Example.com",
        role: "member",
        expiresAt: now + HOUR,
      });
      await s.createLink(record);
      const seen: LinkRecord[] = [];
      const revoked = (invitation: LinkRecord): AuditEvent[] => {
        seen.push(invitation);
        return [{
          id: nextId(),
          type: "invitation.revoked",
          at: now,
          actorId: null,
          actorEmail: null,
          targetId: null,
          targetEmail: null,
          ip: "",
          userAgent: "",
          detail: { email: invitation.email, role: invitation.role },
        }];
      };
      await s.revokeInvitation(record.id, { now, events: revoked });
      assert.deepEqual(seen.at(-1), record);
      const { events } = await s.listAuditEvents({ limit: 10 });
      assert.deepEqual(events.map((e) => [e.type, e.detail]), [
        ["invitation.revoked", { email: "New@Example.com", role: "member" }],
      ]);
      // A refused revocation writes nothing.
      await refused(
        s.revokeInvitation(record.id, { now, events: revoked }),
        "invitation_not_found",
      );
      assert.equal((await s.listAuditEvents({ limit: 10 })).events.length, 1);
    },
  ],
  [
    "listInvitations() leaves out invitations whose address has an account",
    async (s) => {
      const now = Date.now();
      const taken = linkRecord(tokenHash(), "invitation", {
        email: "Taken@Example.com",
        expiresAt: now + HOUR,
        createdAt: now - 2,
      });
      const open = linkRecord(tokenHash(), "invitation", {
        email: "open@example.com",
        expiresAt: now + HOUR,
        createdAt: now - 1,
      });
      for (const record of [taken, open]) await s.createLink(record);
      assert.deepEqual(await s.listInvitations(now), [open, taken]);
      // The person got an account another way (created by an administrator).
      await addUser(s, { email: "taken@example.com" });
      assert.deepEqual(await s.listInvitations(now), [open]);
    },
  ],
  [
    "createLink() of an invitation replaces the address's pending one; its link dies",
    async (s) => {
      const now = Date.now();
      const first = linkRecord(tokenHash(), "invitation", {
        email: "p@example.com",
        role: "admin",
        expiresAt: now + HOUR,
        createdAt: now - 2,
      });
      const second = linkRecord(tokenHash(), "invitation", {
        email: "P@Example.COM",
        role: "member",
        expiresAt: now + 2 * HOUR,
        createdAt: now - 1,
      });
      const reset = linkRecord(tokenHash(), "reset", {
        email: "p@example.com",
        expiresAt: now + HOUR,
      });
      for (const record of [first, reset, second]) await s.createLink(record);
      assert.deepEqual(await s.listInvitations(now), [second]);
      assert.equal(await s.findLink(first.tokenHash, "invitation", now), null);
      assert.equal(
        await s.acceptInvitation(first.tokenHash, acceptance(now)),
        null,
      );
      await refused(
        s.revokeInvitation(first.id, { now }),
        "invitation_not_found",
      );
      // Resets of the address are links of another kind: untouched.
      assert.equal(
        (await s.findLink(reset.tokenHash, "reset", now))?.id,
        reset.id,
      );
      const user = await s.acceptInvitation(second.tokenHash, acceptance(now));
      assert.equal(user?.role, "member");
      // Spent: the link, its index entries and the replaced one are gone.
      assert.equal(await remainingLinks(s), 1);
    },
  ],
  [
    "createLink() of an invitation refuses to replace a pending one beyond reach, also when they race",
    async (s) => {
      const now = Date.now();
      const invitation = (
        role: string,
        fields: { email?: string; createdAt?: number } = {},
      ) =>
        linkRecord(tokenHash(), "invitation", {
          email: "p@example.com",
          role,
          expiresAt: now + HOUR,
          createdAt: now,
          id: nextId(),
          ...fields,
        });
      const reach = { reachableRoles: ["member"] };
      const admin = invitation("admin");
      await s.createLink(admin);
      const member = invitation("member");
      await refused(s.createLink(member, reach), "role_beyond_reach");
      assert.deepEqual(await s.invitationsFor(admin.emailKey), [admin]);
      assert.equal(await s.findLink(member.tokenHash, "invitation", now), null);
      // Expired, it is dead already: anyone's to replace.
      const expired = invitation("admin", { createdAt: now + HOUR });
      await s.createLink(expired, reach);
      assert.deepEqual(await s.invitationsFor(admin.emailKey), [expired]);
      // Racing: whichever commits first, the admin invitation stays.
      for (let round = 0; round < 10; round++) {
        const email = `race${round}@example.com`;
        const beyond = invitation("admin", { email });
        const within = invitation("member", { email });
        await Promise.allSettled([
          s.createLink(beyond),
          s.createLink(within, reach),
        ]);
        assert.equal(
          (await s.findLink(beyond.tokenHash, "invitation", now))?.id,
          beyond.id,
        );
      }
    },
  ],
  [
    "createLink() of 20 invitations for one address at once leaves one pending",
    async (s) => {
      const now = Date.now();
      const records = Array.from(
        { length: 20 },
        (_, i) =>
          linkRecord(tokenHash(), "invitation", {
            email: "crowd@example.com",
            expiresAt: now + HOUR,
            createdAt: now - 20 + i,
            id: nextId(),
          }),
      );
      await Promise.all(records.map((record) => s.createLink(record)));
      const pending = await s.listInvitations(now);
      assert.equal(pending.length, 1);
      const live = [];
      for (const record of records) {
        if (await s.findLink(record.tokenHash, "invitation", now)) {
          live.push(record.id);
        }
      }
      assert.deepEqual(live, [pending[0]!.id]);
      assert.equal(await remainingLinks(s), 1);
    },
  ],
];

/** The invitation cases, in the order they are registered. */
export const INVITATION_CASES: readonly Case[] = invitations;
