// An administrator's request in flight does not outlive the administrator.
// Two instances on one store, each behind a real HTTP server: an
// administrator's request on instance A passes its guard and is held just
// before its change reaches the store; meanwhile instance B disables that
// administrator, demotes it, or signs it out everywhere. When the held change
// goes on, its commit reads the administrator's account again and refuses,
// as the guard would now: nothing changes and nothing is recorded. Every
// administrative write, on every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { type Pair, pairTest } from "../fixtures/instances.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  hashOf,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { ADMIN_INTERVENTIONS, ROLES, sendJson } from "../fixtures/admin.ts";
import { held } from "../fixtures/instrument.ts";
import type { Store } from "../../mod.ts";
import type { UserRecord } from "../../server/core/store.ts";
import { fold } from "../../server/core/_fold.ts";

const PUBLIC_URL = "https://app.example";

// One instance of the app; two failed passwords lock an account.
const instance = (store: Store) =>
  gatehouseApp({
    store,
    hasher,
    roles: ROLES,
    publicUrl: PUBLIC_URL,
    limits: { accountLockThreshold: 2 },
  });

// One server per instance; `send` answers the status and the error code.
const client = (url: string) =>
(
  method: string,
  path: string,
  cookie: string,
  body?: unknown,
) => sendJson(url, method, path, cookie, body);

interface World {
  store: Store;
  target: UserRecord;
  invitationId: string;
  // The target's `locked_until`, as the users list shows it.
  lockedUntil(): Promise<string | null>;
}

interface Case {
  op: string;
  method: keyof Store;
  request(world: World): [string, string, unknown?];
  // Holds when nothing changed: the change was not committed.
  unchanged(world: World): Promise<void>;
}

const CASES: Case[] = [
  {
    op: "setUserRole",
    method: "updateUser",
    request: (w) => ["PUT", `/api/users/${w.target.id}/role`, {
      role: "support",
    }],
    async unchanged(w) {
      assertEquals((await w.store.userById(w.target.id))?.role, "member");
    },
  },
  {
    op: "setUserDisabled",
    method: "updateUser",
    request: (w) => ["PATCH", `/api/users/${w.target.id}`, { disabled: true }],
    async unchanged(w) {
      assertEquals((await w.store.userById(w.target.id))?.disabled, false);
    },
  },
  {
    op: "createUser",
    method: "createUser",
    request: () => ["POST", "/api/users", {
      email: "newcomer@example.com",
      name: "Newcomer",
      password: PASSWORD,
      role: "member",
    }],
    async unchanged(w) {
      assertEquals(
        await w.store.credentialsByEmail(fold("newcomer@example.com")),
        null,
      );
    },
  },
  {
    op: "revokeUserSessions",
    method: "revokeUserSessions",
    request: (w) => ["DELETE", `/api/users/${w.target.id}/sessions`],
    async unchanged(w) {
      assertEquals(
        (await w.store.listSessions(w.target.id, Date.now())).length,
        1,
      );
    },
  },
  {
    op: "removeUserSecondFactor",
    method: "removeUserSecondFactor",
    request: (w) => ["DELETE", `/api/users/${w.target.id}/second-factor`],
    async unchanged(w) {
      assert((await w.store.accountFactors(w.target.id))?.totpEnabled);
    },
  },
  {
    op: "invite",
    method: "createLink",
    request: () => ["POST", "/api/users/invite", {
      email: "invitee@example.com",
      name: "Invitee",
      role: "member",
    }],
    async unchanged(w) {
      assertEquals(
        (await w.store.invitationsFor(fold("invitee@example.com"))).length,
        0,
      );
    },
  },
  {
    op: "revokeInvitation",
    method: "revokeInvitation",
    request: (w) => ["DELETE", `/api/users/invitations/${w.invitationId}`],
    async unchanged(w) {
      const pending = await w.store.listInvitations(Date.now());
      assert(pending.some((i) => i.id === w.invitationId));
    },
  },
  {
    op: "unlockUser",
    method: "recordEvents",
    request: (w) => ["DELETE", `/api/users/${w.target.id}/lock`],
    async unchanged(w) {
      assert(await w.lockedUntil() !== null);
    },
  },
];

async function setUp(pair: Pair, passwordHash: string, n: number) {
  const root = await addUser(pair.b, {
    email: `root${n}@example.com`,
    role: "admin",
    passwordHash,
  });
  const actor = await addUser(pair.b, {
    email: `actor${n}@example.com`,
    role: "admin",
    passwordHash,
  });
  const target = await addUser(pair.b, {
    email: `target${n}@example.com`,
    role: "member",
    passwordHash,
  });
  return { root, actor, target };
}

pairTest(
  "refuse an administrator's held change once another instance disabled, demoted or signed it out",
  async (pair) => {
    const passwordHash = await hashOf(PASSWORD);
    let n = 0;
    for (const kase of CASES) {
      for (const intervention of ADMIN_INTERVENTIONS) {
        n++;
        const gate = held(pair.a, kase.method);
        const a = instance(gate.store);
        const b = instance(pair.b);
        const serverA = serveHandler(a.app);
        const serverB = serveHandler(b.app);
        try {
          const sendA = client(serverA.url);
          const sendB = client(serverB.url);
          const { root, actor, target } = await setUp(pair, passwordHash, n);
          const signIn = async (
            send: typeof sendA,
            email: string,
          ): Promise<string> => {
            const res = await send("POST", "/api/auth/login", "", {
              email,
              password: PASSWORD,
            });
            assertEquals(res.status, 200);
            return res.cookie!;
          };
          const rootCookie = await signIn(sendB, root.email);
          const actorCookie = await signIn(sendA, actor.email);
          await signIn(sendB, target.email);
          // The target has TOTP on, and an invitation is pending.
          const now = Date.now();
          await pair.b.startTotpEnrolment({
            userId: target.id,
            secret: "JBSWY3DPEHPK3PXP",
            createdAt: now,
            expiresAt: now + 600_000,
          });
          assert(
            await pair.b.confirmTotp(target.id, {
              secret: "JBSWY3DPEHPK3PXP",
              step: Math.floor(now / 30_000),
              recoveryCodeHashes: ["a"],
              now,
            }),
          );
          const invited = await sendB("POST", "/api/users/invite", rootCookie, {
            email: `pending${n}@example.com`,
            name: "Pending",
            role: "member",
          });
          assertEquals(invited.status, 200);
          const [pending] = await pair.b.invitationsFor(
            fold(`pending${n}@example.com`),
          );
          const world: World = {
            store: pair.b,
            target,
            invitationId: pending!.id,
            async lockedUntil() {
              const res = await fetch(
                `${serverB.url}/api/users?q=${
                  encodeURIComponent(target.email)
                }`,
                { headers: { cookie: rootCookie } },
              );
              const { users } = await res.json();
              return users[0].locked_until;
            },
          };
          if (kase.op === "unlockUser") {
            // Two wrong passwords lock the target (a few per store: the
            // address's limiter admits ten).
            for (const _ of [1, 2]) {
              const res = await sendB("POST", "/api/auth/login", "", {
                email: target.email,
                password: "not the password at all",
              });
              assertEquals(res.status, 401);
            }
            assert(await world.lockedUntil() !== null);
          }
          // The administrator's own trail: what it did and what was done to it.
          const trail = async () =>
            (await pair.b.listAuditEvents({ limit: 100, userId: actor.id }))
              .events;
          const before = (await trail()).length;

          gate.arm();
          const [method, path, body] = kase.request(world);
          const inFlight = sendA(method, path, actorCookie, body);
          await gate.reached();
          const [m, p, bd] = intervention.request(actor.id);
          const done = await sendB(m, p, rootCookie, bd);
          assert(
            done.status === 200 || done.status === 204,
            `${intervention.name}: ${done.status} ${done.code}`,
          );
          gate.release();
          const answer = await inFlight;
          const label = `${kase.op} by an administrator ${intervention.name}`;
          assertEquals(
            [answer.status, answer.code],
            [...intervention.refusal],
            label,
          );
          await kase.unchanged(world);
          // Only the intervention was recorded.
          const events = await trail();
          assertEquals(events.length - before, 1, label);
          assertEquals(
            [events[0]!.actorId, events[0]!.targetId],
            [root.id, actor.id],
            label,
          );
          await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
        } finally {
          gate.release();
          await Promise.all([serverA.close(), serverB.close()]);
        }
      }
    }
  },
);

pairTest(
  "let an administrator's held change commit when its account stayed as it was",
  async (pair) => {
    // The check binds the administrator, not everything: a change to another
    // account meanwhile does not refuse it.
    const passwordHash = await hashOf(PASSWORD);
    const gate = held(pair.a, "updateUser");
    const a = instance(gate.store);
    const b = instance(pair.b);
    const serverA = serveHandler(a.app);
    const serverB = serveHandler(b.app);
    try {
      const { root, actor, target } = await setUp(pair, passwordHash, 0);
      const other = await addUser(pair.b, {
        email: "other@example.com",
        role: "member",
        passwordHash,
      });
      const sendA = client(serverA.url);
      const sendB = client(serverB.url);
      const login = async (send: typeof sendA, email: string) =>
        (await send("POST", "/api/auth/login", "", {
          email,
          password: PASSWORD,
        }))
          .cookie!;
      const rootCookie = await login(sendB, root.email);
      const actorCookie = await login(sendA, actor.email);
      gate.arm();
      const inFlight = sendA(
        "PUT",
        `/api/users/${target.id}/role`,
        actorCookie,
        {
          role: "support",
        },
      );
      await gate.reached();
      const done = await sendB("PATCH", `/api/users/${other.id}`, rootCookie, {
        disabled: true,
      });
      assertEquals(done.status, 200);
      gate.release();
      assertEquals((await inFlight).status, 200);
      assertEquals((await pair.b.userById(target.id))?.role, "support");
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
    } finally {
      gate.release();
      await Promise.all([serverA.close(), serverB.close()]);
    }
  },
);
