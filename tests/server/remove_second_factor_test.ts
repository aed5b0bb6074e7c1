// An administrator's "Remove second factor" (issue 26, item 8), on KV and
// Postgres: the list of accounts tells each account's second factors, so
// the users screen offers the removal only where there is one; removing
// from an account that has none answers 204 and records nothing (it used
// to record "two-step verification turned off"), still under the reach
// rule; removing a real one records one event, also when two removals race.
// Signing in is only the way in: argon2 checks the fixture password once per
// API and remembers it (securityApiWithRememberedPasswords).

import { assert, assertEquals } from "../fixtures/assert.ts";
import { refusal } from "../fixtures/api.ts";
import { testEachStore } from "../fixtures/stores.ts";
import {
  people,
  type securityApi,
  securityApiWithRememberedPasswords,
} from "../fixtures/security.ts";
import { enrolTotp } from "../fixtures/second_factor.ts";
import { CHANGE_WINDOW } from "../../server/core/_change_budget.ts";

testEachStore(
  "the list of accounts tells each account's second factors",
  async (store) => {
    const { root, member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    await enrolTotp(api, await api.login(member.email));
    const res = await api.call("GET", "/api/users?limit=10", undefined, {
      cookie: await api.login(root.email),
    });
    assertEquals(res.status, 200);
    const { users } = await res.json();
    const of = (id: string) =>
      users.find((u: { id: string }) => u.id === id)?.second_factor;
    assertEquals(of(member.id), { totp: true, passkeys: 0 });
    assertEquals(of(other.id), { totp: false, passkeys: 0 });
  },
);

testEachStore(
  "removing the second factor of an account without one answers 204 and records no event",
  async (store) => {
    const { root, support, member, other } = await people(store);
    const api = securityApiWithRememberedPasswords(store);
    const asSupport = await api.login(support.email);
    const remove = (id: string) =>
      api.call("DELETE", `/api/users/${id}/second-factor`, undefined, {
        cookie: asSupport,
      });
    const disabled = async () =>
      (await api.events()).filter((e) => e.type === "second_factor.disabled");

    const none = await remove(other.id);
    assertEquals(none.status, 204);
    assertEquals(await disabled(), [], "nothing removed, nothing recorded");
    // Beyond reach, the answer does not tell whether there is a factor.
    assertEquals(await refusal(await remove(root.id)), [
      403,
      "role_beyond_reach",
    ]);
    assertEquals(await disabled(), []);

    // A real one is removed and recorded, once.
    await enrolTotp(api, await api.login(member.email));
    const done = await remove(member.id);
    assertEquals(done.status, 204);
    assert((await store.accountFactors(member.id))?.totpEnabled === false);
    const events = await disabled();
    assertEquals(events.length, 1);
    assertEquals(events[0]!.targetId, member.id);
    // Again: nothing left, nothing recorded.
    assertEquals((await remove(member.id)).status, 204);
    assertEquals((await disabled()).length, 1);
  },
);

// Rounds of: the member enrols TOTP, then `removals` run at once; each
// round removes one factor, so each records one event. Every round signs
// everyone in anew past a whole change window: the member's own removals
// and enrolments stay within its budget, every session fresh.
async function racingRemovals(
  store: Parameters<typeof people>[0],
  removals: (
    api: ReturnType<typeof securityApi>,
    cookies: { root: string; support: string; member: string },
    memberId: string,
  ) => Promise<Response>[],
  rounds = 10,
) {
  const { root, support, member } = await people(store);
  const api = securityApiWithRememberedPasswords(store);
  for (let round = 0; round < rounds; round++) {
    api.advance(CHANGE_WINDOW);
    const cookies = {
      root: await api.login(root.email),
      support: await api.login(support.email),
      member: await api.login(member.email),
    };
    await enrolTotp(api, cookies.member);
    const answers = await Promise.all(removals(api, cookies, member.id));
    for (const res of answers) {
      await res.body?.cancel();
      assertEquals(res.status, 204);
    }
    assertEquals((await store.accountFactors(member.id))?.totpEnabled, false);
  }
  const disabled = (await api.events()).filter((e) =>
    e.type === "second_factor.disabled" && e.targetId === member.id
  );
  assertEquals(disabled.length, rounds, "one event per removal");
}

// An administrator's removal of `id`'s second factor with `cookie`.
const removeAs = (
  api: ReturnType<typeof securityApi>,
  cookie: string,
  id: string,
) =>
  api.call("DELETE", `/api/users/${id}/second-factor`, undefined, { cookie });

testEachStore(
  "two administrators removing one account's second factor at once record one event",
  async (store) => {
    await racingRemovals(store, (api, cookies, id) => [
      removeAs(api, cookies.root, id),
      removeAs(api, cookies.support, id),
    ]);
  },
);

testEachStore(
  "a hundred removals of one account's second factor at once, by two administrators, record one event",
  async (store) => {
    await racingRemovals(
      store,
      (api, cookies, id) =>
        Array.from(
          { length: 100 },
          (_, i) => removeAs(api, i % 2 ? cookies.root : cookies.support, id),
        ),
      2,
    );
  },
);

testEachStore(
  "an administrator's removal racing the owner's own records one event",
  async (store) => {
    await racingRemovals(store, (api, cookies, id) => [
      removeAs(api, cookies.root, id),
      api.call("DELETE", "/api/auth/totp", undefined, {
        cookie: cookies.member,
      }),
    ]);
  },
);
