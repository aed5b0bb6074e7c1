// Ending one session by its id (`DELETE /api/auth/sessions/{id}`, DESIGN.md
// §8) a hundred times at once, over a real `Deno.serve` on 127.0.0.1, on
// every store: one request ends it (204), the others find it gone (404
// `session_not_found`), the trail records one `session.revoked`, the ended
// session no longer works and the caller's still does. Likewise ending all
// the others (`DELETE /api/auth/sessions`), on one instance and on two.

import { assertEquals } from "../fixtures/assert.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  answerOf,
  people,
  servedSecurityApi,
  sessionsOf,
  tally,
  withServedApi,
} from "../fixtures/security.ts";
import { pairTest } from "../fixtures/instances.ts";

testEachStore(
  "over HTTP: a hundred DELETE /api/auth/sessions/{id} of one session at once end it once: one 204, 99 session_not_found, one session.revoked",
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const caller = await api.login(member.email);
      const ended = await api.login(member.email);
      const [other] = (await sessionsOf(api, caller)).filter((s) => !s.current);
      const id = other!.id;
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          api.call("DELETE", `/api/auth/sessions/${id}`, undefined, {
            cookie: caller,
          }).then(answerOf)),
      );
      // One ends it; every other one finds it gone.
      assertEquals(tally(answers), {
        "204": 1,
        "404 session_not_found": 99,
      });

      const revoked = (await api.events()).filter((e) =>
        e.type === "session.revoked"
      );
      assertEquals(
        revoked.map((e) => [e.actorId, e.targetId, e.ip, e.detail]),
        // 127.0.0.1: the calls crossed the network.
        [[member.id, member.id, "127.0.0.1", {
          session_id: id,
          current: "false",
        }]],
      );
      assertEquals(await api.live(ended), false, "the ended session");
      assertEquals(await api.live(caller), true, "the caller's session");
      assertEquals(
        (await sessionsOf(api, caller)).map((s) =>
          s.current
        ),
        [true],
      );
      assertEquals(
        api.logger.lines.filter((l) => l.level === "error"),
        [],
        "nothing logged as an error",
      );
    }),
);

testEachStore(
  "over HTTP: a hundred DELETE /api/auth/sessions at once end the other sessions once: 204s, one session.revoked",
  (store) =>
    withServedApi(store, async (api, { member }) => {
      const caller = await api.login(member.email);
      const others: string[] = [];
      for (let i = 0; i < 5; i++) others.push(await api.login(member.email));
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          api.call("DELETE", "/api/auth/sessions", undefined, {
            cookie: caller,
          }).then(answerOf)),
      );
      // The answer says the others are gone, which each finds true.
      assertEquals(tally(answers), { "204": 100 });
      // Before, every call that listed the others before one had ended them
      // recorded its own (three of a hundred on Postgres).
      const revoked = (await api.events()).filter((e) =>
        e.type === "session.revoked"
      );
      assertEquals(
        revoked.map((e) => [e.actorId, e.detail.scope]),
        [[member.id, "others"]],
      );
      for (const other of others) {
        assertEquals(await api.live(other), false, "another session");
      }
      assertEquals(await api.live(caller), true, "the caller's session");
      assertEquals(
        api.logger.lines.filter((l) =>
          l.level === "error"
        ),
        [],
        "nothing logged as an error",
      );
    }),
);

pairTest(
  "over HTTP: a hundred DELETE /api/auth/sessions spread over both end the other sessions once",
  async (pair) => {
    const { member } = await people(pair.a);
    const a = servedSecurityApi(pair.a);
    const b = servedSecurityApi(pair.b);
    try {
      const caller = await a.login(member.email);
      const others: string[] = [];
      for (let i = 0; i < 5; i++) others.push(await b.login(member.email));
      const answers = await Promise.all(
        Array.from(
          { length: 100 },
          (_, i) =>
            (i % 2 === 0 ? a : b).call(
              "DELETE",
              "/api/auth/sessions",
              undefined,
              {
                cookie: caller,
              },
            ).then(answerOf),
        ),
      );
      assertEquals(tally(answers), { "204": 100 });
      const revoked = (await a.events()).filter((e) =>
        e.type === "session.revoked"
      );
      assertEquals(revoked.length, 1, "one session.revoked");
      for (const other of others) assertEquals(await a.live(other), false);
      assertEquals(await b.live(caller), true, "the caller's session");
    } finally {
      await a.close();
      await b.close();
    }
  },
);
