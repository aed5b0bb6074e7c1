// PostgresStore spends an invitation under the locks its authority is read
// with (the commit function's locks and checks): a change of that authority
// still uncommitted elsewhere is waited for, then seen. A second, direct
// pool holds the change open in a transaction while the store's call runs;
// a call that did not wait would answer before the change commits, and
// create the account.

import assert from "node:assert/strict";
import type postgres from "postgres";
import {
  acceptance,
  addLink,
  addUser,
  allUsers,
  HOUR,
  nextId,
} from "../../server/stores/conformance/_helpers.ts";
import type { AccountRecord } from "../../server/core/records.ts";
import { commitPayload } from "../../server/stores/postgres/_record_commit.ts";
import { ignorePostgres, pool, schemaStore } from "../fixtures/postgres.ts";
import { gate } from "../fixtures/instrument.ts";

// Runs `statement` in a transaction on `direct` and keeps it open while
// `call` runs, until the call waits on a lock (its answer then follows the
// commit) or answers without waiting. Answers the call's answer.
async function whileUncommitted<T>(
  direct: postgres.Sql,
  schema: string,
  statement: string,
  call: () => Promise<T>,
): Promise<T> {
  const release = gate();
  const executed = gate();
  const holding = direct.begin(async (tx) => {
    await tx.unsafe(statement);
    executed.open();
    await release.opened;
  });
  try {
    await executed.opened;
    let answered = false;
    const answer = call().finally(() => answered = true);
    while (!answered) {
      const [row] = await direct`
        SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE wait_event_type = 'Lock' AND position(${schema} IN query) > 0`;
      if (row!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    release.open();
    await holding;
    return await answer;
  } finally {
    release.open();
  }
}

Deno.test({
  name:
    "PostgresStore.acceptInvitation() of a first-run link waits for an account being created and creates none",
  ignore: ignorePostgres,
  async fn() {
    const direct = pool();
    const { store, schema, close } = await schemaStore();
    try {
      const now = Date.now();
      const token = await addLink(store, "invitation", {
        email: "first@example.com",
        role: "admin",
        expiresAt: now + HOUR,
      });
      // Another instance's sign-up, as its commit writes it (the first-run
      // rule reads the enabled accounts' tally, which that commit moves),
      // held open.
      const other: AccountRecord = {
        id: nextId(),
        email: "other@example.com",
        emailKey: "other@example.com",
        name: "Other",
        nameKey: "other",
        role: "admin",
        disabled: false,
        passwordHash: "h",
        generation: 0,
        createdAt: now,
        factorVersion: 0,
        totpEnabled: false,
        passkeyCount: 0,
        locale: "",
        localeChosen: false,
      };
      const payload = commitPayload({
        checks: [{ kind: "account", key: other.id, version: null }],
        puts: [{ kind: "account", value: other, before: null }],
        tallies: [{ key: "enabled", by: 1 }, { key: "role:admin", by: 1 }],
      });
      const literal = JSON.stringify(payload).replaceAll("'", "''");
      const accepted = await whileUncommitted(
        direct,
        schema,
        `SELECT "${schema}".commit('${literal}'::jsonb)`,
        () => store.acceptInvitation(token, acceptance(now)),
      );
      assert.equal(accepted, null);
      assert.deepEqual(
        (await allUsers(store)).map((u) => u.email),
        ["other@example.com"],
      );
    } finally {
      await direct.end();
      await close();
    }
  },
});

Deno.test({
  name:
    "PostgresStore.acceptInvitation() waits for its inviter being disabled and creates no account",
  ignore: ignorePostgres,
  async fn() {
    const direct = pool();
    const { store, schema, close } = await schemaStore();
    try {
      const inviter = await addUser(store, {
        email: "inviter@example.com",
        role: "admin",
      });
      const now = Date.now();
      const token = await addLink(store, "invitation", {
        email: "invited@example.com",
        invitedBy: inviter.id,
        expiresAt: now + HOUR,
      });
      const accepted = await whileUncommitted(
        direct,
        schema,
        `UPDATE "${schema}".users SET disabled = true
        WHERE id = '${inviter.id}'`,
        () => store.acceptInvitation(token, acceptance(now)),
      );
      assert.equal(accepted, null);
      assert.deepEqual(await allUsers(store), [{ ...inviter, disabled: true }]);
      // The link is spent all the same.
      assert.equal(await store.findLink(token, "invitation", now), null);
    } finally {
      await direct.end();
      await close();
    }
  },
});
