// A disable or a demotion ends the invitations the account sent (or those
// its new role may not grant) after its commit, in commits of their own
// (_account_update.ts). When that cleanup fails (the store unreachable for
// a moment), the change has landed and the administrator is answered 500;
// the natural thing is to send it again. Before, the second request found
// nothing to change and so ended no invitation: they survived for good,
// and enabling the account again (or giving its role back) revived them,
// though nobody tried them meanwhile. Now a disable or a role change asked
// for again ends them. On the rules over a record store whose invitation
// listing fails once.

import { assertEquals } from "../fixtures/assert.ts";
import { refusal, tokenOf } from "../fixtures/api.ts";
import { addUser } from "../fixtures/kv.ts";
import { MemoryRecords } from "../fixtures/memory_records.ts";
import { withServedApi } from "../fixtures/security.ts";
import { RuleStore } from "../../server/core/rules/mod.ts";
import type { RecordStore } from "../../server/core/records.ts";

const NEW_PASSWORD = "the invited person's passphrase";

// Records whose next listing of every invitation fails once armed (only
// the cleanup lists them all: listing the pending ones is an
// administrator's page, not used here).
function flaky(): { records: RecordStore; arm(): void; tripped(): boolean } {
  const real = new MemoryRecords();
  let armed = false;
  let tripped = false;
  const records = new Proxy(real, {
    get(target, property) {
      if (property === "list") {
        return (kind: string, field: string, value: string) => {
          if (armed && kind === "link" && field === "kind") {
            armed = false;
            tripped = true;
            return Promise.reject(new Error("the store is unreachable"));
          }
          return (target.list as (...a: unknown[]) => unknown)(
            kind,
            field,
            value,
          );
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as RecordStore;
  return { records, arm: () => void (armed = true), tripped: () => tripped };
}

const CASES = [
  {
    what: "a disable",
    // The inviter, the role it invites to, what ends its authority, and
    // what gives it back.
    inviterRole: "support",
    invitedRole: "member",
    end: { disabled: true },
    restore: { disabled: false },
  },
  {
    what: "a demotion",
    inviterRole: "admin",
    invitedRole: "admin",
    end: { role: "support" },
    restore: { role: "admin" },
  },
] as const;

for (const kase of CASES) {
  Deno.test(`${kase.what} whose invitation cleanup failed ends the invitations when sent again`, async () => {
    const { records, arm, tripped } = flaky();
    const store = new RuleStore(records);
    await withServedApi(store, async (api, { root }) => {
      const inviter = await addUser(store, {
        email: "ivy@example.com",
        role: kase.inviterRole,
      });
      const admin = await api.login(root.email);
      const sent = await api.call("POST", "/api/users/invite", {
        email: "mallory@example.com",
        name: "Mallory",
        role: kase.invitedRole,
      }, { cookie: await api.login(inviter.email) });
      assertEquals(sent.status, 200);
      const token = tokenOf((await sent.json()).activation_link);
      const change = async (body: unknown) => {
        const res = await api.call("PATCH", `/api/users/${inviter.id}`, body, {
          cookie: admin,
        });
        await res.body?.cancel();
        return res.status;
      };
      const path = "role" in kase.end ? `/api/users/${inviter.id}/role` : "";
      const set = async (body: Record<string, unknown>) => {
        if (path === "") return await change(body);
        const res = await api.call("PUT", path, body, { cookie: admin });
        await res.body?.cancel();
        return res.status;
      };

      arm();
      assertEquals(await set(kase.end), 500);
      assertEquals(tripped(), true, "the cleanup failed where meant");
      // The administrator sends it again: it answers, and ends them.
      assertEquals(await set(kase.end), 200);
      assertEquals(await set(kase.restore), 200);
      await api.gatehouse.settled();

      const accepted = await api.call("POST", "/api/auth/invite/accept", {
        token,
        password: NEW_PASSWORD,
      });
      assertEquals(await refusal(accepted), [410, "token_invalid"]);
      assertEquals(
        (await store.listUsers({ limit: 10, q: "mallory" })).users,
        [],
      );
    });
  });
}
