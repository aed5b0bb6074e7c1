// A passkey registration in flight when an administrator disables its
// account on another instance: two instances on one store, over real
// servers, on KV, Postgres and SQLite. The registration holds at the
// store's `addPasskey` (its challenge spent, its attestation verified) while
// the other instance disables the account, which ends its sessions. The
// store refuses the commit; the answer is the guard's, 401
// `session_absent`, and nothing is stored: no passkey, no count on the
// account, no `passkey.added`, and the change is given back to the
// account's budget. Before, it was 404 `user_not_found`, a status and code
// `registerPasskey`'s contract does not list.

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { registration } from "../fixtures/passkey_ceremonies.ts";
import { answerOf, people, servedSecurityApi } from "../fixtures/security.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";

pairTest(
  "a passkey registration whose account is disabled before its commit answers 401 session_absent and stores nothing",
  async ({ a, b }) => {
    const { root, member } = await people(a);
    const hold = held(a, "addPasskey");
    const one = servedSecurityApi(hold.store);
    const two = servedSecurityApi(b);
    try {
      const session = await one.login(member.email);
      const admin = await two.login(root.email);
      const { response, cookie } = await registration(
        one,
        session,
        await createAuthenticator(),
      );
      hold.arm();
      const registered = one.call("POST", "/api/auth/passkeys", { response }, {
        cookie,
      });
      await hold.reached();
      const disabled = await two.call(
        "PATCH",
        `/api/users/${member.id}`,
        { disabled: true },
        { cookie: admin },
      );
      assertEquals(await answerOf(disabled), "200");
      hold.release();
      assertEquals(await answerOf(await registered), "401 session_absent");
      assertEquals(await a.listPasskeys(member.id), []);
      assertEquals((await b.accountFactors(member.id))?.passkeyCount, 0);
      assertEquals(
        (await one.events()).filter((e) => e.type === "passkey.added"),
        [],
      );
      assertEquals(
        (await a.readCounter(`changes:account:${member.id}`, one.clock()))
          ?.count,
        0,
      );
    } finally {
      await one.close();
      await two.close();
    }
  },
);
