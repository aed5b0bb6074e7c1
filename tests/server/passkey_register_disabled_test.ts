// A passkey registration in flight when an administrator disables its
// account on another instance: two instances on one store, over real
// servers, on KV, Postgres and SQLite. The registration holds at the
// store's `addPasskey` (its challenge spent, its attestation verified) while
// the other instance disables the account, which ends its sessions. The
// store refuses the commit; the answer is the guard's, 401
// `session_absent`, and nothing is stored: no passkey, no count on the
// account, no `passkey.added`, and the change is given back to the
// account's budget. Before, it was 404 `user_not_found`, a status and code
// `registerPasskey`'s contract does not list. The same holds when the
// administrator signs the account out everywhere instead: the account stays
// enabled, but the session the registration came with is dead (before, the
// passkey was stored: a way in that outlived the sign-out).

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { registration } from "../fixtures/passkey_ceremonies.ts";
import { answerOf, people, servedSecurityApi } from "../fixtures/security.ts";
import { createAuthenticator } from "../fixtures/webauthn.ts";

for (
  const [what, method, path, payload, answer] of [
    ["disabled", "PATCH", "", { disabled: true }, "200"],
    ["signed out everywhere", "DELETE", "/sessions", undefined, "204"],
  ] as const
) {
  pairTest(
    `a passkey registration whose account is ${what} before its commit answers 401 session_absent and stores nothing`,
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
        const registered = one.call(
          "POST",
          "/api/auth/passkeys",
          { response },
          {
            cookie,
          },
        );
        await hold.reached();
        const intervened = await two.call(
          method,
          `/api/users/${member.id}${path}`,
          payload,
          { cookie: admin },
        );
        assertEquals(await answerOf(intervened), answer);
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
}
