// An unlock holds only while its account is within the administrator's
// reach. Two instances on one store, each behind a real HTTP server: a
// limited-reach administrator ("support", which reaches members only)
// unlocks a locked member on instance A, held just before its write;
// meanwhile an administrator on instance B makes that member an "admin",
// beyond support's reach. When the held unlock goes on, it is refused as it
// would be if sent now: 403 `role_beyond_reach`, the lock kept, no
// `login.unlocked`. On every store.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import {
  addUser,
  hasher,
  hashOf,
  PASSWORD,
  serveHandler,
} from "../fixtures/kv.ts";
import { ROLES, sendJson } from "../fixtures/admin.ts";
import { held } from "../fixtures/instrument.ts";
import type { Store } from "../../mod.ts";

// Two failed passwords lock an account.
const instance = (store: Store) =>
  gatehouseApp({
    store,
    hasher,
    roles: ROLES,
    publicUrl: "https://app.example",
    limits: { accountLockThreshold: 2 },
  });

pairTest(
  "refuse a held unlock once its account was promoted beyond the administrator's reach",
  async (pair) => {
    const passwordHash = await hashOf(PASSWORD);
    const gate = held(pair.a, "recordEvents");
    const a = instance(gate.store);
    const b = instance(pair.b);
    const serverA = serveHandler(a.app);
    const serverB = serveHandler(b.app);
    try {
      const root = await addUser(pair.b, {
        email: "root@example.com",
        role: "admin",
        passwordHash,
      });
      const support = await addUser(pair.b, {
        email: "support@example.com",
        role: "support",
        passwordHash,
      });
      const target = await addUser(pair.b, {
        email: "target@example.com",
        role: "member",
        passwordHash,
      });
      const signIn = async (url: string, email: string) => {
        const res = await sendJson(url, "POST", "/api/auth/login", "", {
          email,
          password: PASSWORD,
        });
        assertEquals(res.status, 200);
        return res.cookie!;
      };
      const rootCookie = await signIn(serverB.url, root.email);
      const supportCookie = await signIn(serverA.url, support.email);
      for (const _ of [1, 2]) {
        const res = await sendJson(serverB.url, "POST", "/api/auth/login", "", {
          email: target.email,
          password: "not the password at all",
        });
        assertEquals(res.status, 401);
      }
      const lockedUntil = async () => {
        const res = await fetch(
          `${serverB.url}/api/users?q=${encodeURIComponent(target.email)}`,
          { headers: { cookie: rootCookie } },
        );
        const { users } = await res.json();
        return users[0].locked_until;
      };
      assert(await lockedUntil() !== null);

      gate.arm();
      const inFlight = sendJson(
        serverA.url,
        "DELETE",
        `/api/users/${target.id}/lock`,
        supportCookie,
      );
      await gate.reached();
      const promoted = await sendJson(
        serverB.url,
        "PUT",
        `/api/users/${target.id}/role`,
        rootCookie,
        { role: "admin" },
      );
      assertEquals(promoted.status, 200);
      gate.release();
      const answer = await inFlight;
      assertEquals([answer.status, answer.code], [403, "role_beyond_reach"]);
      assert(await lockedUntil() !== null, "the lock is kept");
      const unlocks = await pair.b.listAuditEvents({
        limit: 100,
        type: "login.unlocked",
      });
      assertEquals(unlocks.events.length, 0);

      // Within reach, the same unlock goes through.
      const demoted = await sendJson(
        serverB.url,
        "PUT",
        `/api/users/${target.id}/role`,
        rootCookie,
        { role: "member" },
      );
      assertEquals(demoted.status, 200);
      const unlocked = await sendJson(
        serverA.url,
        "DELETE",
        `/api/users/${target.id}/lock`,
        supportCookie,
      );
      assertEquals(unlocked.status, 204);
      assertEquals(await lockedUntil(), null);
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
    } finally {
      gate.release();
      await Promise.all([serverA.close(), serverB.close()]);
    }
  },
);
