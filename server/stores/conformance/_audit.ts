// Conformance cases of the audit trail (DESIGN.md §10): an event is written
// in the commit of its change or not at all; pages are newest first and
// filter by account (actor or target), type and a reader's reach; the
// reaper's deletion.

import assert from "node:assert/strict";
import type { AuditEvent, AuditQuery, Store } from "../../core/store.ts";
import { eventWithinReach } from "../../core/rules/_audit_reach.ts";
import {
  addUser,
  type Case,
  hash,
  HOUR,
  nextId,
  refused,
  tokenHash,
} from "./_helpers.ts";

function event(
  type: AuditEvent["type"],
  fields: Partial<AuditEvent> = {},
): AuditEvent {
  return {
    id: nextId(),
    type,
    at: Date.now(),
    actorId: null,
    actorEmail: null,
    targetId: null,
    targetEmail: null,
    ip: "192.0.2.1",
    userAgent: "Chrome on Linux",
    detail: { note: "x", n: 1, yes: true, none: null },
    ...fields,
  };
}

async function all(store: Store): Promise<AuditEvent[]> {
  return (await store.listAuditEvents({ limit: 100 })).events;
}

/** The audit cases. */
export const AUDIT_CASES: readonly Case[] = [
  [
    "second-factor writes carry their events, and write none when refused",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const secret = "JBSWY3DPEHPK3PXP";
      await s.startTotpEnrolment({
        userId: ada.id,
        secret,
        createdAt: now,
        expiresAt: now + HOUR,
      });
      const written: AuditEvent[] = [];
      const expect = async (
        done: Promise<unknown>,
        wanted: unknown,
        e: AuditEvent | null,
      ) => {
        assert.deepEqual(await done, wanted);
        if (e !== null) written.push(e);
        assert.deepEqual(
          (await all(s)).map((x) => x.id),
          written.map((x) => x.id).reverse(),
        );
      };
      const enabled = event("second_factor.enabled");
      await expect(
        s.confirmTotp(ada.id, {
          secret: "KRSXG5CTMVRXEZLU",
          step: 1,
          recoveryCodeHashes: ["a", "b"],
          now,
          events: [event("second_factor.enabled")],
        }),
        false,
        null,
      );
      await expect(
        s.confirmTotp(ada.id, {
          secret,
          step: 1,
          recoveryCodeHashes: ["a", "b"],
          now,
          events: [enabled],
        }),
        true,
        enabled,
      );
      const used = event("recovery_code.used");
      await expect(
        s.useRecoveryCode(ada.id, "zz", {
          events: [event("recovery_code.used")],
        }),
        null,
        null,
      );
      await expect(s.useRecoveryCode(ada.id, "a", { events: [used] }), 1, used);
      const regenerated = event("recovery_codes.regenerated");
      await expect(
        s.replaceRecoveryCodes(ada.id, ["c"], { events: [regenerated] }),
        true,
        regenerated,
      );
      const disabled = event("second_factor.disabled");
      await expect(
        s.disableTotp(ada.id, { events: [disabled] }),
        true,
        disabled,
      );
      await expect(
        s.disableTotp(ada.id, { events: [event("second_factor.disabled")] }),
        false,
        null,
      );
      await expect(
        s.replaceRecoveryCodes(ada.id, ["d"], {
          events: [event("recovery_codes.regenerated")],
        }),
        false,
        null,
      );
      const passkey = {
        id: crypto.randomUUID(),
        userId: ada.id,
        credentialId: "cred-" + nextId(),
        publicKey: "AAEC",
        counter: 0,
        transports: [],
        name: "Laptop",
        createdAt: now,
      };
      const added = event("passkey.added");
      await expect(
        s.addPasskey(passkey, 10, { events: [added] }),
        { ...passkey, lastUsedAt: null },
        added,
      );
      await expect(
        s.addPasskey(
          {
            ...passkey,
            id: crypto.randomUUID(),
            credentialId: "cred-" + nextId(),
          },
          1,
          {
            events: [event("passkey.added")],
          },
        ),
        null,
        null,
      );
      const removed = event("passkey.removed");
      await expect(
        s.removePasskey(ada.id, passkey.id, { events: [removed] }),
        true,
        removed,
      );
      await expect(
        s.removePasskey(ada.id, passkey.id, {
          events: [event("passkey.removed")],
        }),
        false,
        null,
      );
      const bob = await addUser(s, { email: "bob@example.com", role: "admin" });
      await refused(
        s.removeUserSecondFactor(bob.id, {
          reachableRoles: ["member"],
          events: [event("second_factor.disabled")],
        }),
        "role_beyond_reach",
      );
      await refused(
        s.removeUserSecondFactor(nextId(), {
          events: [event("second_factor.disabled")],
        }),
        "user_not_found",
      );
      // Nothing to remove: nothing written, the event neither.
      await expect(
        s.removeUserSecondFactor(bob.id, {
          reachableRoles: ["admin"],
          events: [event("second_factor.disabled")],
        }),
        false,
        null,
      );
      await s.addPasskey(
        {
          ...passkey,
          id: crypto.randomUUID(),
          userId: bob.id,
          credentialId: "cred-" + nextId(),
        },
        10,
      );
      const lost = event("second_factor.disabled");
      await expect(
        s.removeUserSecondFactor(bob.id, {
          reachableRoles: ["admin"],
          events: [lost],
        }),
        true,
        lost,
      );
    },
  ],
  [
    "an event is written with its change, and not when the change is refused",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const created = event("user.created");
      await addUser(s, { email: "bob@example.com", events: [created] });
      assert.deepEqual(await all(s), [created]);
      await refused(
        addUser(s, {
          email: "BOB@example.com",
          emailKey: "bob@example.com",
          events: [event("user.created")],
        }),
        "email_taken",
      );
      await refused(
        s.updateUser(ada.id, {
          disabled: true,
          expectedRole: "admin",
          events: () => [event("user.disabled")],
        }),
        "role_changed",
      );
      const now = Date.now();
      assert.equal(
        await s.createSession({
          tokenHash: tokenHash(),
          userId: nextId(),
          createdAt: now,
          expiresAt: now + HOUR,
          events: [event("login.succeeded")],
        }),
        false,
      );
      assert.equal(
        await s.deleteSession(tokenHash(), { events: [event("logout")] }),
        false,
      );
      assert.deepEqual((await all(s)).map((e) => e.id), [created.id]);
    },
  ],
  [
    "updateUser() makes its events from the account before and after",
    async (s) => {
      const ada = await addUser(s, {
        email: "ada@example.com",
        role: "member",
      });
      await addUser(s, { email: "root@example.com", role: "admin" });
      await s.updateUser(ada.id, {
        role: "admin",
        events: (before, after) => [
          event("user.role_changed", {
            detail: { old_role: before.role, new_role: after.role },
          }),
        ],
      });
      assert.deepEqual((await all(s))[0]?.detail, {
        old_role: "member",
        new_role: "admin",
      });
    },
  ],
  [
    "listAuditEvents() pages newest first and filters by account and type",
    async (s) => {
      const ada = nextId();
      const bob = nextId();
      const written: AuditEvent[] = [];
      for (let i = 0; i < 7; i++) {
        written.push(event(i % 2 === 0 ? "login.succeeded" : "login.failed", {
          actorId: i < 4 ? ada : null,
          targetId: i >= 3 ? bob : ada,
        }));
      }
      await s.recordEvents(written);
      const newest = [...written].reverse();
      const first = await s.listAuditEvents({ limit: 3 });
      assert.deepEqual(first.events, newest.slice(0, 3));
      const second = await s.listAuditEvents({
        limit: 3,
        cursor: first.nextCursor!,
      });
      assert.deepEqual(second.events, newest.slice(3, 6));
      const last = await s.listAuditEvents({
        limit: 3,
        cursor: second.nextCursor!,
      });
      assert.deepEqual([last.events, last.nextCursor], [newest.slice(6), null]);
      const ofAda = await s.listAuditEvents({ limit: 100, userId: ada });
      assert.deepEqual(
        ofAda.events.map((e) => e.id),
        newest.filter((e) => e.actorId === ada || e.targetId === ada).map((e) =>
          e.id
        ),
      );
      const bobFailed = await s.listAuditEvents({
        limit: 100,
        userId: bob,
        type: "login.failed",
      });
      assert.deepEqual(
        bobFailed.events.map((e) => e.id),
        newest.filter((e) => e.targetId === bob && e.type === "login.failed")
          .map((e) => e.id),
      );
      const succeeded = await s.listAuditEvents({
        limit: 2,
        type: "login.succeeded",
      });
      assert.equal(succeeded.events.length, 2);
      assert.ok(succeeded.events.every((e) => e.type === "login.succeeded"));
      assert.deepEqual(
        (await s.listAuditEvents({ limit: 10, userId: nextId() })).events,
        [],
      );
    },
  ],
  [
    "listAuditEvents() with a reach shows only events within it, a full page at a time",
    async (s) => {
      const owner = await addUser(s, {
        email: "owner@example.com",
        role: "owner",
      });
      const helper = await addUser(s, {
        email: "helper@example.com",
        role: "helper",
      });
      const member = await addUser(s, {
        email: "mem@example.com",
        role: "member",
      });
      const plain = await addUser(s, { email: "plain@example.com" });
      const gone = nextId();
      const by = (actor: string | null, target: string | null = actor) => ({
        actorId: actor,
        targetId: target,
      });
      const seen = [
        event("login.succeeded", by(member.id)),
        event("user.disabled", by(helper.id, member.id)),
        event("login.failed", by(null)),
        event("password.changed", by(plain.id)),
        event("login.succeeded", by(helper.id)),
        event("user.enabled", by(helper.id, member.id)),
      ];
      const hidden = [
        event("login.succeeded", by(owner.id)),
        event("user.role_changed", by(owner.id, member.id)),
        event("user.sessions_revoked", by(owner.id, helper.id)),
        event("login.succeeded", by(gone)),
        event("user.disabled", by(helper.id, owner.id)),
      ];
      // Each seen event behind several beyond reach: a page must read on.
      const written: AuditEvent[] = [];
      for (const [i, e] of seen.entries()) {
        for (let j = 0; j < 4; j++) {
          const h = hidden[(i + j) % hidden.length]!;
          written.push({ ...h, id: nextId() });
        }
        written.push({ ...e, id: nextId() });
      }
      written.push(event("login.succeeded", by(owner.id)));
      await s.recordEvents(written);
      const reach = { self: helper.id, roles: ["member"] };
      const roles = new Map(
        [owner, helper, member, plain].map((u) => [u.id, u.role]),
      );
      const within = (e: AuditEvent) =>
        eventWithinReach(e, reach, (id) => roles.get(id));
      const newest = [...written].reverse();
      const expected = newest.filter(within);
      assert.deepEqual(
        expected.map((e) => [e.type, e.actorId, e.targetId]),
        [...seen].reverse().map((e) => [e.type, e.actorId, e.targetId]),
      );
      const pages = async (query: Omit<AuditQuery, "limit" | "cursor">) => {
        const got: AuditEvent[][] = [];
        let cursor: string | undefined;
        do {
          const page = await s.listAuditEvents({
            limit: 2,
            reach,
            ...query,
            ...(cursor === undefined ? {} : { cursor }),
          });
          got.push(page.events);
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined && got.length < 20);
        return got;
      };
      const all = await pages({});
      assert.deepEqual(all.map((p) => p.length), [2, 2, 2]);
      assert.deepEqual(all.flat(), expected);
      const ofMember = (await pages({ userId: member.id })).flat();
      assert.deepEqual(
        ofMember.map((e) => e.id),
        expected.filter((e) =>
          e.actorId === member.id || e.targetId === member.id
        )
          .map((e) => e.id),
      );
      assert.deepEqual(
        (await pages({ userId: owner.id })).flat(),
        [],
      );
      const ofHelperDisabling = (await pages({
        userId: helper.id,
        type: "user.disabled",
      })).flat();
      assert.deepEqual(
        ofHelperDisabling.map((e) => [e.actorId, e.targetId]),
        [[helper.id, member.id]],
      );
      const enabled = (await pages({ type: "user.enabled" })).flat();
      assert.deepEqual(enabled.map((e) => e.targetId), [member.id]);
      // Without a reach, every event.
      assert.equal(
        (await s.listAuditEvents({ limit: 100 })).events.length,
        written.length,
      );
      // A role moved out of reach hides the account's past events too.
      await s.updateUser(member.id, { role: "owner" });
      assert.deepEqual(
        (await pages({})).flat().map((e) => e.type),
        ["login.succeeded", "password.changed", "login.failed"],
      );
    },
  ],
  [
    "deleteExpiredEvents() deletes events older than the cut, oldest first",
    async (s) => {
      const now = Date.now();
      const old = [
        event("logout", { at: now - 3 * HOUR }),
        event("logout", { at: now - 2 * HOUR }),
      ];
      const kept = event("logout", { at: now });
      await s.recordEvents([...old, kept]);
      assert.equal(await s.deleteExpiredEvents(now - HOUR, 1), 1);
      assert.equal(await s.deleteExpiredEvents(now - HOUR, 10), 1);
      assert.equal(await s.deleteExpiredEvents(now - HOUR, 10), 0);
      assert.deepEqual(await all(s), [kept]);
      assert.deepEqual(
        (await s.listAuditEvents({ limit: 10, type: "logout" })).events,
        [kept],
      );
    },
  ],
  ["a password change writes its events in its commit", async (s) => {
    const ada = await addUser(s, { email: "ada@example.com" });
    const now = Date.now();
    const changed = event("password.changed", {
      actorId: ada.id,
      targetId: ada.id,
    });
    const session = {
      tokenHash: tokenHash(),
      id: nextId(),
      createdAt: now,
      expiresAt: now + HOUR,
      ip: "",
      userAgent: "",
    };
    assert.equal(
      await s.changePassword({
        userId: ada.id,
        expectedGeneration: 7,
        passwordHash: hash("x"),
        session,
        events: [changed],
      }),
      false,
    );
    assert.deepEqual(await all(s), []);
    assert.equal(
      await s.changePassword({
        userId: ada.id,
        expectedGeneration: 0,
        passwordHash: hash("x"),
        session,
        events: [changed],
      }),
      true,
    );
    assert.deepEqual(await all(s), [changed]);
  }],
];
