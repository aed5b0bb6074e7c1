// PostgresStore's account changes and link spends under a crowd, on one pool
// shared with session reads, now that each is one statement or one function
// call: the rules hold (one winner per single-use link, one administrator
// left when two demote or disable each other, one account from first-run
// links), and no call fails with anything but the contract's AuthError
// (postgres.js `begin()` mixed with pooled queries could fail with
// UNSAFE_TRANSACTION under load: porsager/postgres#823).

import assert from "node:assert/strict";
import { AuthError } from "../../server/http/errors.ts";
import type { Store } from "../../mod.ts";
import type { UserRecord } from "../../server/core/store.ts";
import {
  acceptance,
  addLink,
  addSession,
  addUser,
  allUsers,
  hash,
  HOUR,
} from "../../server/stores/conformance/_helpers.ts";
import { ignorePostgres, schemaStore } from "../fixtures/postgres.ts";

const PRIVILEGED = ["admin"];
const ROUNDS = 6;
/** Concurrent calls spending one link. */
const SPENDERS = 20;
/** Invitations and reset links spent per round. */
const LINKS = 3;
const MEMBERS = 4;
/** First-run links spent at once on an empty store. */
const FIRST_RUN_LINKS = 30;
/** Concurrent changes of the members' accounts per round. */
const MEMBER_CHANGES = 40;
/** Concurrent session checks per round. */
const READS = 40;

// Runs every call at once, in a shuffled order, and answers their outcomes
// in the order given; anything but an AuthError fails the test.
async function together<T>(
  calls: readonly (() => Promise<T>)[],
): Promise<PromiseSettledResult<T>[]> {
  const order = calls.map((_, i) => i).sort(() => Math.random() - 0.5);
  const started = new Array<Promise<T>>(calls.length);
  for (const i of order) started[i] = calls[i]!();
  const settled = await Promise.allSettled(started);
  for (const outcome of settled) {
    if (outcome.status === "rejected") {
      assert.ok(
        outcome.reason instanceof AuthError,
        `a call failed with ${String(outcome.reason?.stack ?? outcome.reason)}`,
      );
    }
  }
  return settled;
}

function values<T>(settled: PromiseSettledResult<T>[]): T[] {
  return settled.map((outcome) => {
    assert.equal(outcome.status, "fulfilled");
    return (outcome as PromiseFulfilledResult<T>).value;
  });
}

function codeOf(outcome: PromiseSettledResult<unknown>): string {
  return outcome.status === "rejected" ? outcome.reason.code : "fulfilled";
}

// One administrator takes the other's privilege away: a demotion, or a
// disable.
function takeAway(
  store: Store,
  target: UserRecord,
  disable: boolean,
): Promise<UserRecord> {
  return store.updateUser(target.id, {
    ...(disable ? { disabled: true } : { role: "member" }),
    reachableRoles: ["admin", "member", "editor"],
    keepPrivileged: PRIVILEGED,
  });
}

Deno.test({
  name:
    `PostgresStore keeps its rules through ${ROUNDS} rounds of hundreds of concurrent account changes, link spends and session checks`,
  ignore: ignorePostgres,
  async fn() {
    const { store, close } = await schemaStore();
    try {
      const a = await addUser(store, { email: "a@example.com", role: "admin" });
      const b = await addUser(store, { email: "b@example.com", role: "admin" });
      const inviter = await addUser(store, {
        email: "inviter@example.com",
        role: "member",
      });
      const members: UserRecord[] = [];
      for (let i = 0; i < MEMBERS; i++) {
        members.push(
          await addUser(store, { email: `m${i}@example.com`, role: "member" }),
        );
      }
      const start = Date.now();
      const reading = await addSession(store, inviter.id, start, start + HOUR);

      for (let round = 0; round < ROUNDS; round++) {
        const now = Date.now();
        const disable = round % 2 === 1;
        const invitations: string[] = [];
        const resets: { token: string; user: UserRecord; session: string }[] =
          [];
        for (let i = 0; i < LINKS; i++) {
          invitations.push(
            await addLink(store, "invitation", {
              email: `invited${round}.${i}@example.com`,
              invitedBy: inviter.id,
              expiresAt: now + HOUR,
            }),
          );
          const user = await addUser(store, {
            email: `reset${round}.${i}@example.com`,
          });
          resets.push({
            user,
            session: await addSession(store, user.id, now),
            token: await addLink(store, "reset", {
              email: user.email,
              userId: user.id,
              expiresAt: now + HOUR,
            }),
          });
        }

        const demotions = [
          () => takeAway(store, b, disable),
          () => takeAway(store, a, disable),
        ];
        // Each member's account is changed back and forth by several calls
        // at once: half the members are disabled and enabled, half move
        // between two roles.
        const memberChanges = Array.from(
          { length: MEMBER_CHANGES },
          (_, i) => () => {
            const member = i % MEMBERS;
            const flip = Math.floor(i / MEMBERS) % 2 === 0;
            return store.updateUser(members[member]!.id, {
              ...(member % 2 === 0
                ? { disabled: flip }
                : { role: flip ? "editor" : "member" }),
              keepPrivileged: PRIVILEGED,
            });
          },
        );
        const acceptances = invitations.flatMap((token) =>
          Array.from(
            { length: SPENDERS },
            () => () => store.acceptInvitation(token, acceptance(now)),
          )
        );
        const confirmations = resets.flatMap(({ token }) =>
          Array.from(
            { length: SPENDERS },
            () => () =>
              store.confirmReset(token, { passwordHash: hash("new"), now }),
          )
        );
        const reads = Array.from(
          { length: READS },
          () => () => store.findSession(reading, now),
        );
        const settled = await together<unknown>([
          ...demotions,
          ...memberChanges,
          ...acceptances,
          ...confirmations,
          ...reads,
        ]);
        let next = 0;
        const take = (n: number) => settled.slice(next, next += n);

        // One demotion lands, the other is refused by the rule.
        const [first, second] = take(demotions.length);
        assert.deepEqual(
          [codeOf(first!), codeOf(second!)].sort(),
          ["fulfilled", "last_privileged_refused"],
        );
        const users = await allUsers(store);
        const admins = users.filter((u) => u.role === "admin" && !u.disabled);
        assert.equal(admins.length, 1, `round ${round}`);

        values(take(memberChanges.length));

        // Each link has exactly one winner.
        const accepted = values(take(acceptances.length));
        for (let i = 0; i < LINKS; i++) {
          const won = accepted.slice(i * SPENDERS, (i + 1) * SPENDERS)
            .filter((user) => user !== null);
          assert.equal(won.length, 1, `invitation ${i} of round ${round}`);
          const email = `invited${round}.${i}@example.com`;
          assert.equal(users.filter((u) => u.email === email).length, 1);
        }
        const confirmed = values(take(confirmations.length));
        for (let i = 0; i < LINKS; i++) {
          const won = confirmed.slice(i * SPENDERS, (i + 1) * SPENDERS)
            .filter((user) => user !== null);
          assert.deepEqual(won, [resets[i]!.user], `reset ${i}`);
          assert.equal(await store.findSession(resets[i]!.session, now), null);
          const stored = await store.credentialsByEmail(resets[i]!.user.email);
          assert.equal(stored?.passwordHash, hash("new"));
        }

        // The session checks beside them all found the live session.
        for (const found of values(take(reads.length))) {
          assert.equal(
            (found as { user: UserRecord } | null)?.user.id,
            inviter.id,
          );
        }

        // Both administrators again for the next round.
        for (const admin of [a, b]) {
          await store.updateUser(admin.id, { role: "admin", disabled: false });
        }
      }
    } finally {
      await close();
    }
  },
});

Deno.test({
  name:
    "PostgresStore creates one account from first-run links spent concurrently on an empty store",
  ignore: ignorePostgres,
  async fn() {
    const { store, close } = await schemaStore();
    try {
      const now = Date.now();
      const tokens: string[] = [];
      for (let i = 0; i < FIRST_RUN_LINKS; i++) {
        tokens.push(
          await addLink(store, "invitation", {
            email: `first${i}@example.com`,
            role: "admin",
            expiresAt: now + HOUR,
          }),
        );
      }
      const settled = await together(
        tokens.flatMap((token) =>
          Array.from(
            { length: SPENDERS },
            () => () => store.acceptInvitation(token, acceptance(now)),
          )
        ),
      );
      const won = values(settled).filter((user) => user !== null);
      assert.equal(won.length, 1);
      assert.deepEqual(await allUsers(store), won);
    } finally {
      await close();
    }
  },
});
