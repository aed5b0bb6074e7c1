// Conformance cases for the short-lived records of a second-factor sign-in:
// pending sign-ins (bound to the account's generation and factor version,
// counting wrong codes exactly) and WebAuthn challenges (single use, bound
// to a use), a proof spent with them, and the sweep of expired ones.

import assert from "node:assert/strict";
import type { Store } from "../../core/store.ts";
import type {
  ChallengeRecord,
  PendingSignIn,
} from "../../core/store_factors.ts";
import { STEP, withTotp } from "./_factors.ts";
import {
  addUser,
  type Case,
  hash,
  MINUTE,
  passkeyOf,
  tokenHash,
} from "./_helpers.ts";

async function pendingFor(
  s: Store,
  userId: string,
  now: number,
): Promise<PendingSignIn> {
  const factors = await s.accountFactors(userId);
  const pending = {
    tokenHash: tokenHash(),
    userId,
    generation: 0,
    factorVersion: factors!.factorVersion,
    createdAt: now,
    expiresAt: now + 5 * MINUTE,
  };
  await s.createPendingSignIn(pending);
  return { ...pending, failures: 0 };
}

function challengeFor(
  userId: string,
  now: number,
  use: ChallengeRecord["use"] = "login",
): ChallengeRecord {
  return {
    tokenHash: tokenHash(),
    challenge: tokenHash(),
    use,
    userId,
    createdAt: now,
    expiresAt: now + 5 * MINUTE,
  };
}

const pending: Case[] = [
  [
    "a code spent with its pending sign-in ends both in one commit, only while it is live: of 50 concurrent, one",
    async (s) => {
      const id = await withTotp(s);
      const bob = await withTotp(s, "bob@example.com");
      const now = Date.now();
      // A step: the one winner spends the step and ends the sign-in.
      const p = await pendingFor(s, id, now);
      const binding = { pending: { tokenHash: p.tokenHash, now } };
      const steps = await Promise.all(
        Array.from({ length: 50 }, () => s.useTotpStep(id, STEP + 1, binding)),
      );
      assert.equal(steps.filter(Boolean).length, 1);
      assert.equal(await s.findPendingSignIn(p.tokenHash, now), null);
      // A right code for a sign-in that ended spends nothing.
      assert.equal(await s.useTotpStep(id, STEP + 2, binding), false);
      assert.equal((await s.totp(id))?.lastStep, STEP + 1);
      // A recovery code, likewise; not for another account's sign-in.
      const q = await pendingFor(s, id, now);
      const other = await pendingFor(s, bob, now);
      assert.equal(
        await s.useRecoveryCode(id, "code-hash-0", {
          pending: { tokenHash: other.tokenHash, now },
        }),
        null,
      );
      const codes = await Promise.all(
        Array.from({ length: 50 }, () =>
          s.useRecoveryCode(id, "code-hash-0", {
            pending: { tokenHash: q.tokenHash, now },
          })),
      );
      assert.deepEqual(codes.filter((left) => left !== null), [9]);
      assert.equal(await s.findPendingSignIn(q.tokenHash, now), null);
      assert.deepEqual(await s.findPendingSignIn(other.tokenHash, now), other);
      // An expired one spends nothing either.
      const r = await pendingFor(s, id, now);
      assert.equal(
        await s.useRecoveryCode(id, "code-hash-1", {
          pending: { tokenHash: r.tokenHash, now: r.expiresAt },
        }),
        null,
      );
      assert.equal((await s.totp(id))?.recoveryCodesLeft, 9);
    },
  ],
  [
    "a passkey's use spent with its challenge and pending sign-in ends all three in one commit, only while both are live: of 50 concurrent, one",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const bob = await addUser(s, { email: "bob@example.com" });
      // It does not count: only the challenge and the sign-in make its
      // assertion single use.
      const passkey = passkeyOf(ada.id, { counter: 0 });
      assert.notEqual(await s.addPasskey(passkey, 20), null);
      const now = Date.now();
      const secondStep = async (userId: string) => {
        const p = await pendingFor(s, userId, now);
        const c = challengeFor(userId, now, "second_factor");
        await s.createChallenge(c);
        const use = {
          counter: 0,
          now,
          challenge: { tokenHash: c.tokenHash, use: "second_factor" as const },
          pending: { tokenHash: p.tokenHash, now },
        };
        return { p, c, use };
      };
      const first = await secondStep(ada.id);
      const uses = await Promise.all(
        Array.from({ length: 50 }, () => s.usePasskey(passkey.id, first.use)),
      );
      assert.equal(uses.filter(Boolean).length, 1);
      assert.equal(await s.findPendingSignIn(first.p.tokenHash, now), null);
      assert.equal(
        await s.findChallenge(first.c.tokenHash, "second_factor", now),
        null,
      );
      // With a spent challenge, or for a sign-in that ended, another's, or
      // with a challenge of another use or expired: nothing is spent.
      const next = await secondStep(ada.id);
      const other = await secondStep(bob.id);
      const login = challengeFor("", now);
      await s.createChallenge(login);
      for (
        const use of [
          { ...next.use, challenge: first.use.challenge },
          { ...next.use, pending: first.use.pending },
          { ...next.use, pending: other.use.pending },
          {
            ...next.use,
            challenge: { tokenHash: login.tokenHash, use: "second_factor" },
          },
          { ...next.use, now: next.c.expiresAt },
        ] as const
      ) {
        assert.equal(await s.usePasskey(passkey.id, use), false);
      }
      assert.deepEqual(
        await s.findChallenge(next.c.tokenHash, "second_factor", now),
        next.c,
      );
      assert.deepEqual(
        await s.findPendingSignIn(next.p.tokenHash, now),
        next.p,
      );
      assert.deepEqual(
        await s.findPendingSignIn(other.p.tokenHash, now),
        other.p,
      );
      assert.equal(await s.usePasskey(passkey.id, next.use), true);
      assert.equal(await s.findPendingSignIn(next.p.tokenHash, now), null);
    },
  ],
  ["findPendingSignIn() answers it until it expires", async (s) => {
    const id = await withTotp(s);
    const now = Date.now();
    const p = await pendingFor(s, id, now);
    assert.deepEqual(await s.findPendingSignIn(p.tokenHash, now), p);
    assert.equal(await s.findPendingSignIn(p.tokenHash, p.expiresAt), null);
    assert.equal(await s.findPendingSignIn(tokenHash(), now), null);
    assert.equal(await s.spendPendingSignIn(p.tokenHash, p.expiresAt), null);
  }],
  [
    "a pending sign-in dies when a factor is removed, the password reset or the account disabled",
    async (s) => {
      const now = Date.now();
      const ada = await withTotp(s);
      const p = await pendingFor(s, ada, now);
      await s.disableTotp(ada);
      assert.equal(await s.findPendingSignIn(p.tokenHash, now), null);
      assert.equal(await s.failPendingSignIn(p.tokenHash, now, 5), null);
      assert.equal(await s.spendPendingSignIn(p.tokenHash, now), null);

      const bob = await withTotp(s, "bob@example.com");
      const q = await pendingFor(s, bob, now);
      await s.updateUser(bob, { disabled: true });
      assert.equal(await s.findPendingSignIn(q.tokenHash, now), null);
      await s.updateUser(bob, { disabled: false });
      // Disabling moved the generation: enabling again does not revive it.
      assert.equal(await s.spendPendingSignIn(q.tokenHash, now), null);

      const cy = await addUser(s, { email: "cy@example.com" });
      const r = await pendingFor(s, cy.id, now);
      const token = tokenHash();
      await s.createLink({
        tokenHash: token,
        id: crypto.randomUUID(),
        kind: "reset",
        email: "cy@example.com",
        emailKey: "cy@example.com",
        name: "",
        role: "",
        userId: cy.id,
        invitedBy: "",
        generation: 0,
        createdAt: now,
        expiresAt: now + MINUTE,
      });
      await s.confirmReset(token, { passwordHash: hash("new"), now });
      assert.equal(await s.findPendingSignIn(r.tokenHash, now), null);
    },
  ],
  [
    "failPendingSignIn() counts 1–4, the fifth ends it; exact under 200 concurrent",
    async (s) => {
      const id = await withTotp(s);
      const now = Date.now();
      const p = await pendingFor(s, id, now);
      for (let failures = 1; failures <= 4; failures++) {
        assert.deepEqual(await s.failPendingSignIn(p.tokenHash, now, 5), {
          failures,
          ended: false,
        });
      }
      assert.equal((await s.findPendingSignIn(p.tokenHash, now))?.failures, 4);
      assert.deepEqual(await s.failPendingSignIn(p.tokenHash, now, 5), {
        failures: 5,
        ended: true,
      });
      assert.equal(await s.findPendingSignIn(p.tokenHash, now), null);
      assert.equal(await s.failPendingSignIn(p.tokenHash, now, 5), null);

      const q = await pendingFor(s, id, now);
      const results = await Promise.all(
        Array.from(
          { length: 200 },
          () => s.failPendingSignIn(q.tokenHash, now, 5),
        ),
      );
      const counted = results.filter((r) => r !== null);
      assert.deepEqual(
        counted.map((r) => r!.failures).sort((a, b) => a - b),
        [1, 2, 3, 4, 5],
      );
      assert.equal(counted.filter((r) => r!.ended).length, 1);
      assert.equal(await s.spendPendingSignIn(q.tokenHash, now), null);
    },
  ],
  [
    "spendPendingSignIn() ends it once, one winner among 100 concurrent",
    async (s) => {
      const id = await withTotp(s);
      const now = Date.now();
      const p = await pendingFor(s, id, now);
      const results = await Promise.all(
        Array.from(
          { length: 100 },
          () => s.spendPendingSignIn(p.tokenHash, now),
        ),
      );
      assert.deepEqual(
        results.filter((r) => r !== null),
        [p],
      );
      assert.equal(await s.findPendingSignIn(p.tokenHash, now), null);
    },
  ],
];

const challenges: Case[] = [
  [
    "findChallenge() reads and spendChallenge() spends it once, for its use only, before it expires",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const c = challengeFor(ada.id, now, "reauthenticate");
      await s.createChallenge(c);
      assert.equal(await s.findChallenge(c.tokenHash, "login", now), null);
      assert.equal(
        await s.findChallenge(c.tokenHash, "reauthenticate", c.expiresAt),
        null,
      );
      assert.equal(await s.findChallenge(tokenHash(), "login", now), null);
      // Read, not spent.
      for (let i = 0; i < 2; i++) {
        assert.deepEqual(
          await s.findChallenge(c.tokenHash, "reauthenticate", now),
          c,
        );
      }
      assert.equal(await s.spendChallenge(c.tokenHash, "login", now), null);
      assert.equal(await s.spendChallenge(c.tokenHash, "register", now), null);
      assert.equal(
        await s.spendChallenge(c.tokenHash, "reauthenticate", c.expiresAt),
        null,
      );
      assert.deepEqual(
        await s.spendChallenge(c.tokenHash, "reauthenticate", now),
        c,
      );
      assert.equal(
        await s.spendChallenge(c.tokenHash, "reauthenticate", now),
        null,
      );
      assert.equal(
        await s.findChallenge(c.tokenHash, "reauthenticate", now),
        null,
      );
      // A passwordless sign-in's challenge has no account.
      const anonymous = challengeFor("", now);
      await s.createChallenge(anonymous);
      assert.deepEqual(
        await s.spendChallenge(anonymous.tokenHash, "login", now),
        anonymous,
      );
    },
  ],
  ["spendChallenge() has one winner among 100 concurrent", async (s) => {
    const now = Date.now();
    const c = challengeFor("", now);
    await s.createChallenge(c);
    const results = await Promise.all(
      Array.from(
        { length: 100 },
        () => s.spendChallenge(c.tokenHash, "login", now),
      ),
    );
    assert.equal(results.filter((r) => r !== null).length, 1);
  }],
  [
    "deleteExpiredFactorRecords() removes expired pending sign-ins, challenges and enrolments only, at most limit",
    async (s) => {
      const ada = await addUser(s, { email: "ada@example.com" });
      const now = Date.now();
      const live = await pendingFor(s, ada.id, now + 10 * MINUTE);
      await pendingFor(s, ada.id, now - 10 * MINUTE);
      await s.createChallenge(challengeFor("", now - 10 * MINUTE));
      await s.createChallenge(
        challengeFor(ada.id, now - 10 * MINUTE, "register"),
      );
      const fresh = challengeFor("", now);
      await s.createChallenge(fresh);
      await s.startTotpEnrolment({
        userId: ada.id,
        secret: "JBSWY3DPEHPK3PXP",
        createdAt: now - 20 * MINUTE,
        expiresAt: now - 10 * MINUTE,
      });
      assert.equal(await s.deleteExpiredFactorRecords(now, 2), 2);
      assert.equal(await s.deleteExpiredFactorRecords(now, 100), 2);
      assert.equal(await s.deleteExpiredFactorRecords(now, 100), 0);
      assert.notEqual(
        await s.findPendingSignIn(live.tokenHash, now + 10 * MINUTE),
        null,
      );
      assert.deepEqual(
        await s.spendChallenge(fresh.tokenHash, "login", now),
        fresh,
      );
    },
  ],
];

/** Pending sign-ins and WebAuthn challenges. */
export const PENDING_CASES: readonly Case[] = [...pending, ...challenges];
