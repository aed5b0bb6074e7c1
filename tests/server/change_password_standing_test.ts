// A password change in flight does not outlive the session that asked for
// it. Two instances on one store: the account's change on instance A passes
// its guard and is held just before it reads the account's credentials;
// meanwhile an administrator on instance B signs the account out everywhere
// (its password stays as it was). The held change then reads the account
// at its new generation, and the current password still matches it. Before,
// its commit expected that new generation, not the session's: the dead
// session changed the password and was handed a fresh, live session — a
// stolen session outliving the lockdown with the owner's password reset
// under them. Now 401 `session_absent`, the password as it was, no event.
// Every store.

import { assertEquals } from "../fixtures/assert.ts";
import { pairTest } from "../fixtures/instances.ts";
import { held } from "../fixtures/instrument.ts";
import { addUser, PASSWORD } from "../fixtures/kv.ts";
import { answerOf, servedSecurityApi } from "../fixtures/security.ts";

const NEW_PASSWORD = "a quite different passphrase 7";

pairTest(
  "refuse a held password change once another instance signed the account out everywhere",
  async (pair) => {
    const root = await addUser(pair.b, {
      email: "root@example.com",
      role: "admin",
    });
    const user = await addUser(pair.b, {
      email: "own@example.com",
      role: "member",
    });
    const gate = held(pair.a, "credentialsByEmail");
    const a = servedSecurityApi(gate.store);
    const b = servedSecurityApi(pair.b);
    try {
      const rootCookie = await b.login(root.email);
      const cookie = await a.login(user.email);
      await a.gatehouse.settled();

      gate.arm();
      const inFlight = a.call("POST", "/api/auth/password", {
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
      }, { cookie });
      await gate.reached();
      const done = await b.call(
        "DELETE",
        `/api/users/${user.id}/sessions`,
        undefined,
        { cookie: rootCookie },
      );
      assertEquals(done.status, 204);
      await done.body?.cancel();
      gate.release();

      const answer = await inFlight;
      const fresh = answer.headers.get("set-cookie");
      assertEquals(await answerOf(answer), "401 session_absent");
      assertEquals(fresh, null, "no session is handed to a dead one");
      await Promise.all([a.gatehouse.settled(), b.gatehouse.settled()]);
      // The password is the one it was: the change did not commit.
      const old = await b.call("POST", "/api/auth/login", {
        email: user.email,
        password: PASSWORD,
      });
      assertEquals(old.status, 200);
      await old.body?.cancel();
      const { events } = await pair.b.listAuditEvents({
        limit: 100,
        userId: user.id,
      });
      assertEquals(
        events.filter((e) => e.type === "password.changed").length,
        0,
      );
    } finally {
      gate.release();
      await Promise.all([a.close(), b.close()]);
    }
  },
);
