// Two administrators demoting each other at the same moment, over real
// servers on two instances of one store, while a third administrator keeps
// the last-privileged rule out of it: only the actor's standing, read in
// each change's commit, can refuse the second demotion. Each round exactly
// one lands; the other is refused as its guard would now refuse it (403),
// and the winner is still an administrator. On every store.

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { addUser, PASSWORD, serveHandler } from "../fixtures/kv.ts";
import { cheapHasher } from "../fixtures/cheap_hasher.ts";
import { ROLES, sendJson } from "../fixtures/admin.ts";
import type { Store } from "../../mod.ts";

const ROUNDS = 15;

const instance = (store: Store) =>
  gatehouseApp({
    store,
    hasher: cheapHasher,
    roles: ROLES,
    publicUrl: "https://app.example",
  });

pairTest(
  "two administrators demoting each other at once on two instances: one lands, beside a third",
  async (pair) => {
    const a = instance(pair.a);
    const b = instance(pair.b);
    const serverA = serveHandler(a.app);
    const serverB = serveHandler(b.app);
    try {
      const passwordHash = await cheapHasher.hash(PASSWORD);
      const accounts = [];
      for (const name of ["root", "ada", "bea"]) {
        accounts.push(
          await addUser(pair.b, {
            email: `${name}@example.com`,
            role: "admin",
            passwordHash,
          }),
        );
      }
      const cookies = [];
      for (const [i, account] of accounts.entries()) {
        const res = await sendJson(
          i === 1 ? serverA.url : serverB.url,
          "POST",
          "/api/auth/login",
          "",
          { email: account.email, password: PASSWORD },
        );
        assertEquals(res.status, 200);
        cookies.push(res.cookie!);
      }
      const [rootCookie, adaCookie, beaCookie] = cookies;
      const [, adaAccount, beaAccount] = accounts;
      for (let round = 0; round < ROUNDS; round++) {
        const answers = await Promise.all([
          sendJson(
            serverA.url,
            "PUT",
            `/api/users/${beaAccount!.id}/role`,
            adaCookie!,
            { role: "member" },
          ),
          sendJson(
            serverB.url,
            "PUT",
            `/api/users/${adaAccount!.id}/role`,
            beaCookie!,
            { role: "member" },
          ),
        ]);
        const won = answers.filter((answer) => answer.status === 200);
        assertEquals(won.length, 1, JSON.stringify(answers));
        const lost = answers.find((answer) => answer.status !== 200)!;
        assertEquals(lost.status, 403, JSON.stringify(answers));
        const winner = answers[0]!.status === 200 ? adaAccount! : beaAccount!;
        const loser = winner === adaAccount ? beaAccount! : adaAccount!;
        assertEquals((await pair.a.userById(winner.id))?.role, "admin");
        assertEquals((await pair.a.userById(loser.id))?.role, "member");
        const restored = await sendJson(
          serverB.url,
          "PUT",
          `/api/users/${loser.id}/role`,
          rootCookie!,
          { role: "admin" },
        );
        assertEquals(restored.status, 200);
      }
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
    } finally {
      await Promise.all([serverA.close(), serverB.close()]);
    }
  },
);
