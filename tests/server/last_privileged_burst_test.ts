// The last privileged account under a burst, on every store: two app
// instances on one store, each privileged account disabling or demoting
// every other at once (hundreds of requests, both instances), and at least
// one enabled privileged account is left, with the role tallies the rule
// reads agreeing with the accounts.

import { assert, assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { addUser } from "../fixtures/kv.ts";
import { actAs, bareAdminApp, services } from "../fixtures/admin.ts";

const ADMINS = 6;
const SUPPORTS = 4;

pairTest(
  "a burst of disables and demotions on two instances leaves a privileged account",
  async (pair) => {
    const apps = [pair.a, pair.b].map((store) =>
      bareAdminApp(services(store).admin)
    );
    const admins = [];
    for (let i = 0; i < ADMINS; i++) {
      admins.push(
        await addUser(pair.b, {
          email: `admin${i}@example.com`,
          role: "admin",
        }),
      );
    }
    const supports = [];
    for (let i = 0; i < SUPPORTS; i++) {
      supports.push(
        await addUser(pair.b, {
          email: `support${i}@example.com`,
          role: "support",
        }),
      );
    }
    const calls: Promise<Response>[] = [];
    let n = 0;
    for (const actor of admins) {
      for (const target of [...admins, ...supports]) {
        if (target.id === actor.id) continue;
        const app = apps[n++ % 2]!;
        calls.push(
          actAs(app, actor, "PATCH", `/api/users/${target.id}`, {
            disabled: true,
          }),
          actAs(app, actor, "PUT", `/api/users/${target.id}/role`, {
            role: "member",
          }),
        );
      }
    }
    for (const actor of supports) {
      for (const target of supports) {
        if (target.id === actor.id) continue;
        const app = apps[n++ % 2]!;
        calls.push(
          actAs(app, actor, "PATCH", `/api/users/${target.id}`, {
            disabled: true,
          }),
        );
      }
    }
    const answers = await Promise.all(calls);
    const codes = new Map<string, number>();
    for (const res of answers) {
      const body = await res.json();
      const key = `${res.status} ${body.code ?? ""}`;
      codes.set(key, (codes.get(key) ?? 0) + 1);
      assert(res.status < 500, `${res.status} ${JSON.stringify(body)}`);
    }
    const users = (await pair.a.listUsers({ limit: 100 })).users;
    const privileged = users.filter((u) =>
      !u.disabled && (u.role === "admin" || u.role === "support")
    );
    assertEquals(privileged.length, 1, JSON.stringify([...codes]));
  },
);
