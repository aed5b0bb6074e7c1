// Every attempt the account lock reserves is settled, also when a right
// password's sign-in is refused at its commit: an account disabled while
// argon2id ran answers 401, gives its attempt back (the lock still takes
// exactly ten wrong passwords), and leaves nothing waiting, so the lock
// that follows is recorded once and `settled()` returns. On KV, Postgres
// and SQLite, over real HTTP.

import { assertEquals } from "../fixtures/assert.ts";
import { countingHasher } from "../fixtures/api.ts";
import { gatehouseApp } from "../fixtures/app.ts";
import { ROLES } from "../fixtures/admin.ts";
import { addUser, memoryLogger, PASSWORD, serve } from "../fixtures/kv.ts";
import { KEY_A } from "../fixtures/lock_server.ts";
import { BACKENDS } from "../fixtures/stores.ts";
import type { PasswordHasher } from "../../mod.ts";

const ADA = "ada@example.com";

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a right password refused at the session commit gives its lock attempt back and leaves nothing waiting (${backend.name})`,
    ignore: backend.ignore,
    async fn() {
      const { store, close } = await backend.open();
      const ada = await addUser(store, { email: ADA, role: "member" });
      // Holds the right password's verify until the test lets it go.
      const inner = countingHasher({ hash: 0, verify: 0 });
      let held: { reached(): void; release: Promise<void> } | null = null;
      const hasher: PasswordHasher = {
        ...inner,
        async verify(hash, password) {
          const matched = await inner.verify(hash, password);
          if (held !== null && password === PASSWORD) {
            held.reached();
            await held.release;
          }
          return matched;
        },
      };
      const { gatehouse, app } = gatehouseApp({
        store,
        hasher,
        logger: memoryLogger(),
        roles: ROLES,
        publicUrl: "https://app.example",
        trustedProxy: { header: "x-forwarded-for", addresses: ["127.0.0.1"] },
        deviceKeys: [KEY_A],
        rateLimit: { maxFailures: 1000 },
      });
      const server = serve((req, info) => app(req, undefined, info));
      const login = async (password: string, from: number) => {
        const res = await fetch(`${server.url}/api/auth/login`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-forwarded-for": `10.0.${from}.7`,
          },
          body: JSON.stringify({ email: ADA, password }),
        });
        await res.body?.cancel();
        return res.status;
      };
      try {
        const reached = Promise.withResolvers<void>();
        const release = Promise.withResolvers<void>();
        held = { reached: reached.resolve, release: release.promise };
        const racing = login(PASSWORD, 0);
        await reached.promise;
        // Disabled while argon2id runs: the session's commit refuses.
        await store.updateUser(ada.id, { disabled: true });
        release.resolve();
        assertEquals(await racing, 401);
        held = null;
        await store.updateUser(ada.id, { disabled: false });

        const statuses: number[] = [];
        for (let i = 1; i <= 11; i++) {
          statuses.push(await login(`wrong password ${i}`, i));
        }
        // Bounded: an attempt left unsettled would keep this waiting.
        const settled = await Promise.race([
          gatehouse.settled().then(() => true),
          new Promise<boolean>((resolve) => setTimeout(resolve, 5000, false)),
        ]);
        const locked = (await store.listAuditEvents({ limit: 100 })).events
          .filter((event) => event.type === "login.locked");
        assertEquals(
          { statuses, locked: locked.length, settled },
          {
            statuses: [...Array(10).fill(401), 429],
            locked: 1,
            settled: true,
          },
        );
      } finally {
        await server.close();
        await close();
      }
    },
  });
}
