// PostgresStore keeps each account's second factors on its row
// (`users.totp_enabled`, `users.passkey_count`, kept by triggers), so the
// session check reads no factor table. The columns must stay exact under
// concurrent enrolments and removals, and those concurrent changes must
// never deadlock (every factor change locks the account's row first).

import assert from "node:assert/strict";
import type postgres from "postgres";
import { AuthError } from "../../mod.ts";
import type { PostgresStore } from "../../server/stores/postgres/mod.ts";
import { nextId } from "../../server/stores/conformance/_helpers.ts";
import { addUser } from "../fixtures/kv.ts";
import { ignorePostgres, schemaStore } from "../fixtures/postgres.ts";

const HOUR = 3_600_000;

function passkey(userId: string, name = "Laptop") {
  return {
    id: crypto.randomUUID(),
    userId,
    credentialId: `cred-${nextId()}`,
    publicKey: "AAEC",
    counter: 0,
    transports: [],
    name,
    createdAt: Date.now(),
  };
}

async function enableTotp(store: PostgresStore, userId: string) {
  const now = Date.now();
  const secret = `SECRET${nextId().slice(0, 8)}`;
  await store.startTotpEnrolment({
    userId,
    secret,
    createdAt: now,
    expiresAt: now + HOUR,
  });
  return await store.confirmTotp(userId, {
    secret,
    step: 1,
    recoveryCodeHashes: ["a", "b"],
    now,
  });
}

// The columns and what the factor tables hold, for one account.
async function counted(sql: postgres.Sql, schema: string, userId: string) {
  const [row] = await sql.unsafe(
    `SELECT u.totp_enabled, u.passkey_count,
       EXISTS (SELECT 1 FROM "${schema}".totp t WHERE t.user_id = u.id)
         AS has_totp,
       (SELECT count(*)::int FROM "${schema}".passkeys p WHERE p.user_id = u.id)
         AS passkeys
     FROM "${schema}".users u WHERE u.id = $1`,
    [userId],
  );
  return row!;
}

Deno.test({
  name:
    "PostgresStore keeps the factor columns exact under hundreds of concurrent enrolments and removals, without deadlock",
  ignore: ignorePostgres,
  async fn() {
    const { store, sql, schema, close } = await schemaStore();
    try {
      const ada = await addUser(store, { email: "ada@example.com" });
      const added = await Promise.all(
        Array.from({ length: 60 }, () => store.addPasskey(passkey(ada.id), 40)),
      );
      assert.equal(added.filter((p) => p !== null).length, 40, "the cap");
      assert.deepEqual(await counted(sql, schema, ada.id), {
        totp_enabled: false,
        passkey_count: 40,
        has_totp: false,
        passkeys: 40,
      });
      // Removals, TOTP on and off, an administrator removing everything,
      // new passkeys and session checks, all at once. Each may win or find
      // nothing to do; none may fail otherwise (a deadlock would be 40P01).
      const live = added.filter((p) => p !== null);
      const work: Array<Promise<unknown>> = [];
      for (let i = 0; i < 300; i++) {
        const kind = i % 6;
        work.push(
          kind === 0
            ? store.removePasskey(ada.id, live[i % live.length]!.id)
            : kind === 1
            ? enableTotp(store, ada.id).catch((err) => {
              if (
                err instanceof AuthError && err.code === "second_factor_enabled"
              ) return false;
              throw err;
            })
            : kind === 2
            ? store.disableTotp(ada.id)
            : kind === 3
            ? store.removeUserSecondFactor(ada.id, {})
            : kind === 4
            ? store.addPasskey(passkey(ada.id), 40)
            : store.accountFactors(ada.id),
        );
      }
      const results = await Promise.allSettled(work);
      const failures = results.filter((r) => r.status === "rejected");
      assert.deepEqual(
        failures.map((f) => String((f as PromiseRejectedResult).reason)),
        [],
      );
      const after = await counted(sql, schema, ada.id);
      assert.equal(after.totp_enabled, after.has_totp);
      assert.equal(after.passkey_count, after.passkeys);
      const factors = await store.accountFactors(ada.id);
      assert.equal(factors?.totpEnabled, after.has_totp);
      assert.equal(factors?.passkeyCount, after.passkeys);
    } finally {
      await close();
    }
  },
});
